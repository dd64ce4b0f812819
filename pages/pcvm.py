"""PCVM: EM iterations (gamma, weights left, boundary), the first ones where things move
taken one by one, and the lambda sweep."""

import streamlit as st

from olearn.app.cached import pcvm_figures, pcvm_page
from olearn.app.components.keys import step_keys
from olearn.app.frame import require_frame
from olearn.app.hypers import hyper_options
from olearn.app.ui import Controls, fill, guard, lang, plot, projector, stage_box, tr
from olearn.teaching.hypers import algorithm_hyper
from olearn.teaching.pcvm_walk import sweep_table
from olearn.teaching.strings import num

require_frame()  # (a page run alone by Streamlit's legacy mode runs the frame)

L = lang()
ui = Controls("pcvm")
LAM = algorithm_hyper("pcvm", "lam")  # the slider's range and default: the registry's

with guard():
    ui.header(tr("pcvm.title"), tr("pcvm.intro"))
    box = ui.settings(tr("walks.settings"))
    row = box.columns([2, 2, 2, 2, 1]) if box is not None else [None] * 5  # no empty box
    c1, c2, c3, c4, c5 = row
    kind = ui.select(
        "kind",
        tr("pcvm.data"),
        ["moons", "xor", "blobs", "separable"],
        "moons",
        where=c1,
        format_func=lambda k: tr(f"play.kind.{k}"),
    )
    n = ui.select_slider("n", tr("play.n"), [30, 60, 80, 120, 200], 80, where=c2)
    lam = ui.select_slider(  # 0: gamma fixed at 1 (Chen's PCVM), then the registry's range
        "lam",
        tr("pcvm.lambda"),
        [0.0, *hyper_options(LAM)],
        LAM.default,
        where=c3,
        format_func=lambda v: tr("pcvm.gamma_one") if v == 0 else f"{v:g}",
    )
    theta = ui.select_slider("theta", tr("pcvm.theta"), [0.3, 0.5, 0.7, 1.0, 1.5], 0.7, where=c4)
    seed = ui.number("seed", tr("ui.seed"), 0, 10_000, 0, where=c5, step=1)
    with st.spinner():
        walk, sweep = pcvm_page(kind, int(n), float(lam), float(theta), int(seed))
    n_iter = len(walk.history)
    order = walk.play_order()  # the first iterations one by one, then log strides

    def move(delta: int) -> None:
        """Step along the play order (the keys press these buttons too)."""
        now = ui.get("i", n_iter) - 1
        if delta > 0:
            later = [j for j in order if j > now]
            ui.set("i", (later[0] if later else now) + 1)
        else:
            earlier = [j for j in order if j < now]
            ui.set("i", (earlier[-1] if earlier else now) + 1)

    playing = st.toggle(tr("pcvm.animate"), key="pcvm.playing")
    step_keys("pcvm.keys", "pcvm.next", "pcvm.prev")  # PageDown / PageUp, arrows, space

    @st.fragment(run_every=0.7 if playing else None)
    def frame():
        with guard():  # a fragment's errors do not reach the page's guard
            if st.session_state.get("pcvm.playing"):  # animate: the next iteration in order
                now = ui.get("i", n_iter) - 1
                later = [j for j in order if j > now]
                ui.set("i", (later[0] if later else order[0]) + 1)
            # projector mode: the boundary on the left, the controls, the iteration's text and
            # the history on the right, each as tall as the screen allows
            left, right = st.columns(2) if projector() else (None, st.container())
            with right, stage_box("pcvm-side"):
                back, slide, forth = st.columns([1, 6, 1], vertical_alignment="bottom")
                back.button("◀", key="pcvm.prev", on_click=move, args=(-1,), width="stretch")
                forth.button("▶", key="pcvm.next", on_click=move, args=(1,), width="stretch")
                i = ui.slider("i", tr("pcvm.iteration"), 1, n_iter, n_iter, where=slide) - 1
                fig_plane, fig_hist = pcvm_figures(
                    kind, int(n), float(lam), float(theta), int(seed), i=int(i), lang=L
                )
                h = walk.history.iloc[i]
                st.markdown(
                    tr(
                        "pcvm.step_text",
                        i=i + 1,
                        n=n_iter,
                        gamma=num(h["gamma"], 3),
                        nz=int(h["non-zero weights"]),
                        N=len(walk.t),
                        err=num(h["train error %"], 3),
                    )
                )
                if projector():
                    st.caption(tr("keys.step"))
                    plot(fig_hist, key="pcvm.hist", **fill())
            if projector():
                with left, stage_box("pcvm-plane"):
                    plot(fig_plane, key="pcvm.plane", **fill())
            else:
                plane, hist = st.columns(2)
                with plane:
                    plot(fig_plane, key="pcvm.plane")
                with hist:
                    plot(fig_hist, key="pcvm.hist")

    frame()
    st.markdown(f"#### {tr('pcvm.sweep')}")
    st.dataframe(sweep_table(sweep, L), hide_index=True)
    ui.sync()
