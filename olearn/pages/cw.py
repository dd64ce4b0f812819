"""Confidence-weighted: CW / AROW / SCW updates one at a time, and seed 001's noise claim."""

import streamlit as st

from olearn import registry
from olearn.app.cached import cw_details, cw_noise, cw_page
from olearn.app.ui import Controls, guard, lang, plot, presenting, tr
from olearn.teaching.strings import num

L = lang()
ui = Controls("cw")
RULES = tuple(registry.keys(view="cw"))
hide_all = "all" in ui.hidden
present = hide_all or presenting()  # the figure, the step's text and its buttons side by side

with guard():
    if present:
        st.markdown(f"### {tr('cw.title')}")
    else:
        st.title(tr("cw.title"))
        st.caption(tr("cw.intro"))
    box = (
        st.expander(tr("walks.settings"), icon=":material/tune:")
        if present and not hide_all
        else st
    )
    row = box.columns([4, 2, 2, 2, 2, 1.2]) if not hide_all else [None] * 6  # no empty box
    c1, c2, c3, c4, c5, c6 = row
    rule = ui.select(
        "rule",
        tr("cw.rule"),
        RULES,
        "arow",
        where=c1,
        radio=True,
        format_func=lambda k: registry.get(k).name,
    )
    eta = ui.select_slider(
        "eta",
        tr("cw.eta"),
        [0.55, 0.6, 0.7, 0.75, 0.8, 0.9, 0.95, 0.99],
        0.75,
        where=c2,
        disabled=rule == "arow",
    )
    r = ui.select_slider(
        "r", tr("cw.r"), [0.01, 0.1, 0.3, 1.0, 3.0, 10.0], 1.0, where=c3, disabled=rule != "arow"
    )
    C = ui.select_slider(
        "C",
        tr("cw.C"),
        [0.01, 0.05, 0.1, 0.3, 1.0, 10.0],
        1.0,
        where=c4,
        disabled=rule not in ("scw1", "scw2"),
    )
    t = ui.slider("t", tr("cw.warmup"), 1, 80, 7, where=c5)  # 1-based, as the heading counts
    seed = ui.number("seed", tr("ui.seed"), 0, 10_000, 0, where=c6, step=1)
    args = (rule, float(eta), float(r), float(C), int(t) - 1, int(seed), L)
    walk, fig = cw_page(*args)
    fig_input, table = cw_details(*args)
    left, right = st.columns([2.6, 1], vertical_alignment="top")
    with left:
        plot(fig, key="cw.fig")
    with right:
        trace = walk.trace
        st.markdown(
            "#### "
            + tr("cw.step_title", k=walk.updates + 1, i=walk.index + 1, n=walk.n, y=f"{walk.y:+d}")
        )
        if walk.exhausted:
            st.info(tr("cw.exhausted"))
        else:
            st.markdown(
                tr(
                    "cw.step_text",
                    m=num(trace.m, 3),
                    v=num(trace.v, 3),
                    loss=num(trace.loss, 3),
                    alpha=num(trace.alpha, 3),
                    beta=num(trace.beta, 3),
                    prob=num(trace.prob_after, 3),
                )
            )
            if rule != "arow":
                st.markdown(tr("cw.step_eta", eta=num(eta)))
        b1, b2 = st.columns(2)
        b1.button(tr("cw.prev"), key="cw.restart", on_click=ui.set, args=("t", 1), width="stretch")
        b2.button(
            tr("cw.next"),
            key="cw.next",
            type="primary",
            on_click=ui.set,
            args=("t", walk.next_t + 1),
            disabled=walk.next_index is None,
            width="stretch",
            shortcut="right",
        )
    a, b = st.columns([1, 1])
    with a:
        plot(fig_input, key="cw.input")
    with b:
        st.markdown(f"#### {tr('cw.numbers')}")
        st.dataframe(table, hide_index=True)
    st.markdown(f"#### {tr('cw.noise_title')}")
    n1, n2, _ = st.columns([1, 1, 2])
    noise = ui.select_slider("noise", tr("cw.noise"), [0.0, 0.1, 0.2, 0.3], 0.2, where=n1)
    passes = ui.slider("passes", tr("cw.passes"), 1, 5, 3, where=n2)
    with st.spinner():
        _, noise_fig = cw_noise(float(noise), int(passes), int(seed), L)
    plot(noise_fig, key="cw.noise_fig")
    st.caption(tr("cw.noise_caption"))
    ui.sync()
