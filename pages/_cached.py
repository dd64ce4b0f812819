"""Cached entry points into olearn for the pages.  Every input is an argument (hashable), so
``st.cache_data`` keys on all of them; nothing reads globals or session state."""

from __future__ import annotations

import streamlit as st

from olearn.teaching.instances import Instance


@st.cache_data(show_spinner=False, max_entries=256)
def spa_walk(scenario: str, variant: str | None, C: float, seed: int, K: int | None,
             lang: str, playground: tuple | None = None):
    """The SPA walkthrough of a preset scenario (or of the playground's state)."""
    from olearn.teaching.spa_walk import scenario as make_scenario
    from olearn.teaching.spa_walk import spa_walkthrough

    if scenario == "playground" and playground is not None:
        from olearn.teaching.stream import instance_at

        inst: Instance = instance_at(*playground)
    else:
        inst = make_scenario(scenario, seed=seed, K=K, C=C)
    return spa_walkthrough(inst, variant, C, lang)


@st.cache_resource(show_spinner=False, max_entries=512)  # figures are never mutated
def spa_figures(scenario: str, variant: str | None, C: float, seed: int, K: int | None,
                lang: str, playground: tuple | None, index: int):
    """The step figure, the C figure and PA beside SPA, for one sub-step."""
    from olearn.viz.spa import cap_figure, pa_vs_spa_figure, spa_step_figure

    walk = spa_walk(scenario, variant, C, seed, K, lang, playground)
    return spa_step_figure(walk, index), cap_figure(walk), pa_vs_spa_figure(walk)


@st.cache_data(show_spinner=False, max_entries=64)
def stream_run(keys: tuple, kind: str, n: int, K: int, noise: float, margin: float, seed: int,
               C: float, bias: bool, points: tuple | None):
    """The playground's whole run, every snapshot (computed once per setting)."""
    from olearn.teaching.stream import run_stream

    return run_stream(keys, kind, n, K, noise, margin, seed, C, bias, points)


@st.cache_resource(show_spinner=False, max_entries=1024)  # figures are never mutated
def stream_figures(keys: tuple, kind: str, n: int, K: int, noise: float, margin: float,
                   seed: int, C: float, bias: bool, points: tuple | None, t: int, lang: str,
                   band: bool):
    """(planes at t, cumulative mistakes, weight-space ellipses or None) and the run."""
    from olearn.viz.stream import mistakes_figure, stream_figure, weight_space_figure

    run = stream_run(keys, kind, n, K, noise, margin, seed, C, bias, points)
    return (stream_figure(run, t, lang, band), mistakes_figure(run, t, lang),
            weight_space_figure(run, t, lang), run.mistake_counts(t), run.n)


@st.cache_data(show_spinner=False)
def home_data(title: str):
    """(family map figure, dataset cards table)."""
    from olearn.teaching.home import dataset_cards, family_map
    from olearn.viz.home import family_map_figure

    nodes, edges = family_map()
    return family_map_figure(nodes, edges, title), dataset_cards()


@st.cache_data(show_spinner=False, max_entries=32)
def comparison(name: str | None, upload: bytes | None, filename: str | None, algorithms: tuple,
               c_grid: tuple, epochs: int, folds: int, seed: int, max_samples: int,
               lang: str, _progress=None):
    """The Compare page's result and figures (``_progress`` is not part of the cache key)."""
    from olearn.teaching.compare import compare, dataset_from
    from olearn.viz.compare import curves_figure, error_figure, time_figure

    data = dataset_from(name, upload, filename)
    res = compare(data, algorithms, c_grid, epochs, folds, seed, max_samples or None,
                  progress=_progress)
    return res, error_figure(res, lang), curves_figure(res, lang), time_figure(res, lang)


@st.cache_data(show_spinner=False)
def dataset_card(name: str) -> dict:
    from olearn import datasets

    return datasets.card(name, build=False)


@st.cache_data(show_spinner=False)
def repro_catalogue():
    from olearn.teaching.reproduce import catalogue

    return catalogue()


@st.cache_data(show_spinner=False, max_entries=16)
def repro_run(id_: str, quick: bool, lang: str, _progress=None):
    """(result, paper-vs-ours figure) of one reproduction."""
    from olearn.teaching.reproduce import numeric_pairs, run
    from olearn.viz.reproduce import paper_vs_ours_figure

    result = run(id_, quick, _progress)
    return result, paper_vs_ours_figure(numeric_pairs(result), lang)
