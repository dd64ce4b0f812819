"""Cached entry points into olearn for the pages, organised by the settings they compute
(:mod:`olearn.teaching.settings`: frozen, hashable values), never by their fields.

Every result is computed once per server and shared by every session without a copy:
``st.cache_resource`` (``st.cache_data`` would pickle and unpickle it on every hit, the
largest part of a warm arrival's cost).  Shared results are therefore immutable: numpy arrays
read-only (:func:`frozen`), figures built once and never mutated by the pages (Streamlit's
``plotly_chart`` copies a figure before it serialises it), JSON as strings.  Computation is
keyed on a setting alone and narration on (setting, language), so a language switch finds
every computation in the cache.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable

import numpy as np
import streamlit as st

from olearn._budget import APP_BYTES
from olearn.teaching.demo_stream import PLAYER_START
from olearn.teaching.settings import CompareRun, CwWalk, PlaygroundRun, SpaScenario


def frozen(value):
    """``value`` with every numpy array in it (at any depth of dicts, lists, tuples and
    dataclasses) made read-only, so a result shared by every session cannot be changed by one."""
    if isinstance(value, np.ndarray):
        value.setflags(write=False)
    elif isinstance(value, dict):
        for item in value.values():
            frozen(item)
    elif isinstance(value, list | tuple):
        for item in value:
            frozen(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            frozen(getattr(value, f.name))
    return value


def _tagged(figure, meta: str):
    """``figure`` with ``layout.meta = meta`` (the stepper's and player's mark), a new one."""
    import plotly.graph_objects as go

    out = go.Figure(figure)
    out.layout.meta = meta
    return out


# -- Playground ---------------------------------------------------------------------------


@st.cache_resource(show_spinner=False, max_entries=64)
def stream(run: PlaygroundRun):
    """The Playground's whole run, every snapshot (read-only; shared)."""
    return frozen(run.stream())


def _unpacked(result, lang: str, band: bool, heights: tuple[int, int], t0: int, sig: str):
    """The planes' and the weight space's frames as plotly takes them (the player's are packed)."""
    from olearn.viz.stream import planes_parts, weight_space_parts

    weights = weight_space_parts(result, lang, 420, t0, sig)
    return {
        "planes": planes_parts(result, lang, band, heights[0], t0, sig)[1],
        "weights": None if weights is None else weights[1],
    }


