"""The app under load, hosted for a class: ``olearn app --workers 2`` behind nginx (issue 23).

One run of the classroom benchmark's machinery (:mod:`benchmarks.classroom_replay`) on the
real command: chromium opens the Playground through the proxy (its first figure on screen)
and its requests and websocket frames are captured; then five students replay them at once,
each with its own deep link (two pairs share a seed).  Checked: no error in any session, each
gets its first figure, sessions stay separate (one seed, one figure; two seeds, two figures),
every request and the websocket of a session reach one worker (the sticky cookie), a student
placed by the cookie on either worker stays there, Streamlit's static files arrive gzipped and
a first visit transfers at most 3 MB; then SIGTERM to the command leaves no process (proxy
and workers).  The full benchmark, with its figures: ``python -m benchmarks.classroom``.
"""

from __future__ import annotations

import ast
import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks import classroom_replay as replay
from olearn.app.server.hosting import COOKIE, free_port, wait_healthy

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]
SEEDS = [101, 101, 102, 102, 103]
FIRST_VISIT_BYTES = 3_000_000  # issue 23: a first visit through --workers


@pytest.fixture
def hosted(tmp_path):
    """``olearn app --workers 2`` on a free port; yields (base URL, process); stopped after."""
    for tool, package in (("nginx", "nginx"), ("chromium", "chromium")):
        if shutil.which(tool) is None and not Path(f"/usr/sbin/{tool}").exists():
            pytest.fail(f"the hosting test needs {tool} (apt-get install {package})")
    port = free_port()
    env = {**os.environ, "OLEARN_STATIC_CACHE": str(tmp_path / "static")}
    env["OLEARN_UPSTREAM_HEADER"] = "1"  # which worker answered: the sticky sessions' check
    cmd = [sys.executable, "-m", "olearn", "app", "--workers", "2"]
    cmd += ["--server.port", str(port), "--server.address", "127.0.0.1"]
    log = open(tmp_path / "app.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_healthy(f"http://127.0.0.1:{port}/_stcore/health", [proc], timeout=180)
        yield f"http://127.0.0.1:{port}", proc
    finally:
        if proc.poll() is None:
            proc.kill()  # only if the test failed before its own SIGTERM
            proc.wait()
        log.close()


def _alive(pids: list[int]) -> list[int]:
    alive = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.append(pid)
    return alive


async def _class(cap: replay.Capture) -> list[replay.Arrival]:
    """Five students at once; the first two come with the cookie naming worker w0 and w1
    (one seed: the two workers must draw the same figure), the others are placed by nginx."""
    placed = [{COOKIE: "w0"}, {COOKIE: "w1"}]
    students = [
        replay.arrive(
            cap,
            delay=0.1 * i,
            query=f"seed={s}&n=100",
            cookies=placed[i] if i < len(placed) else None,
            timeout=240,
        )
        for i, s in enumerate(SEEDS)
    ]
    return list(await asyncio.gather(*students))


def _compressible_js() -> set[str]:
    """Streamlit's JS files big enough that nginx must send them gzipped."""
    from olearn.app.server.hosting import streamlit_static_dir

    folder = streamlit_static_dir()
    return {
        "/" + str(p.relative_to(folder))
        for p in (folder / "static" / "js").glob("*.js")
        if p.stat().st_size > 2048
    }


def test_workers_behind_nginx_serve_a_class_and_stop(hosted):
    base, proc = hosted
    tree = replay.process_tree(proc.pid)
    names = {Path(f"/proc/{pid}/exe").resolve().name for pid in tree if _alive([pid])}
    assert "nginx" in names and len(tree) >= 4  # olearn app, 2 workers, nginx (+ its worker)

    cap = replay.capture(f"{base}/playground", timeout=180)  # the real browser: a figure
    assert cap.frames and any(p.startswith("/static/js/") for p in cap.before)
    students = asyncio.run(_class(cap))

    big = _compressible_js()
    for a in students:
        assert a.errors == [] and a.first_figure is not None, a.errors
        assert len(a.upstreams) == 1, a.upstreams  # page, probes and websocket: one worker
        js = [p for p in a.encodings if p in big]
        assert js and all(a.encodings[p] == "gzip" for p in js)
        assert a.static_bytes + a.ws_bytes <= FIRST_VISIT_BYTES
    # the cookie decides: w0 and w1 are two different workers, and nginx places the others
    # on one of them
    workers = students[0].upstreams | students[1].upstreams
    assert len(workers) == 2
    assert set().union(*(a.upstreams for a in students)) == workers
    # sessions stay separate: a seed's figure is its own, and equal for the same seed
    streams = {}
    for seed, a in zip(SEEDS, students):
        streams.setdefault(seed, set()).add(json.dumps(json.loads(a.figure_spec)["data"]))
    assert all(len(v) == 1 for v in streams.values())
    assert len({next(iter(v)) for v in streams.values()}) == len(set(SEEDS))

    tree = replay.process_tree(proc.pid)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(30) == 0
    deadline = time.monotonic() + 10
    while _alive(tree) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _alive(tree) == [], "processes left after SIGTERM"


def test_every_app_cache_is_bounded():
    """Every ``st.cache_data`` / ``st.cache_resource`` in olearn/app/cached.py has
    ``max_entries`` or ``ttl``: memory cannot grow with the number of distinct inputs."""
    tree = ast.parse((ROOT / "olearn" / "app" / "cached.py").read_text())
    unbounded, seen = [], 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        for deco in node.decorator_list:
            target = deco.func if isinstance(deco, ast.Call) else deco
            if ast.unparse(target) in ("st.cache_data", "st.cache_resource"):
                seen += 1
                keywords = {k.arg for k in deco.keywords} if isinstance(deco, ast.Call) else set()
                if not keywords & {"max_entries", "ttl"}:
                    unbounded.append(node.name)
    assert seen >= 10 and not unbounded, unbounded
