"""``olearn warmup``: the kernels compiled ahead of their first use (issue 17, item 3: the
cold start).

The compiled code is numba's business; what is ours: the command fills an empty numba cache
(so a later process loads instead of compiling) and says what it is doing, :func:`warm` runs
each part once and pauses where its caller asks, and the warm-up can be switched off.  Outside
a warm-up, a compile that takes time says so itself: tests/test_first_fit.py.  The app
server's background preparation, which runs it between page draws:
tests/test_server_background.py.
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
    _warmup.warm(lambda name, i, n: seen.append((name, i, n)), pause=lambda: calls.append("|"))
    assert calls == ["|", "a", "|", "b"]  # the caller's pause before each part
    assert seen == [("a", 0, 2), ("b", 1, 2), ("done", 2, 2)]


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
