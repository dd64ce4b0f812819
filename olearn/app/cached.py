"""Cached entry points into olearn for the pages.  Every input is an argument (hashable), so
``st.cache_data`` keys on all of them; nothing reads globals or session state."""

from __future__ import annotations

import streamlit as st

from olearn._budget import APP_BYTES
from olearn.teaching.instances import Instance


@st.cache_data(show_spinner=False, max_entries=64)
def playground_instance(hand_over: tuple) -> Instance:
    """The SPA instance of a playground hand-over (one run of its learner, shared by the
    three SPA rules' walkthroughs)."""
    from olearn.teaching.stream import instance_at

    return instance_at(*hand_over)


@st.cache_data(show_spinner=False, max_entries=256)
def spa_walk(
    scenario: str,
    variant: str | None,
    C: float,
    seed: int,
    K: int | None,
    lang: str,
    playground: tuple | None = None,
):
    """The SPA walkthrough of a preset scenario (or of the playground's state)."""
    from olearn.teaching.spa_walk import scenario as make_scenario
    from olearn.teaching.spa_walk import spa_walkthrough

    if scenario == "playground" and playground is not None:
        inst: Instance = playground_instance(playground)
    else:
        inst = make_scenario(scenario, seed=seed, K=K, C=C)
    return spa_walkthrough(inst, variant, C, lang)


@st.cache_resource(show_spinner=False, max_entries=512)  # figures are never mutated
def spa_figures(
    scenario: str,
    variant: str | None,
    C: float,
    seed: int,
    K: int | None,
    lang: str,
    playground: tuple | None,
):
    """The C figure and PA beside SPA (the same at every sub-step)."""
    from olearn.viz.spa import cap_figure, pa_vs_spa_figure

    walk = spa_walk(scenario, variant, C, seed, K, lang, playground)
    return cap_figure(walk), pa_vs_spa_figure(walk)


@st.cache_resource(show_spinner=False, max_entries=512)
def spa_step_figure_at(
    scenario: str,
    variant: str | None,
    C: float,
    seed: int,
    K: int | None,
    lang: str,
    playground: tuple | None,
    index: int,
):
    """The figure of one sub-step (the lesson's view)."""
    from olearn.viz.spa import spa_step_figure

    return spa_step_figure(spa_walk(scenario, variant, C, seed, K, lang, playground), index)


@st.cache_resource(show_spinner=False, max_entries=64)  # JSON strings: immutable
def spa_step_figures(
    scenario: str,
    variant: str | None,
    C: float,
    seed: int,
    K: int | None,
    lang: str,
    playground: tuple | None,
    family: str,
) -> list[str]:
    """Every sub-step's figure as plotly JSON, tagged ``layout.meta = "<family>:<index>"``
    (the stepper's mark of the step a chart shows)."""
    from olearn.viz.spa import spa_step_figure

    walk = spa_walk(scenario, variant, C, seed, K, lang, playground)
    out = []
    for i in range(len(walk.steps)):
        fig = spa_step_figure(walk, i)
        fig.layout.meta = f"{family}:{i}"
        out.append(fig.to_json())
    return out


@st.cache_data(show_spinner=False, max_entries=64)
def stream_run(
    keys: tuple,
    kind: str,
    n: int,
    K: int,
    noise: float,
    margin: float,
    seed: int,
    C: float,
    bias: bool,
    points: tuple | None,
    test_fraction: float = 0.0,
):
    """The playground's whole run, every snapshot (computed once per setting)."""
    from olearn.teaching.stream import run_stream

    return run_stream(keys, kind, n, K, noise, margin, seed, C, bias, points, test_fraction)


