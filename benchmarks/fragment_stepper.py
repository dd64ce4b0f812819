"""A prototype, not part of the app: the SPA page's and the CW page's Back / Next as an
``st.fragment`` with ``st.button(..., shortcut=...)`` and the step in the URL, Streamlit's
public API only (issue 20, item 2).  ``benchmarks/app_timing.py --stepper-fragment`` runs it
(``streamlit run benchmarks/fragment_stepper.py``) beside the app and times its Next exactly
as the app's browser stepper (:mod:`olearn.app.components.stepper`) is timed, in the same run.

A click (or the key ← / →) reruns only the fragment: the step's title, text and formulas, its
figures (``st.plotly_chart`` with the next cached figure) and its table are sent again; the
rest of the page stays.  The step is ``?step=`` (SPA) or ``?t=`` (CW) in the URL, read on
arrival and written by every run of the fragment, so a link opens at a step.  Pages:
``/?page=spa&step=0`` (scenario three-rivals) and ``/?page=cw&t=1`` (AROW, presentation
layout).
"""

from __future__ import annotations

import streamlit as st

from olearn.app.cached import cw_step, cw_updates, spa_views
from olearn.app.ui import plot, query_param
from olearn.teaching.settings import CwWalk, SpaScenario


def _buttons(key: str, at: int, n: int) -> None:
    """Back / Next (keys ← / →) moving ``st.session_state[key]`` within ``0..n-1``."""

    def move(by: int) -> None:
        st.session_state[key] = min(n - 1, max(0, st.session_state[key] + by))

    back, nxt = st.columns(2)
    back.button("Back", key="fback", shortcut="Left", on_click=move, args=(-1,), disabled=at <= 0)
    nxt.button(
        "Next",
        key="fnext",
        shortcut="Right",
        type="primary",
        on_click=move,
        args=(1,),
        disabled=at >= n - 1,
    )


def spa_page() -> None:
    views = spa_views(SpaScenario("three-rivals", None, 0.3, 0, None), "en")
    walk = views.walk
    n = len(walk.steps)
    if "step" not in st.session_state:
        st.session_state.step = query_param("step", 0, lambda v: 0 <= v < n)
    st.title("SPA (fragment prototype)")

    @st.fragment
    def stepping() -> None:
        i = st.session_state.step
        st.query_params["step"] = str(i)
        fig_col, text_col = st.columns([3, 2], gap="medium")
        with text_col:
            _buttons("step", i, n)
            step = walk.steps[i]
            st.markdown(f"#### {step.title}")
            st.markdown(step.text)
            for formula in step.latex:
                st.latex(formula)
        with fig_col:
            plot(views.steps[i], key="spa-fig")
        st.table(views.tables[i])

    stepping()  # (the page below the step is not drawn: a fragment's rerun leaves it alone)


def cw_page() -> None:
    setting = CwWalk.of("arow", 0, r=1.0)
    updates = cw_updates(setting)
    if "k" not in st.session_state:
        t = query_param("t", 1, lambda v: v >= 1)
        st.session_state.k = next((k for k, i in enumerate(updates) if i >= t - 1), 0)
    st.markdown("### CW (fragment prototype)")

    @st.fragment
    def stepping() -> None:
        k = st.session_state.k
        view = cw_step(setting, updates[k], "en")
        st.query_params["t"] = str(updates[k] + 1)
        left, right = st.columns([2.6, 1])
        with right:
            _buttons("k", k, len(updates))
            st.markdown(f"#### Update {k + 1} of {len(updates)}: example {updates[k] + 1}")
        with left:
            plot(view.figure, key="cw-fig")
        a, b = st.columns(2)
        with a:
            plot(view.inputs, key="cw-input")
        with b:
            st.table(view.table)

    stepping()


st.set_page_config(layout="wide")
(cw_page if st.query_params.get("page") == "cw" else spa_page)()
