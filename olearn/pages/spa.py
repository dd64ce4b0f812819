"""One SPA update, sub-step by sub-step (the signature page)."""

import streamlit as st

from olearn.app.cached import spa_figures, spa_walk
from olearn.app.ui import Controls, guard, lang, plot, tr
from olearn.teaching.stream import instance_from_url, instance_to_url

L = lang()
ui = Controls("spa")
SCENARIOS = (
    "pa-failure",
    "three-rivals",
    "printed-I",
    "printed-II",
    "passive",
    "random",
    "playground",
)
RULES = {"SPA": None, "SPA-I": "I", "SPA-II": "II"}
C_VALUES = [0.001, 0.003, 0.01, 0.03, 0.1, 0.2, 0.3, 0.5, 1.0, 2.0, 3.0, 10.0, 30.0, 100.0]


def reset_step():
    ui.set("step", 0)


with guard():
    st.title(tr("spa.title"))
    st.caption(tr("spa.intro"))
    c1, c2, c3, c4 = st.columns([3, 2, 2, 1])
    name = ui.select(
        "scenario",
        tr("spa.scenario"),
        SCENARIOS,
        "pa-failure",
        where=c1,
        format_func=lambda s: tr(f"spa.scenario.{s}"),
        on_change=reset_step,
    )
    rule = ui.select(
        "rule", tr("spa.variant"), list(RULES), "SPA", where=c2, radio=True, on_change=reset_step
    )
    C = ui.select_slider("C", tr("spa.C"), C_VALUES, 0.3, where=c3, disabled=RULES[rule] is None)
    seed = ui.number("seed", tr("ui.seed"), 0, 10_000, 0, where=c4, step=1, on_change=reset_step)
    K = (
        ui.slider("K", tr("spa.classes"), 3, 8, 4, where=c4, on_change=reset_step)
        if name == "random"
        else None
    )
    playground = None
    if name == "playground":  # the hand-over travels in the URL (?pg=...), so links work
        playground = instance_from_url(st.query_params) or st.session_state.get(
            "playground.instance"
        )
        if playground is not None:
            ui.values.update(instance_to_url(playground))
    if name == "playground" and playground is None:
        st.info(tr("spa.playground_missing"))
        name = "pa-failure"
    walk = spa_walk(name, RULES[rule], float(C), int(seed), K, L, playground)

    n_steps = len(walk.steps)
    if ui.get("step", 0) >= n_steps:
        ui.set("step", n_steps - 1)

    def move(delta):
        ui.set("step", min(max(ui.get("step", 0) + delta, 0), n_steps - 1))

    b1, b2, b3 = st.columns([1, 6, 1], vertical_alignment="bottom")
    b1.button(tr("spa.prev"), on_click=move, args=(-1,), key="spa.prev", width="stretch")
    b3.button(tr("spa.next"), on_click=move, args=(1,), key="spa.next", width="stretch")
    index = ui.select_slider(
        "step",
        tr("spa.substep"),
        list(range(n_steps)),
        0,
        where=b2,
        format_func=lambda i: walk.steps[i].title,
    )
    step = walk.steps[index]
    fig_step, fig_cap, fig_pa = spa_figures(
        name, RULES[rule], float(C), int(seed), K, L, playground, index
    )
    plot(fig_step, key="spa.fig")
    left, right = st.columns(2)
    with left, st.container(border=True):
        st.markdown(f"#### {step.title}")
        st.markdown(step.text)
        st.dataframe(step.table, hide_index=True, width="stretch")
    with right, st.container(border=True):
        st.markdown(f"#### {tr('spa.pa_beside')}")
        st.markdown(walk.pa_text)
        plot(fig_pa, key="spa.pa_fig")
    tabs = st.tabs(
        [tr("spa.qp_title"), tr("spa.cap_title"), tr("spa.printed_title"), tr("spa.state")]
    )
    with tabs[0]:
        st.markdown(walk.qp_text)
        st.dataframe(walk.qp_table, hide_index=True)
    with tabs[1]:
        if walk.variant is None:
            st.info(tr("spa.cap_free", C="∞", T=f"{walk.spa.tau_sum:.4g}"))
        else:
            st.markdown(walk.cap_text)
            plot(fig_cap, key="spa.cap_fig")
    with tabs[2]:
        st.markdown(walk.printed_text)
        st.dataframe(walk.printed_table, hide_index=True)
    with tabs[3]:
        st.dataframe(walk.state_table, hide_index=True)
    ui.sync()