@st.cache_resource(show_spinner=False, max_entries=32)  # figures are never mutated
def stream_views(run: PlaygroundRun, lang: str, band: bool, heights: tuple[int, int], t0: int):
    """Everything the playground draws for one setting, built once: the figures at ``t0``,
    every frame (as JSON strings for the player), the per-t notes and a signature.

    Returns a dict with ``planes``, ``curves``, ``weights`` (figure or None), ``frames``
    (name -> JSON string; the planes' packed for the player), ``notes``, ``n``, ``sig``,
    ``counts`` (mistakes at ``t0``) and ``unpacked`` (a function giving the frames of the
    planes and the weight space unpacked, for the offline HTML download)."""
    import hashlib
    import re

    from olearn.teaching.stream import step_notes
    from olearn.viz.stream import curves_parts, planes_parts, weight_space_parts

    result = stream(run)
    sig = hashlib.sha1(repr((run, lang, band, heights, t0)).encode()).hexdigest()[:16]
    planes, planes_frames = planes_parts(result, lang, band, heights[0], t0, sig, packed=True)
    curves, curves_frames = curves_parts(result, lang, heights[1], t0, sig)
    weights = weight_space_parts(result, lang, 420, t0, sig, packed=True)
    frames = {
        "planes": json.dumps(planes_frames, separators=(",", ":")),
        "curves": json.dumps(curves_frames, separators=(",", ":")),
    }
    if weights is not None:
        weights, weight_frames = weights
        frames["weights"] = json.dumps(weight_frames, separators=(",", ":"))
    # markdown bold -> HTML for the player's note line
    notes = [re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", s) for s in step_notes(result, lang)]
    return dict(
        planes=planes,
        curves=curves,
        weights=weights,
        frames=frames,
        notes=notes,
        n=result.n,
        sig=sig,
        counts=result.mistake_counts(t0),
        # the frames the player gets packed, unpacked: built only for the offline HTML download
        unpacked=lambda: _unpacked(result, lang, band, heights, t0, sig),
    )


@st.cache_resource(show_spinner=False, max_entries=16)  # never mutated
def stream_predict(run: PlaygroundRun, lang: str, band: bool, heights: tuple[int, int], t0: int):
    """The Playground's predict mode (:mod:`olearn.teaching.predict`): the curves behind a
    curtain at ``t0`` (the player moves it) and, for every t, the question and the answer as
    the player's notes (HTML)."""
    import re

    from olearn.teaching.predict import stream_questions
    from olearn.viz.stream import curtained

    views = stream_views(run, lang, band, heights, t0)
    questions, answers = stream_questions(stream(run), lang)

    def html(lines: list[str]) -> list[str]:
        return [re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", s) for s in lines]

    return dict(
        curves=curtained(views["curves"], t0), questions=html(questions), answers=html(answers)
    )


# -- SPA ------------------------------------------------------------------------------------


@st.cache_resource(show_spinner=False, max_entries=256)
def spa_solved(scenario: SpaScenario):
    """The scenario's update solved (SPA, PA, the QP, the printed step): no language."""
    from olearn.teaching.spa_walk import spa_solve

    return frozen(spa_solve(scenario.instance(), scenario.variant, scenario.C))


@st.cache_resource(show_spinner=False, max_entries=256)
def spa_walk(scenario: SpaScenario, lang: str):
    """The SPA walkthrough of a scenario in ``lang`` (narrated from :func:`spa_solved`)."""
    from olearn.teaching.spa_walk import narrate

    return narrate(spa_solved(scenario), lang)


@dataclasses.dataclass(frozen=True)
class SpaViews:
    """What the SPA page (and the lesson) draws for one scenario and language, built once:
    ``family`` (the stepper's name for it), ``steps`` (each sub-step's figure, tagged),
    ``steps_json`` (the same as plotly JSON, for the stepper), ``tables`` (each sub-step's
    table as shown), ``cap`` and ``pa`` (the C figure, PA beside SPA), ``qp``, ``printed``,
    ``state`` (the tabs' tables as shown)."""

    walk: object
    family: str
    steps: tuple
    steps_json: tuple[str, ...]
    tables: tuple
    cap: object
    pa: object
    qp: object
    printed: object
    state: object


@st.cache_resource(show_spinner=False, max_entries=256)
def spa_views(scenario: SpaScenario, lang: str) -> SpaViews:
    from olearn.app.components.stepper import digest
    from olearn.teaching.spa_walk import shown
    from olearn.viz.spa import cap_figure, pa_vs_spa_figure, spa_step_figure

    walk = spa_walk(scenario, lang)
    family = digest(scenario, lang)
    steps = tuple(
        _tagged(spa_step_figure(walk, i), f"{family}:{i}") for i in range(len(walk.steps))
    )
    tables = []
    for step in walk.steps:
        table = shown(step.table, lang)
        tables.append(table.set_index(table.columns[0]))
    return SpaViews(
        walk=walk,
        family=family,
        steps=steps,
        steps_json=tuple(fig.to_json() for fig in steps),
        tables=tuple(tables),
        cap=cap_figure(walk),
        pa=pa_vs_spa_figure(walk),
        qp=shown(walk.qp_table, lang),
        printed=shown(walk.printed_table, lang),
        state=shown(walk.state_table, lang),
    )


# -- Home -----------------------------------------------------------------------------------


@st.cache_resource(show_spinner=False, max_entries=8)  # one per (title, language)
def home_data(title: str, lang: str = "en"):
    """(family map figure, dataset cards table), in ``lang``."""
    from olearn.teaching.home import dataset_cards, family_map
    from olearn.viz.home import family_map_figure

    nodes, edges = family_map(lang)
    return family_map_figure(nodes, edges, title), dataset_cards(lang=lang)


@st.cache_resource(show_spinner=False, max_entries=1)  # one dict, itself capped by _memo
def _long_results() -> dict:
    """Results of long runs that report progress.  ``st.cache_data`` cannot hold them: it
    would replay the progress bar's updates into a block created outside the function."""
    return {}


def _memo(key: tuple, compute, keep: int = 32):
    store = _long_results()
    if key not in store:
        store[key] = compute()
        while len(store) > keep:
            store.pop(next(iter(store)))
    return store[key]


def comparison(setting: CompareRun, lang: str, upload: bytes | None = None, progress=None):
    """The Compare page's result and figures, computed once per setting (an upload is keyed
    by its content's hash, ``setting.digest``; its bytes are read only when computed)."""

    def compute():
        from olearn.teaching.compare import compare, dataset_from
        from olearn.viz.compare import curves_figure, error_figure, time_figure

        data = dataset_from(setting.name, upload, setting.filename)
        res = compare(
            data,
            setting.algorithms,
            setting.c_grid,
            setting.epochs,
            setting.folds,
            setting.seed,
            max_samples=setting.max_samples or None,
            progress=progress,
            scale=setting.scale,
            budget=APP_BYTES,
            fit_intercept=setting.intercept,
        )
        return res, error_figure(res, lang), curves_figure(res, lang), time_figure(res, lang)

    return _memo(("compare", setting, lang), compute)


@st.cache_data(show_spinner=False, max_entries=64, ttl=600)  # a card changes once built
def dataset_card(name: str) -> dict:
    from olearn import datasets

    return datasets.card(name, build=False)


@st.cache_data(show_spinner=False, max_entries=4)
def repro_catalogue():
    from olearn.teaching.reproduce import catalogue

    return catalogue()


def repro_run(id_: str, quick: bool, lang: str, progress=None):
    """(result, paper-vs-ours figure) of one reproduction: the run computed once for every
    language, the figure once per language (its labels in ``lang``)."""
    from olearn.teaching.reproduce import localized_cells, numeric_pairs, run
    from olearn.viz.reproduce import paper_vs_ours_figure

    result = _memo(("repro", id_, bool(quick)), lambda: run(id_, quick, progress))
    figure = _memo(
        ("repro-figure", id_, bool(quick), lang),
        lambda: paper_vs_ours_figure(localized_cells(numeric_pairs(result), lang), lang),
    )
    return result, figure


# -- CW ---------------------------------------------------------------------------------------


@st.cache_resource(show_spinner=False, max_entries=512)
def cw_walk(setting: CwWalk, warmup: int):
    """The CW-family update at or after example ``warmup`` (no language)."""
    from olearn.teaching.cw_walk import cw_update

    return frozen(cw_update(setting, warmup))


@st.cache_resource(show_spinner=False, max_entries=64)
def cw_updates(setting: CwWalk) -> tuple[int, ...]:
    """The examples that move the state (the CW page's steps)."""
    from olearn.teaching.cw_walk import update_indices

    return tuple(update_indices(setting))


@dataclasses.dataclass(frozen=True)
class CwStepView:
    """One CW update as the page shows it: ``walk``, ``figure`` (weights and margin) and
    ``inputs`` (input space), tagged ``layout.meta = "<family>:<index>"`` for the stepper,
    their JSON, and the numbers ``table``."""

    walk: object
    figure: object
    inputs: object
    figure_json: str
    inputs_json: str
    table: object


def cw_family(setting: CwWalk, lang: str) -> str:
    """The stepper's name for the CW page's data in ``lang``."""
    from olearn.app.components.stepper import digest

    return digest(setting, lang)


@st.cache_resource(show_spinner=False, max_entries=512)
def cw_step(setting: CwWalk, index: int, lang: str) -> CwStepView:
    from olearn.teaching.cw_walk import cw_table
    from olearn.viz.walks import cw_figure, cw_input_figure

    walk = cw_walk(setting, index)
    meta = f"{cw_family(setting, lang)}:{index}"
    figure = _tagged(cw_figure(walk, lang), meta)
    inputs = _tagged(cw_input_figure(walk, lang), meta)
    table = cw_table(walk, lang)
    return CwStepView(walk, figure, inputs, figure.to_json(), inputs.to_json(), table)


@dataclasses.dataclass(frozen=True)
class CwQuestion:
    """One CW update as predict mode asks it (:mod:`olearn.teaching.predict`): the figures
    without the state after it (as JSON, tagged ``"<family>:<index>:q"``, the stepper's
    question mark), the question and its answer."""

    figure: object
    inputs: object
    figure_json: str
    inputs_json: str
    question: str
    answer: str


@st.cache_resource(show_spinner=False, max_entries=512)
def cw_question(setting: CwWalk, index: int, lang: str) -> CwQuestion:
    from olearn.teaching.predict import cw_question as ask
    from olearn.viz.walks import cw_figure, cw_input_figure

    walk = cw_walk(setting, index)
    meta = f"{cw_family(setting, lang)}:{index}:q"
    figure = _tagged(cw_figure(walk, lang, reveal=False), meta)
    inputs = _tagged(cw_input_figure(walk, lang, reveal=False), meta)
    return CwQuestion(figure, inputs, figure.to_json(), inputs.to_json(), *ask(walk, lang))


@st.cache_resource(show_spinner=False, max_entries=32)
def noise_table(noise: float, passes: int, seed: int):
    """Seed 001's label-noise experiment (no language: a switch reruns nothing)."""
    from olearn.teaching.cw_walk import noise_experiment

    return noise_experiment(noise, passes, seed)


@st.cache_resource(show_spinner=False, max_entries=32)
def cw_noise(noise: float, passes: int, seed: int, lang: str):
    """(table, figure) of the label-noise experiment, the figure in ``lang``."""
    from olearn.viz.walks import noise_figure

    table = noise_table(noise, passes, seed)
    return table, noise_figure(table, lang)


@st.cache_resource(show_spinner=False, max_entries=16)
def cs_page(kind: str, n: int, K: int, C: float, seed: int):
    from olearn.teaching.cs_walk import cs_walk

    return cs_walk(kind, n, K, C, seed)


@st.cache_resource(show_spinner=False, max_entries=16)  # never mutated
def cs_player_views(kind: str, n: int, K: int, C: float, seed: int, lang: str) -> dict:
    """The Crammer-Singer figure and what the player plays: ``steps`` (the sub-problems
    shown), ``frames`` (JSON), ``notes``, ``sig`` (the figure's ``layout.meta``), ``ks`` (each
    frame's number among the ``n_changed`` sub-problems that changed W)."""
    import bisect
    import json

    from olearn.viz.cs_svm import cs_figure, cs_frames

    walk = cs_page(kind, n, K, C, seed)
    steps, frames, notes = cs_frames(walk, lang)
    sig = f"cs|{kind}|{n}|{K}|{C}|{seed}|{lang}"
    fig = cs_figure(walk, steps[0], lang)
    fig.update_layout(meta=sig)
    changed = [int(s) for s in walk.changed] or list(range(len(walk.steps)))
    return dict(
        figure=fig,
        steps=steps,
        frames=json.dumps(frames),
        notes=notes,
        sig=sig,
        ks=[bisect.bisect_left(changed, s) + 1 for s in steps],  # frame -> the page's count
        n_changed=len(changed),
    )


@st.cache_resource(show_spinner=False, max_entries=256)
def cs_figure_at(kind: str, n: int, K: int, C: float, seed: int, *, i: int, lang: str):
    """The figure at the player's frame ``i`` (what the server draws; the player keeps it
    there) and that sub-problem's table."""
    views = cs_player_views(kind, n, K, C, seed, lang)
    walk = cs_page(kind, n, K, C, seed)
    from olearn.viz.cs_svm import cs_figure

    fig = cs_figure(walk, views["steps"][i], lang)
    fig.update_layout(meta=views["sig"])
    fig.data[0].meta = i
    return fig, walk.step_table(views["steps"][i], lang)


@st.cache_resource(show_spinner=False, max_entries=16)
def pcvm_page(kind: str, n: int, lam: float, theta: float, seed: int):
    from olearn.teaching.pcvm_walk import lambda_sweep, pcvm_walk

    return (
        pcvm_walk(kind, n, lam or None, theta, 0.05, seed),
        lambda_sweep(kind, n, theta, 0.05, seed),
    )


@st.cache_resource(show_spinner=False, max_entries=256)
def pcvm_figures(kind: str, n: int, lam: float, theta: float, seed: int, *, i: int, lang: str):
    from olearn.viz.walks import pcvm_figure, pcvm_history_figure

    walk, _ = pcvm_page(kind, n, lam, theta, seed)
    return pcvm_figure(walk, i, lang), pcvm_history_figure(walk, i, lang)


@st.cache_resource(show_spinner=False, max_entries=32)
def sgd_page(lam: float, epochs: int, seed: int, lang: str):
    from olearn.teaching.sgd_walk import sgd_compare, sgd_table
    from olearn.viz.walks import sgd_figures

    walk = sgd_compare(lam, epochs, 600, seed)
    return (walk, *sgd_figures(walk, lang), sgd_table(walk, lang))


# -- prepared when the server starts --------------------------------------------------------

PLAYGROUND_HEIGHTS = (640, 420)  # the Playground's figure heights outside presentation mode
PLAYGROUND_T = PLAYER_START  # the Playground's first frame on arrival (the demo's rule)
CW_T = 7  # the CW page's example on arrival (1-based)
CW_NOISE = (0.2, 3)  # the CW page's label-noise experiment on arrival: noise, passes


def prepare_defaults(langs=("en", "ja"), pause: Callable[[], None] | None = None) -> None:
    """Compute what every student's first visit asks for, once, before they arrive: the
    default Playground run and its views, the default SPA walk, the CW page's first window of
    updates, the home page's map (each language).  Run in the server's background thread
    (from its start under ``olearn app``: :mod:`olearn.app.server.serve`); what it fills is
    what the pages then find in the cache, and a page asking for a value it is computing waits
    for it; ``pause()`` is called between two values (the server's: let a page being drawn go
    first, :func:`olearn.app.server.background.yield_to_pages`)."""
    from olearn.app.components.stepper import window
    from olearn.teaching.settings import DEFAULT_SPA, default_cw, default_playground
    from olearn.teaching.strings import t

    run = default_playground()
    cw = default_cw()

    def cw_window(lang: str) -> None:  # the CW page's first window (its walk computed first)
        updates = cw_updates(cw)
        later = [i for i in updates if i >= CW_T - 1]
        for i in window(updates, later[0], 10)[0] if later else []:
            cw_step(cw, i, lang)

    steps = [  # the landing page first, the heaviest last
        *(lambda lang=lang: home_data(t("home.family", lang), lang) for lang in langs),
        *(
            lambda lang=lang: stream_views(
                run, lang, True, PLAYGROUND_HEIGHTS, min(PLAYGROUND_T, run.length)
            )
            for lang in langs
        ),
        *(lambda lang=lang: spa_views(DEFAULT_SPA, lang) for lang in langs),
        *(lambda lang=lang: cw_window(lang) for lang in langs),
        *(lambda lang=lang: cw_noise(*CW_NOISE, cw.seed, lang) for lang in langs),
    ]
    for step in steps:
        if pause is not None:
            pause()  # between two steps, never inside a cached value (a page may wait for it)
        step()
