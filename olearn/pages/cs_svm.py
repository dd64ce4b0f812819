"""The Crammer-Singer SVM: the decomposition one sub-problem at a time, played in the browser,
against LIBLINEAR's optimum."""

import streamlit as st

from olearn.app.cached import cs_figures, cs_page
from olearn.app.ui import Controls, guard, lang, plot, presenting, tr
from olearn.teaching.strings import num

L = lang()
ui = Controls("cs")
hide_all = "all" in ui.hidden
present = hide_all or presenting()  # the figure, the step's text and its buttons side by side

with guard():
    if present:
        st.markdown(f"### {tr('cs.title')}")
    else:
        st.title(tr("cs.title"))
        st.caption(tr("cs.intro"))
    box = (
        st.expander(tr("walks.settings"), icon=":material/tune:")
        if present and not hide_all
        else st
    )
    row = box.columns([2, 2, 1, 2, 1]) if not hide_all else [None] * 5  # no empty box
    c1, c2, c3, c4, c5 = row
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
    n_changed = max(len(walk.changed), 1)
    left, right = st.columns([2.7, 1], vertical_alignment="top")
    text = right.container()  # filled below; the slider sits under it
    k = ui.slider("s", tr("cs.step"), 1, n_changed, 1, where=right)
    s = int(walk.changed[k - 1]) if len(walk.changed) else 0
    fig, table = cs_figures(kind, int(n), int(K), float(C), int(seed), s, L)
    with left:
        plot(fig, key="cs.fig")
    with text:
        step = walk.steps[s]
        st.markdown("#### " + tr("cs.step_title", k=k, n=n_changed, sweep=int(walk.step_sweep[s])))
        thetas = (
            " → ".join(num(v, 3) for v in step.fixed_point.thetas)
            if step.fixed_point is not None
            else "—"
        )
        st.markdown(
            tr(
                "cs.step_text",
                p=step.p,
                y=step.y,
                A=num(step.A),
                v=num(step.violation, 3),
                thetas=thetas,
                S="{" + ", ".join(map(str, step.support_classes)) + "}",
            )
        )
        b1, b2 = st.columns(2)
        b1.button(
            tr("cs.prev"),
            key="cs.prev",
            on_click=ui.set,
            args=("s", max(k - 1, 1)),
            disabled=k <= 1,
            width="stretch",
            shortcut="left",
        )
        b2.button(
            tr("cs.next"),
            key="cs.next",
            type="primary",
            on_click=ui.set,
            args=("s", min(k + 1, n_changed)),
            disabled=k >= n_changed,
            width="stretch",
            shortcut="right",
        )
        st.caption(tr("cs.play_help"))
    last = walk.sweeps.iloc[-1]
    st.info(
        tr(
            "cs.final",
            gap=f"{last['gap']:.2e}",
            sweeps=int(last["sweep"]),
            ours=num(last["primal"], 6),
            ref=num(walk.liblinear_primal, 6),
        )
    )
    st.dataframe(table, hide_index=True)
    ui.sync()
