"""Confidence-weighted: CW / AROW / SCW updates one at a time, and seed 001's noise claim."""

from contextlib import nullcontext

import streamlit as st

from olearn import registry
from olearn.app.cached import (
    CW_NOISE,
    CW_T,
    cw_family,
    cw_noise,
    cw_question,
    cw_step,
    cw_updates,
)
from olearn.app.components.stepper import (
    Predict,
    block_key,
    initial_css,
    reported_reveal,
    stepper,
    window,
)
from olearn.app.frame import require_frame
from olearn.app.hypers import hyper_label, hyper_options, takes, view_hypers
from olearn.app.ui import (
    Controls,
    figure_theme,
    fill,
    guard,
    lang,
    painted,
    plot,
    projector,
    stage_box,
    tr,
)
from olearn.teaching.cw_walk import STREAM_LENGTH
from olearn.teaching.settings import CwWalk, default_cw
from olearn.teaching.strings import STRINGS, num

require_frame()  # (a page run alone by Streamlit's legacy mode runs the frame)

L = lang()
ui = Controls("cw")
RULES = tuple(registry.keys(view="cw"))
HYPERS = view_hypers("cw")  # a slider each, enabled for the rules that take it
DEFAULT_CW = default_cw()  # the arrival's setting (prepared when the server starts)
BLOCKS = ("cwtext", "cwtable")  # the per-update containers the stepper shows and hides
WINDOW = 10  # updates sent to the browser at once (plus 3 either side)
VIEWS = ("update", "noise")  # projector mode's two screens


def _step_heading(walk) -> None:
    st.markdown(
        "#### "
        + tr("cw.step_title", k=walk.updates + 1, i=walk.index + 1, n=walk.n, y=f"{walk.y:+d}")
    )


def _step_numbers(walk) -> None:
    """The numbers of one update, in words."""
    trace = walk.trace
    if walk.exhausted:
        st.info(tr("cw.exhausted"))
        return
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
    if takes(walk.rule, "eta"):
        st.markdown(tr("cw.step_eta", eta=num(trace.eta)))


def update_view(setting, left, right, row, predict: bool) -> None:
    """The update walk: the weight space and the margin's density (left), the stepper and the
    update's numbers in words (right); the input space and the numbers' table below.

    ``predict``: every update is first a question (does the ellipse shrink along x or across
    it?), drawn without the state after it; Next reveals the answer (the numbers, the table,
    the figures after the update) before it moves on (``?reveal=``)."""
    updates = cw_updates(setting)
    family = cw_family(setting, L)
    # the example to start from (1-based, as the heading counts); the stepper may move it, so
    # its slider is drawn last
    t = ui.state("t", CW_T, lambda v: isinstance(v, int) and 1 <= v <= STREAM_LENGTH)
    revealed = ui.state("reveal", 0, lambda v: v in (0, 1))
    if not predict:
        ui.values.pop("reveal")
    later = [i for i in updates if i >= t - 1]
    blocks = ("cwtext",) if predict else BLOCKS  # predict mode: the table is an answer
    answers = ("cwans", "cwtable") if predict else ()
    with right:
        if later:  # a window of updates around the current one, stepped in the browser
            ids, less, more = window(updates, later[0], WINDOW)
            first = updates.index(ids[0])
            steps = [cw_step(setting, i, L) for i in ids]
            asked = [cw_question(setting, i, L) for i in ids] if predict else []
            reported = stepper(
                "cw",
                ids,
                later[0],
                family,
                {
                    "cw-fig": painted([v.figure_json for v in steps]),
                    "cw-input": painted([v.inputs_json for v in steps]),
                },
                {
                    "prev": tr("cw.back"),
                    "next": tr("cw.next"),
                    "slider": tr("cw.warmup"),
                    "keys": tr("keys.step") if projector() else "",
                    "reveal": tr("predict.reveal"),
                },
                blocks=blocks,
                titles=[tr("cw.k_of", k=first + j + 1, n=len(updates)) for j in range(len(ids))],
                more=more,
                less=less,
                url=("t", 1),
                variant=figure_theme().name,  # (figures in the page's theme)
                predict=Predict(
                    tuple(ids),
                    answers,
                    {
                        "cw-fig": painted([q.figure_json for q in asked]),
                        "cw-input": painted([q.inputs_json for q in asked]),
                    },
                    revealed=bool(revealed),
                )
                if predict
                else None,
            )
            current = later[0]
            if reported is not None and reported in updates:
                current = reported
                t = ui.adopt("t", reported + 1)
                shown = reported_reveal("cw")
                if predict and shown is not None:
                    revealed = ui.adopt("reveal", int(shown))
            if reported is not None and reported not in ids:  # past the window: draw anew
                st.rerun()
            st.html(initial_css("cw", blocks, current, answers=answers, revealed=bool(revealed)))
        else:  # no update from t on: the last example, passive
            ids, current = [], None
        for i in ids or [None]:
            walk = cw_step(setting, (t - 1) if i is None else i, L).walk
            with st.container(key=block_key("cwtext", i)) if i is not None else nullcontext():
                _step_heading(walk)
                if predict and i is not None:
                    asking = cw_question(setting, i, L)
                    st.markdown(asking.question)
                else:
                    _step_numbers(walk)
            if predict and i is not None:  # hidden until revealed
                with st.container(key=block_key("cwans", i)):
                    _step_numbers(walk)
                    st.info(asking.answer, icon=":material/lightbulb:")
        st.button(tr("cw.prev"), key="cw.restart", on_click=ui.set, args=("t", 1), width="stretch")
    t = ui.slider("t", tr("cw.warmup"), 1, STREAM_LENGTH, CW_T, where=row[-2])
    at = t - 1 if current is None else current
    shown_view = cw_step(setting, at, L)
    # a question's figures until the lecturer reveals it (what the server draws first)
    question = cw_question(setting, at, L) if predict and current is not None else None
    hide = question is not None and not revealed
    with left, stage_box("cw"):
        plot(question.figure if hide else shown_view.figure, key="cw-fig", **fill())
    a, b = st.columns([1, 1])
    with a:
        plot(question.inputs if hide else shown_view.inputs, key="cw-input")
    with b:
        st.markdown(f"#### {tr('cw.numbers')}")
        for i in ids or [None]:
            view = cw_step(setting, (t - 1) if i is None else i, L)
            with st.container(key=block_key("cwtable", i)) if i is not None else nullcontext():
                st.table(view.table.set_index(tr("cw.col.quantity")))


