"""One SPA update, sub-step by sub-step (the signature page).

Layout: the figure and the current sub-step's text side by side, Previous / Next above the
text, so at 1280x720 in presentation mode (``?hide=all``) both are on screen without
scrolling; the printed-vs-derived formulas, the per-class numbers, PA beside SPA and the
checks follow below.
"""

import streamlit as st

from olearn.app.cached import spa_views
from olearn.app.components.stepper import (
    Predict,
    block_key,
    initial_css,
    reported_reveal,
    stepper,
)
from olearn.app.frame import require_frame
from olearn.app.hypers import hyper_options
from olearn.app.ui import (
    Controls,
    clamp_notes,
    figure_theme,
    fill,
    guard,
    inked,
    lang,
    painted,
    plot,
    projector,
    stage_box,
    tr,
)
from olearn.teaching.hand_over_url import instance_from_url, instance_to_url
from olearn.teaching.hypers import algorithm_hyper
from olearn.teaching.predict import spa_questions
from olearn.teaching.settings import DEFAULT_SPA, SpaScenario
from olearn.teaching.spa_walk import SCENARIOS

require_frame()  # (a page run alone by Streamlit's legacy mode runs the frame)

L = lang()
ui = Controls("spa")
RULES = {"SPA": None, "SPA-I": "I", "SPA-II": "II"}
RULE_OF_SCENARIO = {"printed-I": "SPA-I", "printed-II": "SPA-II"}  # a scenario picks its rule
BLOCKS = ("spatext", "spatable")  # the per-sub-step containers the stepper shows and hides
C_VALUES = hyper_options(algorithm_hyper("spa1", "C"))  # SPA-I/II's C, from the registry


def reset_step():
    ui.set("step", 0)
    ui.set("reveal", 0)


def scenario_changed():
    reset_step()
    rule = RULE_OF_SCENARIO.get(ui.get("scenario"))
    if rule:
        ui.set("rule", rule)


def formulas(walk, stacked: bool) -> None:
    """The rule's printed formulas beside the derived ones (``stacked``: one above the other,
    for the side column of projector mode)."""
    table_no = "1" if walk.variant is None else "2"
    printed, derived = tr("spa.f.printed", table=table_no), tr("spa.f.derived")
    if stacked:
        for what, p_tex, d_tex in walk.formulas:
            st.markdown(f"**{what}** · {printed}")
            st.latex(inked(p_tex))
            st.markdown(f"**{what}** · {derived}")
            st.latex(inked(d_tex))
    else:
        head = st.columns([1, 2, 3])
        head[1].markdown(f"**{printed}**")
        head[2].markdown(f"**{derived}**")
        for what, p_tex, d_tex in walk.formulas:
            row = st.columns([1, 2, 3], vertical_alignment="center")
            row[0].markdown(what)
            with row[1]:
                st.latex(inked(p_tex))
            with row[2]:
                st.latex(inked(d_tex))
    cases = " " + tr("spa.f.cases") if walk.variant == "I" else ""
    st.caption(tr(f"spa.f.note.{walk.variant}") + cases + " " + tr("spa.f.n"))


def qp_check(walk, views) -> None:
    """The closed form's step against a generic QP solver's."""
    st.markdown(walk.qp_text)
    st.dataframe(views.qp, hide_index=True)


