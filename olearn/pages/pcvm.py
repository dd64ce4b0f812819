"""PCVM: EM iterations animated (gamma, weights left, boundary) and the lambda sweep."""

import streamlit as st

from olearn.app.cached import pcvm_figures, pcvm_page
from olearn.app.ui import Controls, guard, lang, plot, tr

L = lang()
ui = Controls("pcvm")

with guard():
    st.title(tr("pcvm.title"))
    st.caption(tr("pcvm.intro"))
    c1, c2, c3, c4, c5 = st.columns([2, 2, 2, 2, 1])
    kind = ui.select(
        "kind",
        tr("pcvm.data"),
        ["moons", "xor", "blobs", "separable"],
        "moons",
        where=c1,
        format_func=lambda k: tr(f"play.kind.{k}"),
    )
    n = ui.select_slider("n", tr("play.n"), [30, 60, 80, 120, 200], 80, where=c2)
    lam = ui.select_slider(
        "lam", tr("pcvm.lambda"), [0.0, 10.0, 1000.0, 20000.0, 80000.0], 20000.0, where=c3
    )
    theta = ui.select_slider("theta", tr("pcvm.theta"), [0.3, 0.5, 0.7, 1.0, 1.5], 0.7, where=c4)
    seed = ui.number("seed", tr("ui.seed"), 0, 10_000, 0, where=c5, step=1)
    with st.spinner():
        walk, sweep = pcvm_page(kind, int(n), float(lam), float(theta), int(seed))
    n_iter = len(walk.history)
    playing = st.toggle(tr("pcvm.animate"), key="pcvm.playing")

    @st.fragment(run_every=0.5 if playing else None)
    def frame():
        with guard():  # a fragment's errors do not reach the page's guard
            if st.session_state.get("pcvm.playing"):  # animate: next iteration, then loop
                ui.set("i", ui.get("i", n_iter) % n_iter + 1)
            i = ui.slider("i", tr("pcvm.iteration"), 1, n_iter, n_iter) - 1
            fig_plane, fig_hist = pcvm_figures(
                kind, int(n), float(lam), float(theta), int(seed), int(i), L
            )
            left, right = st.columns(2)
            with left:
                plot(fig_plane, key="pcvm.plane")
            with right:
                plot(fig_hist, key="pcvm.hist")

    frame()
    st.markdown(f"#### {tr('pcvm.sweep')}")
    st.dataframe(sweep, hide_index=True)
    ui.sync()
