"""The lecturer's guide and the app cannot drift apart (issue 31, item 1).

Every app link in ``docs/lecturers_guide.md`` is opened headless (AppTest), offline: an empty
``OLEARN_DATA`` and no socket may connect (the guide says its plan needs no download).  The
page's cached entry points (:mod:`olearn.app.cached`) are wrapped to record the settings the
page computed for that link, and the claim the guide makes about the link is checked on that
computation: the Perceptron visibly wrong and moving after the player's start, PA a different
curve, PA's failure and SPA's fix, the cap of SPA-I, the printed misprint, the CW ellipse
shrinking along x, CW breaking under label noise where AROW and SCW hold, the comparison and
the reproduction running from their links.  A link whose page has no claim here fails: a new
link in the guide needs its check.

The lesson's "Open this view in its page" links are followed too: the page must compute the
very setting the lesson showed (the test share included: the same mistakes, not 3/150 in the
lesson and 1/150 in the page).
"""

from __future__ import annotations

import html
import re
import socket
from dataclasses import replace
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

import olearn.app.cached as cached  # noqa: E402
from olearn.teaching.demo_stream import (  # noqa: E402
    MIN_CURVE_GAP,
    MIN_LATE_MISTAKES,
    MIN_QUIET_END,
    PLAYER_START,
    check_setting,
)
from olearn.teaching.lesson import REAL  # noqa: E402
from olearn.teaching.settings import default_playground  # noqa: E402
from tests.app_support import APP, page_file  # noqa: E402

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "lecturers_guide.md"
LINK = re.compile(r"`(/[a-z_]*(?:\?[^`\s]*)?)`")
# the cached entry points recorded, and which of their arguments make the computation (the
# others: the language, the figure's height)
RECORDED = {
    "stream_views": (0, 4),
    "spa_views": (0,),
    "cw_step": (0,),
    "cw_noise": (0, 1, 2),
    "comparison": (0,),
    "repro_run": (0, 1),
}


def guide_links() -> list[str]:
    """Every app link (a backticked path from the app's root) the guide gives, in order."""
    return list(dict.fromkeys(LINK.findall(GUIDE.read_text(encoding="utf-8"))))


def test_the_guide_gives_the_links_this_file_checks():
    links = guide_links()
    assert len(links) >= 15, links
    pages = {urlsplit(link).path for link in links}
    assert {"/playground", "/spa", "/cw", "/lesson", "/compare", "/reproduce"} <= pages


@pytest.fixture
def offline(monkeypatch, tmp_path):
    """An empty data folder and no network: what a lecture hall without the internet has."""
    monkeypatch.setenv("OLEARN_DATA", str(tmp_path / "empty"))
    monkeypatch.setenv("OLEARN_APP_RAISE", "1")

    def refuse(*args, **kwargs):
        raise OSError("network use in a test of the offline plan")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


@pytest.fixture
def record(monkeypatch):
    """The arguments of every call the pages make to the recorded cached entry points."""
    calls: dict[str, list] = {name: [] for name in RECORDED}
    for name in RECORDED:
        original = getattr(cached, name)

        def wrapper(*args, _name=name, _original=original, **kwargs):
            calls[_name].append(args)
            return _original(*args, **kwargs)

        monkeypatch.setattr(cached, name, wrapper)
    return calls