with guard():
    present = ui.is_hidden("all")
    ui.header(tr("spa.title"), tr("spa.intro"))
    box = ui.settings()  # None with hide=all: no row of empty columns
    c1, c2, c3, c4, c5, c6 = [None] * 6 if box is None else box.columns([3, 2, 2, 1, 1, 2])
    name = ui.select(
        "scenario",
        tr("spa.scenario"),
        SCENARIOS,
        DEFAULT_SPA.name,
        where=c1,
        format_func=lambda s: tr(f"spa.scenario.{s}"),
        on_change=scenario_changed,
    )
    rule = ui.select(
        "rule", tr("spa.variant"), list(RULES), "SPA", where=c2, radio=True, on_change=reset_step
    )
    C = ui.select_slider(
        "C", tr("spa.C"), C_VALUES, DEFAULT_SPA.C, where=c3, disabled=RULES[rule] is None
    )
    seed = ui.number(
        "seed",
        tr("spa.random_seed"),
        0,
        10_000,
        0,
        where=c4,
        step=1,
        on_change=reset_step,
        help=tr("spa.random_seed.help"),
    )
    K = (
        ui.slider("K", tr("spa.classes"), 3, 8, 4, where=c5, on_change=reset_step)
        if name == "random"
        else None
    )
    predict = ui.toggle(
        "predict",
        tr("predict.label"),
        False,
        where=c6,
        on_change=reset_step,
        help=tr("predict.help"),
    )
    playground = None
    if name == "playground":  # the hand-over travels in the URL (?pg=...), so links work
        clamped: list = []
        playground = instance_from_url(st.query_params, clamped) or st.session_state.get(
            "playground.instance"
        )
        clamp_notes(clamped)
        if playground is not None:
            ui.values.update(instance_to_url(playground))
    if name == "playground" and playground is None:
        st.info(tr("spa.playground_missing"))
        name = "pa-failure"
    views = spa_views(SpaScenario(name, RULES[rule], C, seed, K, playground), L)
    walk = views.walk
    n_steps = len(walk.steps)
    # the data this walkthrough shows: a change resets the browser's stepper to the URL's step
    family = views.family
    index = ui.state("step", 0, lambda v: isinstance(v, int) and 0 <= v < n_steps)
    # predict mode: at the questions' sub-steps the answer waits for the lecturer (?reveal=)
    asked = spa_questions(walk, L) if predict else {}
    revealed = ui.state("reveal", 0, lambda v: v in (0, 1))
    if not predict:
        ui.values.pop("reveal")

    fig_col, text_col = st.columns([5, 4] if projector() else [3, 2], gap="medium")
    side = text_col
    with text_col:
        # every sub-step is rendered once; the stepper (in the browser) shows one of them
        reported = stepper(
            "spa",
            list(range(n_steps)),
            index,
            family,
            {"spa-fig": painted(views.steps_json)},
            {
                "prev": tr("spa.prev"),
                "next": tr("spa.next"),
                "slider": tr("spa.substep"),
                "keys": tr("keys.step") if projector() else "",
                "reveal": tr("predict.reveal"),
            },
            blocks=BLOCKS,
            titles=[tr("spa.step_of", i=i + 1, n=n_steps) for i in range(n_steps)],
            url=("step", 0),
            variant=figure_theme().name,  # (figures in the page's theme)
            predict=Predict(tuple(asked), ("spaans",), revealed=bool(revealed))
            if predict
            else None,
        )
        if reported is not None and 0 <= reported < n_steps:
            index = ui.adopt("step", reported)
            shown = reported_reveal("spa")
            if predict and shown is not None:
                revealed = ui.adopt("reveal", int(shown))
        answers = ("spaans",) if predict else ()
        hidden = index in asked and not revealed
        st.html(initial_css("spa", BLOCKS, index, answers=answers, revealed=not hidden))
        if projector():
            st.caption(
                f"{tr(f'spa.scenario.{name}')} · {rule}" + (f" · C = {C}" if RULES[rule] else "")
            )
            # what the lecture points to beside the walk: the QP check and the formulas
            # (predict mode: no QP check, whose steps tau are the answers)
            names = ["step", *([] if predict else ["qp"]), "formulas"]
            tabs = st.container(key="spa-side").tabs([tr(f"spa.tab.{n}") for n in names])
            side = tabs[0]
            if not predict:
                with tabs[1]:
                    qp_check(walk, views)
            with tabs[-1]:
                formulas(walk, stacked=True)
    # the figure is sent before the sub-steps' texts (which go under the stepper all the
    # same): a class arriving at once sees it sooner (benchmarks/classroom.py)
    with fig_col, stage_box("spa"):
        plot(views.steps[index], key="spa-fig", **fill())
    with side:
        for i, step in enumerate(walk.steps):
            with st.container(key=block_key("spatext", i)):
                st.markdown(f"#### {step.title}")
                st.markdown(step.text)
                for formula in step.latex:
                    st.latex(inked(formula))
                if i in asked:
                    st.markdown(asked[i][0])
            if i in asked:  # hidden until revealed
                with st.container(key=block_key("spaans", i)):
                    st.info(asked[i][1], icon=":material/lightbulb:")

    if not projector():  # (in projector mode beside the walk)
        st.markdown(f"#### {tr('spa.formulas')}")
        formulas(walk, stacked=False)

    left, right = st.columns(2)
    with left, st.container(border=True):
        st.markdown(f"#### {tr('spa.table')}")
        for i, table in enumerate(views.tables):  # static tables: shown and hidden at no cost
            with st.container(key=block_key("spatable", i)):
                st.table(table)
    if not predict:  # PA beside, the QP check, the cap, the state: the answers, again
        with right, st.container(border=True):
            st.markdown(f"#### {tr('spa.pa_beside')}")
            st.markdown(walk.pa_text)
            plot(views.pa, key="spa.pa_fig")
        tabs = st.tabs(
            [tr("spa.qp_title"), tr("spa.cap_title"), tr("spa.printed_title"), tr("spa.state")]
        )
        with tabs[0]:
            qp_check(walk, views)
        with tabs[1]:
            if walk.variant is None:
                st.info(tr("spa.cap_free", C="∞", T=f"{walk.spa.tau_sum:.4g}"))
            else:
                st.markdown(walk.cap_text)
                plot(views.cap, key="spa.cap_fig")
        with tabs[2]:
            st.markdown(walk.printed_text)
            st.dataframe(views.printed, hide_index=True)
        with tabs[3]:
            st.dataframe(views.state, hide_index=True)
    ui.sync()
