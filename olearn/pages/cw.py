"""Confidence-weighted: one CW / AROW / SCW update, and seed 001's label-noise claim."""

import streamlit as st

from olearn.app.cached import cw_noise, cw_page
from olearn.app.ui import Controls, guard, lang, plot, tr

L = lang()
ui = Controls("cw")
RULES = {"cw": "CW", "arow": "AROW", "scw1": "SCW-I", "scw2": "SCW-II"}

with guard():
    st.title(tr("cw.title"))
    st.caption(tr("cw.intro"))
    c1, c2, c3, c4, c5, c6 = st.columns([3, 2, 2, 2, 2, 1])
    rule = ui.select(
        "rule", tr("cw.rule"), list(RULES), "arow", where=c1, radio=True, format_func=RULES.get
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
    warmup = ui.slider("warmup", tr("cw.warmup"), 0, 30, 6, where=c5)
    seed = ui.number("seed", tr("ui.seed"), 0, 10_000, 0, where=c6, step=1)
    walk, fig = cw_page(rule, float(eta), float(r), float(C), int(warmup), int(seed), L)
    plot(fig, key="cw.fig")
    left, right = st.columns([1, 2])
    with left:
        st.markdown(f"#### {tr('cw.numbers')}")
        st.markdown(
            tr(
                "cw.verdict",
                alpha=f"{walk.trace.alpha:.4g}",
                beta=f"{walk.trace.beta:.4g}",
                prob=f"{walk.trace.prob_after:.4g}",
                eta=walk.table.set_index("quantity")["value"]["η"],
            )
        )
        st.dataframe(walk.table, hide_index=True)
    with right:
        st.markdown(f"#### {tr('cw.noise_title')}")
        n1, n2 = st.columns(2)
        noise = ui.select_slider("noise", tr("cw.noise"), [0.0, 0.1, 0.2, 0.3], 0.2, where=n1)
        passes = ui.slider("passes", tr("cw.passes"), 1, 5, 3, where=n2)
        with st.spinner():
            table, noise_fig = cw_noise(float(noise), int(passes), int(seed), L)
        plot(noise_fig, key="cw.noise_fig")
        st.caption(tr("cw.noise_caption"))
    ui.sync()