def open_link(link: str) -> AppTest:
    """``link`` (path and query) opened headless, every error raised."""
    parts = urlsplit(link)
    at = AppTest.from_file(str(APP), default_timeout=300)
    for key, value in parse_qsl(parts.query):
        at.query_params[key] = value
    at.run()
    page = parts.path.strip("/")
    if page:
        at.switch_page(page_file(f"pages/{page}.py")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


# --- the claims, one per page, checked on what the page computed ------------------------------


def playground_claim(calls, query) -> None:
    """ "Press Play: the regions move only on mistakes"; PA beside the Perceptron: two curves."""
    run, _, _, _, t0 = calls["stream_views"][-1]
    if query.get("t") is None:  # the Playground itself: the player opens at its start
        assert t0 == PLAYER_START
    if not set(query) & {"kind", "n", "K", "noise", "test", "seed", "C", "bias"}:
        assert run == replace(default_playground(), keys=run.keys)  # its stream on arrival
    check = check_setting(run)
    # "on separable data the number of mistakes is bounded": separable, and they stop
    assert check.separable and check.quiet_end >= MIN_QUIET_END, check
    if "perceptron" in run.keys:
        assert check.late_mistakes >= MIN_LATE_MISTAKES, check
    if {"perceptron", "pa"} <= set(run.keys):
        assert check.curve_gap >= MIN_CURVE_GAP, check


def spa_claim(calls, query) -> None:
    scenario = calls["spa_views"][-1][0]
    solved = cached.spa_solved(scenario)
    spa, pa, y = solved.spa, solved.pa, solved.instance.y
    wrong = [u for u in range(len(spa.scores_after)) if u != y]
    assert np.allclose(solved.qp.tau, spa.tau, atol=1e-7)  # "a QP solver's answer: they agree"
    if scenario.name == "three-rivals" and scenario.variant is None:
        # PA: one constraint met, another rival left on top: still misclassified
        assert int(np.argmax(pa.scores_after)) != y
        assert min(spa.margins_after[u] for u in wrong) >= 1 - 1e-9  # SPA: every wrong class
    if scenario.variant == "I" and scenario.name == "three-rivals":
        assert spa.tau_sum == pytest.approx(scenario.C) and scenario.C < solved.T_hard  # capped
    if scenario.name.startswith("printed"):  # the printed formula disagrees on this instance
        assert not np.allclose(solved.printed.tau, spa.tau, atol=1e-9)


def cw_claim(calls, query) -> None:
    if "noise" in query:  # "CW breaks under label noise, AROW and SCW do not"
        noise, passes, seed, _ = calls["cw_noise"][-1]
        table = cached.noise_table(noise, passes, seed)
        last = table[table["pass"] == passes].set_index("key")["error %"]
        assert noise == float(query["noise"]) and passes == int(query["passes"])
        assert last["cw"] > 2 * max(last["arow"], last["scw1"], last["scw2"]), last
        return
    updates = [cached.cw_walk(setting, index) for setting, index, _ in calls["cw_step"]]
    updates = [walk for walk in updates if walk.trace.alpha > 0]
    assert updates  # "Press Next update": the page shows updates
    for walk in updates:  # "the mean moves by alpha Sigma x, the ellipse shrinks along x"
        x, trace = np.asarray(walk.x, float), walk.trace
        assert not np.allclose(trace.mu_after, trace.mu_before)
        assert x @ trace.Sigma_after @ x < x @ trace.Sigma_before @ x


def compare_claim(calls, query) -> None:
    setting = calls["comparison"][-1][0]  # run=1: started on arrival, without a click
    result = cached.comparison(setting, "en")[0]
    assert result.table["key"].tolist() == query["algos"].split(",")
    assert result.table["error %"].notna().all()


def reproduce_claim(calls, query) -> None:
    if query.get("mode") == "quick":  # the offline reproduction runs from its link
        id_, quick, _ = calls["repro_run"][-1]
        assert id_ == query["id"] and quick
        result, _ = cached.repro_run(id_, quick, "en")
        assert len(result.table) and result.table["ours"].notna().all()
        # "digits is not the paper's data ... the paper column stays empty"
        assert set(result.table["dataset"]) == {"digits"} and result.table["paper"].isna().all()
        assert "not the paper's data" in result.summary


def lesson_claim(calls, query) -> None:
    step = int(query.get("step", 1))
    if step in (1, 2):
        playground_claim(calls, {"t": "end"})
    elif step in (3, 4, 5):
        spa_claim(calls, query)
    elif step == 6:
        cw_claim(calls, {})
    elif step == 7:
        cw_claim(calls, {"noise": "0.2", "passes": "3"})
    elif step == 8:  # "the same learners on handwritten digits"
        assert calls["comparison"][-1][0].name == "digits"
        compare_claim(calls, {"algos": REAL["algos"]})


def renders(calls, query) -> None:
    """Pages the guide only names (Home, the batch walkthroughs): they open without error."""


CLAIMS = {
    "/": renders,
    "/playground": playground_claim,
    "/spa": spa_claim,
    "/cw": cw_claim,
    "/compare": compare_claim,
    "/reproduce": reproduce_claim,
    "/lesson": lesson_claim,
    "/cs_svm": renders,
    "/pcvm": renders,
    "/sgd": renders,
}


@pytest.mark.parametrize("link", guide_links())
def test_each_guide_link_shows_what_the_guide_says(link, offline, record):
    path = urlsplit(link).path
    assert path in CLAIMS, f"the guide links to {path}: add the claim it makes to CLAIMS"
    open_link(link)
    CLAIMS[path](record, dict(parse_qsl(urlsplit(link).query)))


# --- the lesson's "Open this view in its page" ------------------------------------------------


def lesson_open_link(at: AppTest) -> str:
    """The href of the lesson's link to the page in the same state."""
    hrefs = [re.search(r'href="([^"]+)"', m.value) for m in at.markdown]
    found = [html.unescape(h.group(1)) for h in hrefs if h and h.group(1).startswith("/")]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("step", range(1, 9))
def test_the_lessons_link_opens_its_page_on_the_same_computation(step, offline, record):
    at = open_link(f"/lesson?step={step}&present=1")
    shown = {name: list(calls) for name, calls in record.items() if calls}
    for calls in record.values():
        calls.clear()
    open_link(lesson_open_link(at))
    for name, calls in shown.items():
        assert record[name], f"the page computed no {name}"
        lesson, page = ([args[i] for i in RECORDED[name]] for args in (calls[-1], record[name][-1]))
        assert page == lesson, name  # the same setting, every field of it
        if name == "stream_views":  # the same mistakes (e.g. 3/150 stays 3/150)
            runs = [cached.stream(setting[0]) for setting in (lesson, page)]
            assert runs[0].mistake_counts(runs[0].n) == runs[1].mistake_counts(runs[1].n)