@st.cache_resource(show_spinner=False, max_entries=32)  # figures are never mutated
def stream_views(
    run_args: tuple,
    lang: str,
    band: bool,
    heights: tuple[int, int],
    t0: int,
):
    """Everything the playground draws for one setting, built once: the figures at ``t0``,
    every frame (as JSON strings for the player), the per-t notes and a signature.

    Returns a dict with ``planes``, ``curves``, ``weights`` (figure or None), ``frames``
    (name -> JSON string), ``notes``, ``n``, ``sig``, ``counts`` (mistakes at ``t0``)."""
    import hashlib
    import json
    import re

    from olearn.teaching.stream import step_notes
    from olearn.viz.stream import curves_animation, planes_animation, weight_space_animation

    run = stream_run(*run_args)
    sig = hashlib.sha1(repr((run_args, lang, band, heights, t0)).encode()).hexdigest()[:16]
    planes, planes_frames = planes_animation(run, lang, band, heights[0], t0, sig, packed=True)
    curves, curves_frames = curves_animation(run, lang, heights[1], t0, sig)
    weights = weight_space_animation(run, lang, 420, t0, sig, packed=True)
    frames = {
        "planes": json.dumps(planes_frames, separators=(",", ":")),
        "curves": json.dumps(curves_frames, separators=(",", ":")),
    }
    if weights is not None:
        weights, weight_frames = weights
        frames["weights"] = json.dumps(weight_frames, separators=(",", ":"))
    # markdown bold -> HTML for the player's note line
    notes = [re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", s) for s in step_notes(run, lang)]
    return dict(
        planes=planes,
        curves=curves,
        weights=weights,
        frames=frames,
        notes=notes,
        n=run.n,
        sig=sig,
        counts=run.mistake_counts(t0),
    )


@st.cache_data(show_spinner=False, max_entries=8)  # one per (title, language)
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


def comparison(
    name: str | None,
    upload: bytes | None,
    filename: str | None,
    algorithms: tuple,
    c_grid: tuple,
    epochs: int,
    folds: int,
    seed: int,
    max_samples: int,
    lang: str,
    scale: str = "none",
    progress=None,
):
    """The Compare page's result and figures, computed once per setting (every input is part
    of the key; an upload by its content's hash)."""
    import hashlib

    digest = hashlib.sha256(upload).hexdigest() if upload is not None else None

    def compute():
        from olearn.teaching.compare import compare, dataset_from
        from olearn.viz.compare import curves_figure, error_figure, time_figure

        data = dataset_from(name, upload, filename)
        res = compare(
            data,
            algorithms,
            c_grid,
            epochs,
            folds,
            seed,
            max_samples or None,
            progress=progress,
            scale=scale,
            budget=APP_BYTES,
        )
        return res, error_figure(res, lang), curves_figure(res, lang), time_figure(res, lang)

    return _memo(
        (
            "compare",
            name,
            digest,
            filename,
            algorithms,
            c_grid,
            epochs,
            folds,
            seed,
            max_samples,
            lang,
            scale,
        ),
        compute,
    )


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


@st.cache_resource(show_spinner=False, max_entries=128)
def cw_page(rule: str, eta: float, r: float, C: float, warmup: int, seed: int, lang: str):
    """(walk, main figure) of the CW-family update at or after example ``warmup``."""
    from olearn.teaching.cw_walk import cw_update
    from olearn.viz.walks import cw_figure

    walk = cw_update(rule, eta, r, C, warmup, seed)
    return walk, cw_figure(walk, lang)


@st.cache_resource(show_spinner=False, max_entries=128)
def cw_details(rule: str, eta: float, r: float, C: float, warmup: int, seed: int, lang: str):
    """(input-space figure, numbers table) of the same update."""
    from olearn.teaching.cw_walk import cw_table
    from olearn.viz.walks import cw_input_figure

    walk, _ = cw_page(rule, eta, r, C, warmup, seed, lang)
    return cw_input_figure(walk, lang), cw_table(walk, lang)


@st.cache_data(show_spinner=False, max_entries=64)
def cw_updates(rule: str, eta: float, r: float, C: float, seed: int) -> tuple[int, ...]:
    """The examples that move the state (the CW page's steps)."""
    from olearn.teaching.cw_walk import update_indices

    return update_indices(rule, eta, r, C, seed)


@st.cache_resource(show_spinner=False, max_entries=512)  # JSON strings: immutable
def cw_step_json(
    rule: str, eta: float, r: float, C: float, index: int, seed: int, lang: str, family: str
) -> tuple[str, str]:
    """The two figures of the update at ``index`` (weights and margin; input space) as
    plotly JSON, tagged ``layout.meta = "<family>:<index>"`` for the stepper."""
    import plotly.io as pio

    from olearn.viz.walks import cw_input_figure

    walk, fig = cw_page(rule, eta, r, C, index, seed, lang)
    out = []
    for figure in (fig, cw_input_figure(walk, lang)):
        spec = figure.to_plotly_json()
        spec["layout"] = {**spec["layout"], "meta": f"{family}:{index}"}
        out.append(pio.to_json(spec, validate=False))
    return out[0], out[1]


@st.cache_resource(show_spinner=False, max_entries=32)
def cw_noise(noise: float, passes: int, seed: int, lang: str):
    from olearn.teaching.cw_walk import noise_experiment
    from olearn.viz.walks import noise_figure

    table = noise_experiment(noise, passes, seed)
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
def cs_figure_at(kind: str, n: int, K: int, C: float, seed: int, i: int, lang: str):
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
def pcvm_figures(kind: str, n: int, lam: float, theta: float, seed: int, i: int, lang: str):
    from olearn.viz.walks import pcvm_figure, pcvm_history_figure

    walk, _ = pcvm_page(kind, n, lam, theta, seed)
    return pcvm_figure(walk, i, lang), pcvm_history_figure(walk, i, lang)


@st.cache_resource(show_spinner=False, max_entries=32)
def sgd_page(lam: float, epochs: int, seed: int, lang: str):
    from olearn.teaching.sgd_walk import sgd_compare, sgd_table
    from olearn.viz.walks import sgd_figures

    walk = sgd_compare(lam, epochs, 600, seed)
    return (walk, *sgd_figures(walk, lang), sgd_table(walk, lang))
