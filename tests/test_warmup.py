"""``olearn warmup`` and the app's background warm-up (issue 17, item 3: the cold start).

The compiled code is numba's business; what is ours: the command fills an empty numba cache
(so a later process loads instead of compiling) and says what it is doing, the app shows
"Preparing kernels" while a warm-up runs and not otherwise, and the warm-up thread is started
once per process, ends, and is never started where it is switched off.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from olearn import _warmup

ROOT = Path(__file__).resolve().parents[1]


def _cache_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.suffix in (".nbi", ".nbc")]


def test_warmup_command_fills_an_empty_numba_cache(tmp_path):
    """A subset (PA's fit and its readable rule) keeps the test short; every part runs the
    same code path."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    env.pop("NUMBA_DISABLE_JIT", None)
    cmd = [sys.executable, "-m", "olearn", "warmup", "--no-progress", "--only", "fit pa1"]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "preparing kernels (first run only)" in done.stderr
    assert "kernels ready in" in done.stderr
    written = _cache_files(tmp_path)
    # the PA kernel and the CSR primitives it calls, each with its index and its code
    assert any("pa" in p.name and p.suffix == ".nbc" for p in written), written
    assert any("sparse" in p.name and p.suffix == ".nbi" for p in written), written


PAGES_RUN = """
from streamlit.testing.v1 import AppTest
from olearn.app.frame import PAGES
from tests.app_support import APP, page_file
for page in PAGES:
    at = AppTest.from_file(str(APP), default_timeout=300)
    at.switch_page(page_file(f"pages/{page.key}.py")).run()
    assert not at.exception, (page.key, [e.value for e in at.exception])
"""


def test_after_a_warmup_no_page_compiles_anything(tmp_path):
    """The warm-up's claim, checked on the app: ``olearn warmup`` into an empty cache, then
    every page run headless in a new process writes no cache file (each kernel signature the
    pages use was compiled, and loaded from the cache).  Without the warm-up the same run
    writes about 80 (the CW page's kernels and closed forms), so the test can fail."""
    pytest.importorskip("streamlit")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    env.pop("NUMBA_DISABLE_JIT", None)
    env["OLEARN_WARMUP"] = "0"
    warm = [sys.executable, "-m", "olearn", "warmup", "--no-progress"]
    subprocess.run(warm, env=env, check=True, capture_output=True, timeout=600, cwd=ROOT)
    before = {p: p.stat().st_mtime_ns for p in _cache_files(tmp_path)}
    assert before
    run = subprocess.run(
        [sys.executable, "-c", PAGES_RUN],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    after = {p: p.stat().st_mtime_ns for p in _cache_files(tmp_path)}
    assert after == before, sorted(str(p.name) for p in set(after) - set(before))


def test_parts_cover_every_registry_algorithm_with_a_kernel_and_only_filters():
    from olearn import registry

    names = [name for name, _ in _warmup.parts()]
    for spec in registry.ALGORITHMS:
        if spec.kernel is not None:
            assert f"fit {spec.key}" in names
        if spec.online:
            assert f"rule {spec.key}" in names
    assert [name for name, _ in _warmup.parts(["fit scw"])] == ["fit scw1", "fit scw2"]


def test_warm_reports_progress_and_runs_each_part_once(monkeypatch):
    calls = []
    monkeypatch.setattr(
        _warmup,
        "parts",
        lambda only=None: [("a", lambda: calls.append("a")), ("b", lambda: calls.append("b"))],
    )
    seen = []
    _warmup.warm(lambda name, i, n: seen.append((name, i, n)))
    assert calls == ["a", "b"]
    assert seen == [("a", 0, 2), ("b", 1, 2), ("done", 2, 2)]


def test_background_warmup_starts_once_and_ends(monkeypatch):
    ran = []
    monkeypatch.setattr(_warmup, "warm", lambda: ran.append(1))
    monkeypatch.setattr(_warmup, "_thread", None)
    first = _warmup.start_background()
    assert _warmup.start_background() is first  # once per process
    first.join(timeout=30)
    assert not first.is_alive() and not _warmup.warming()
    assert ran == [1] and first.daemon  # a daemon: it cannot keep a stopped server alive


def test_a_failing_warmup_step_is_said_on_the_console_and_the_next_steps_still_run(
    monkeypatch, capsys
):
    def failing():
        raise RuntimeError("no kernels today")

    then = []
    monkeypatch.setattr(_warmup, "warm", failing)
    monkeypatch.setattr(_warmup, "_thread", None)
    _warmup.start_background(then=lambda: then.append(1)).join(timeout=30)
    assert not _warmup.warming()
    assert then == [1]  # the step after it (the heap's freeze, "pages prepared") still ran
    err = capsys.readouterr().err
    assert "failing failed (RuntimeError: no kernels today)" in err


@pytest.mark.parametrize(
    ("env", "expected"), [({"OLEARN_WARMUP": "0"}, False), ({"NUMBA_DISABLE_JIT": "1"}, None)]
)
def test_warmup_can_be_switched_off(monkeypatch, env, expected):
    import numba

    for key, value in env.items():
        monkeypatch.setenv(key, value)
    if "NUMBA_DISABLE_JIT" in env:
        monkeypatch.setattr(numba.config, "DISABLE_JIT", 1)
        monkeypatch.delenv("OLEARN_WARMUP", raising=False)
        expected = False
    assert _warmup.enabled() is expected


def test_the_page_says_preparing_kernels_while_a_warmup_runs(monkeypatch):
    pytest.importorskip("streamlit")
    from tests.test_app_pages import open_page

    monkeypatch.setattr(_warmup, "warming", lambda: True)
    at = open_page("pages/sgd.py")
    assert any("Preparing kernels (first run only)" in i.value for i in at.info)
    monkeypatch.setattr(_warmup, "warming", lambda: False)
    at.run()
    assert not any("Preparing kernels" in i.value for i in at.info)


@pytest.mark.parametrize(("seconds", "said"), [(0.0, []), (1.5, [_warmup.MESSAGE])])
def test_a_command_says_preparing_kernels_only_when_compiling_takes_time(
    monkeypatch, seconds, said
):
    import time

    monkeypatch.setattr(_warmup, "warm", lambda only=None: time.sleep(seconds))
    messages = []
    _warmup.warm_announced(messages.append)
    assert messages == said


def test_the_server_starts_its_warmup_once_its_first_page_is_drawn(monkeypatch):
    """Started before, the warm-up would compete with that page for the compiler; before it
    has started, the notice shows while the page runs and goes when the page is drawn."""
    pytest.importorskip("streamlit")
    from tests.test_app_pages import open_page

    started = []
    monkeypatch.setattr(_warmup, "enabled", lambda: True)
    monkeypatch.setattr(_warmup, "_thread", None)
    monkeypatch.setattr(_warmup, "start_background", lambda **_: started.append(1))
    at = open_page("pages/sgd.py")
    assert started
    assert not any("Preparing kernels" in i.value for i in at.info)
