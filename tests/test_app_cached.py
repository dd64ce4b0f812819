"""The app's caches (:mod:`olearn.app.cached`) keyed by settings values: a language switch
recomputes nothing (issue 20, item 3), shared results are read-only, equal settings share."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("streamlit")

from olearn.app import cached  # noqa: E402
from olearn.teaching import cw_walk, spa_walk  # noqa: E402
from olearn.teaching.settings import CwWalk, PlaygroundRun, SpaScenario  # noqa: E402


def counting(monkeypatch, module, name: str) -> list:
    calls: list = []
    real = getattr(module, name)

    def wrapper(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return calls


def test_a_language_switch_solves_no_qp_again(monkeypatch):
    """The SPA walk's computation is keyed on the scenario alone: Japanese after English is
    narrated from the same solution (the generic QP solved once), with other words."""
    for cache in (cached.spa_solved, cached.spa_walk, cached.spa_views):
        cache.clear()
    qp = counting(monkeypatch, spa_walk, "qp_step")
    scenario = SpaScenario("three-rivals", "I", 0.3)
    en = cached.spa_views(scenario, "en")
    assert len(qp) == 1
    ja = cached.spa_views(scenario, "ja")
    assert len(qp) == 1, "the language switch solved the QP again"
    assert ja.walk.spa is en.walk.spa  # the very same solution object
    assert ja.walk.steps[0].text != en.walk.steps[0].text  # and other words
    assert cached.spa_views(SpaScenario("three-rivals", "I", 0.3), "en") is en  # equal: shared


def test_a_language_switch_replays_no_cw_stream(monkeypatch):
    for cache in (cached.cw_walk, cached.cw_step):
        cache.clear()
    replays = counting(monkeypatch, cw_walk, "cw_update")
    setting = CwWalk.of("arow", seed=3, r=0.5)
    en = cached.cw_step(setting, 4, "en")
    ja = cached.cw_step(setting, 4, "ja")
    assert len(replays) == 1 and ja.walk is en.walk
    assert en.table.columns.tolist() != ja.table.columns.tolist()


def test_a_language_switch_reruns_no_noise_experiment(monkeypatch):
    cached.noise_table.clear()
    runs = counting(monkeypatch, cw_walk, "noise_experiment")
    for lang in ("en", "ja"):
        cached.cw_noise(0.1, 1, 7, lang)
    assert len(runs) == 1


def test_a_language_switch_reruns_no_playground_stream(monkeypatch):
    for cache in (cached.stream, cached.stream_views):
        cache.clear()
    runs = counting(monkeypatch, PlaygroundRun, "stream")
    run = PlaygroundRun(("pa", "spa"), n=30, seed=5)
    cached.stream_views(run, "en", True, (400, 300), 10)
    cached.stream_views(run, "ja", True, (400, 300), 10)
    assert len(runs) == 1


def test_shared_results_are_read_only():
    """One session cannot change what every session sees."""
    result = cached.stream(PlaygroundRun(("pa",), n=20, seed=1))
    with pytest.raises(ValueError, match="read-only"):
        result.W["pa"][0, 0, 0] = 1.0
    solution = cached.spa_solved(SpaScenario("pa-failure"))
    with pytest.raises(ValueError, match="read-only"):
        solution.W_after[0, 0] = np.inf


def test_prepared_defaults_are_what_an_arrival_asks_for(monkeypatch):
    """What the server prepares at start is what a first visit of the Playground, the SPA
    page and the CW page computes: after :func:`prepare_defaults`, arriving computes nothing."""
    from streamlit.testing.v1 import AppTest

    from olearn.teaching.settings import PlaygroundRun as Run
    from tests.app_support import APP, page_file

    every = (cached.stream, cached.stream_views, cached.spa_solved, cached.spa_walk)
    cw = (cached.cw_walk, cached.cw_step, cached.cw_updates, cached.noise_table, cached.cw_noise)
    for cache in (*every, cached.spa_views, *cw):
        cache.clear()  # (what other tests left there counts for nothing)
    cached.prepare_defaults(langs=("en",))
    computed = [
        counting(monkeypatch, Run, "stream"),
        counting(monkeypatch, spa_walk, "spa_solve"),
        counting(monkeypatch, cw_walk, "cw_update"),
        counting(monkeypatch, cw_walk, "noise_experiment"),
    ]
    for page in ("pages/playground.py", "pages/spa.py", "pages/cw.py"):
        at = AppTest.from_file(str(APP), default_timeout=120)
        at.switch_page(page_file(page)).run()
        assert not at.exception
    assert [len(c) for c in computed] == [0, 0, 0, 0]
