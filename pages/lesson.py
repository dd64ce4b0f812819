"""The lesson: eight steps from the Perceptron to SCW, a story and a live view each.

Next / Previous move through :data:`olearn.teaching.lesson.STEPS`; the step is in the URL
(``?step=3``).  Each view is drawn here through the same cached entry points as its page, and
a link opens that page in the same state (same tab).  ``?hide=all`` hides the step picker.
"""

import streamlit as st

from olearn.app.cached import comparison, cw_noise, cw_step, spa_views, stream_views
from olearn.app.components.keys import step_keys
from olearn.app.frame import require_frame
from olearn.app.ui import (
    Controls,
    fill,
    guard,
    lang,
    plot,
    progress_bar,
    projector,
    query_param,
    stage_box,
    tr,
)
from olearn.teaching.lesson import C_GRID, STEPS, deep_link, playground_run
from olearn.teaching.settings import DEFAULT_SPA, CompareRun, SpaScenario, default_cw

require_frame()  # (a page run alone by Streamlit's legacy mode runs the frame)

L = lang()
ui = Controls("lesson")
N = len(STEPS)


def move(delta: int) -> None:
    ui.set("step", min(max(ui.get("step", 1) + delta, 1), N))


def current() -> int:
    """The step about to be shown (before its picker is drawn): session, else URL, else 1."""
    value = ui.get("step")
    if value is None:
        value = query_param("step", 1)
    return value if 1 <= value <= N else 1


def spa_scenario(params: dict) -> SpaScenario:
    rule = {"SPA": None, "SPA-I": "I", "SPA-II": "II"}[params["rule"]]
    return SpaScenario(params["scenario"], rule, float(params.get("C", DEFAULT_SPA.C)))


def view(step) -> int | None:
    """Draw ``step``'s view; returns the SPA walkthrough's length when it has one."""
    p = step.params
    if step.view == "stream":
        run = playground_run(p)  # the run its page computes from the link below
        # the figures at step t; in projector mode the regions take what the curve leaves
        heights = (300, 190) if projector() else (520, 300)
        views = stream_views(run, L, True, heights, p["t"])
        plot(views["planes"], key="lesson.planes", **fill())
        plot(views["curves"], key="lesson.curve")
        return None
    if step.view == "cap":  # SPA-I beside SPA-II: the cap against the smooth shrink
        for column, rule in zip(st.columns(2), ("SPA-I", "SPA-II")):
            with column:
                st.markdown(f"**{rule}**")
                cap = spa_views(spa_scenario({**p, "rule": rule}), L).cap
                plot(cap, key=f"lesson.cap.{rule}", **fill())
        return len(spa_views(spa_scenario(p), L).walk.steps)
    if step.view in ("pa_beside", "spa_after"):
        views = spa_views(spa_scenario(p), L)
        last = len(views.walk.steps) - 1
        if step.view == "pa_beside":
            st.markdown(views.walk.pa_text)
            plot(views.pa, key="lesson.pa", **fill())
        else:
            st.markdown(views.walk.steps[last].text)
            plot(views.steps[last], key="lesson.spa", **fill())
        return len(views.walk.steps)
    if step.view == "cw":  # as its page
        plot(cw_step(default_cw(p["rule"]), 6, L).figure, key="lesson.cw", **fill())
        return None
    if step.view == "noise":
        _, fig = cw_noise(float(p["noise"]), int(p["passes"]), 0, L)
        plot(fig, key="lesson.noise", **fill())
        return None
    setting = CompareRun(
        p["data"],
        tuple(p["algos"].split(",")),
        C_GRID,
        p["epochs"],
        p["folds"],
        p["seed"],
        p["max"],
        p["scale"],
    )
    with progress_bar(tr("lesson.progress")) as bar:  # gone when it ends, error or not
        res, fig_err, _, _ = comparison(
            setting,
            L,
            progress=lambda share, msg: bar.progress(min(share, 1.0), tr("lesson.progress")),
        )
    plot(fig_err, key="lesson.real", **fill())
    return None


with guard():
    if not projector():  # (in projector mode the step's title heads the page)
        st.title(tr("lesson.title"))
        st.caption(tr("lesson.intro"))
    wide = STEPS[current() - 1].view == "cw"  # a three-panel figure
    story, shown = st.columns([1, 2] if wide else [2, 3], gap="medium")
    with story:
        number = ui.select(
            "step",
            tr("lesson.step"),
            list(range(1, N + 1)),
            1,
            format_func=lambda i: f"{i}. {STEPS[i - 1].title(L)}",
            label_visibility="collapsed",
            where=st.container(key="olearn-head") if projector() else None,  # (clear of >>)
        )
        step = STEPS[number - 1]
        b1, b2 = st.columns(2)
        b1.button(
            tr("lesson.prev"),
            on_click=move,
            args=(-1,),
            key="lesson.prev",
            width="stretch",
            disabled=number == 1,
        )
        b2.button(
            tr("lesson.next"),
            on_click=move,
            args=(1,),
            key="lesson.next",
            width="stretch",
            disabled=number == N,
        )
        step_keys("lesson.keys", "lesson.next", "lesson.prev")  # PageDown / PageUp, arrows, space
        st.caption(tr("lesson.of", i=number, n=N))
        if projector():
            st.caption(tr("keys.step"))
        st.markdown(f"### {step.title(L)}")
        st.markdown(step.text(L))
        link = st.empty()
    with shown, stage_box("lesson"):
        substeps = view(step)
    link.markdown(
        f'<a href="{deep_link(step, L, substeps)}" target="_self">{tr("lesson.open")}</a>',
        unsafe_allow_html=True,
    )
    ui.sync()
