"""The Crammer-Singer SVM: the decomposition step by step, against LIBLINEAR's optimum."""

import streamlit as st

from olearn.app.cached import cs_figures, cs_page
from olearn.app.ui import Controls, guard, lang, plot, tr

L = lang()
ui = Controls("cs")

with guard():
    st.title(tr("cs.title"))
    st.caption(tr("cs.intro"))
    c1, c2, c3, c4, c5 = st.columns([2, 2, 1, 2, 1])
    kind = ui.select(
        "kind",
        tr("play.kind"),
        ["blobs", "separable", "drift"],
        "blobs",
        where=c1,
        format_func=lambda k: tr(f"play.kind.{k}"),
    )
    n = ui.select_slider("n", tr("play.n"), [20, 40, 60, 100, 150], 60, where=c2)
    K = ui.slider("K", tr("play.K"), 2, 5, 3, where=c3)
    C = ui.select_slider("C", "C", [0.01, 0.1, 0.3, 1.0, 3.0, 10.0], 1.0, where=c4)
    seed = ui.number("seed", tr("ui.seed"), 0, 10_000, 0, where=c5, step=1)
    with st.spinner():
        walk = cs_page(kind, int(n), int(K), float(C), int(seed))
    last = walk.sweeps.iloc[-1]
    st.info(
        tr(
            "cs.final",
            gap=f"{last['gap']:.2e}",
            sweeps=int(last["sweep"]),
            ours=f"{last['primal']:.6g}",
            ref=f"{walk.liblinear_primal:.6g}",
        )
    )
    s = ui.slider("s", tr("cs.step"), 1, len(walk.steps), 1) - 1
    fig_gap, fig_plane = cs_figures(kind, int(n), int(K), float(C), int(seed), int(s), L)
    left, right = st.columns(2)
    with left:
        plot(fig_plane, key="cs.plane")
    with right:
        plot(fig_gap, key="cs.gap")
    step = walk.steps[s]
    thetas = (
        " → ".join(f"{v:.3g}" for v in step.fixed_point.thetas)
        if step.fixed_point is not None
        else "—"
    )
    st.markdown(
        tr(
            "cs.step_text",
            p=step.p,
            y=step.y,
            A=f"{step.A:.4g}",
            v=f"{step.violation:.3g}",
            thetas=thetas,
            S="{" + ", ".join(map(str, step.support_classes)) + "}",
        )
    )
    st.dataframe(walk.step_table(s), hide_index=True)
    ui.sync()