def noise_controls(where_noise, where_passes) -> tuple[float, int]:
    """The label-noise experiment's two sliders: the share of flipped labels and the passes."""
    noise = ui.select_slider(
        "noise", tr("cw.noise"), [0.0, 0.1, 0.2, 0.3], CW_NOISE[0], where=where_noise
    )
    passes = ui.slider("passes", tr("cw.passes"), 1, 5, CW_NOISE[1], where=where_passes)
    return float(noise), int(passes)


def noise_figure(noise: float, passes: int, seed: int, **kw) -> None:
    with st.spinner():
        _, noise_fig = cw_noise(noise, passes, seed, L)
    plot(noise_fig, key="cw.noise_fig", **kw)
    st.caption(tr("cw.noise_caption"))


with guard():
    ui.header(tr("cw.title"), tr("cw.intro"))
    box = ui.settings(tr("walks.settings"))
    n_cols = 4 + len(HYPERS)  # the rule, a slider per hyper-parameter, predict, t, the seed
    widths = [4, *[2] * len(HYPERS), 2, 2, 1.2]
    row = box.columns(widths) if box is not None else [None] * n_cols  # no empty box
    rule = ui.select(
        "rule",
        tr("cw.rule"),
        RULES,
        DEFAULT_CW.rule,
        where=row[0],
        radio=True,
        format_func=lambda k: registry.get(k).name,
    )
    values = {}
    for col, (name, hyper) in zip(row[1:], HYPERS.items()):
        value = ui.select_slider(
            name,
            tr(f"cw.{name}") if f"cw.{name}" in STRINGS else hyper_label("cw", name),
            hyper_options(hyper),
            hyper.default,
            where=col,
            disabled=not takes(rule, name),
        )
        if takes(rule, name):
            values[name] = float(value)
    seed = ui.number("seed", tr("ui.seed"), 0, 10_000, 0, where=row[-1], step=1)
    predict = ui.toggle(
        "predict", tr("predict.label"), False, where=row[-3], help=tr("predict.help")
    )
    setting = CwWalk.of(rule, int(seed), **values)
    left, right = st.columns([2.6, 1], vertical_alignment="top")
    view = "update"
    if projector():  # one screen at a time: the updates, or the label-noise experiment
        linked = "noise" in st.query_params or "passes" in st.query_params  # a link to it
        view = ui.select(
            "view",
            tr("cw.view"),
            VIEWS,
            "noise" if linked else "update",
            where=right,
            radio=True,
            format_func=lambda v: tr(f"cw.view.{v}"),
            label_visibility="collapsed",
        )
    if view == "noise":
        noise, passes = noise_controls(right, right)
        ui.slider("t", tr("cw.warmup"), 1, STREAM_LENGTH, CW_T, where=row[-2])
        with left, stage_box("cw"):
            noise_figure(noise, passes, int(seed), **fill())
    else:
        update_view(setting, left, right, row, predict)
        st.markdown(f"#### {tr('cw.noise_title')}")
        n1, n2, _ = st.columns([1, 1, 2])
        noise_figure(*noise_controls(n1, n2), int(seed))
    ui.sync()
