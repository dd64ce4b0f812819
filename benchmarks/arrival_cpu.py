"""Server CPU of one arrival, per page, on a warm server (issue 23 item 1).

An "arrival" is a new visitor opening a page.  A real server (``streamlit run app.py``,
``OLEARN_WARMUP=0`` so no background work runs beside the visits) and Debian's chromium via
Playwright: each page is first visited ``--warm`` times (caches filled, kernels loaded), then
``--repeat`` new browser contexts open it, and the server process's CPU (user + system, from
``/proc``) is read from the page load until its script run has ended, a figure (or a
heading) is on screen and 2 s have passed with no rerun going on: every script run, rerun,
static file and websocket message of the arrival.  Beside olearn's pages, the same for a
minimal Streamlit app (10 pages, 4 widgets and one small plotly figure each, default
settings): the floor no page goes under; ``olearn's share`` is a page's median minus the
floor's.  Every page gets a fresh server.

``--profile PAGE``: the server run under ``cProfile`` over ``--repeat`` arrivals at that page,
its main thread's 30 heaviest functions (the event loop: sessions, static files, websocket;
the script threads are not in it).  That is how the file watcher was found (issue 23).

Run: ``python -m benchmarks.arrival_cpu`` (``--pages home,spa``, ``--repeat N``).  CPU
seconds, not wall time, so a loaded machine changes them less; still, compare a before and an
after measured in one run, and read the load average printed with them.
"""

from __future__ import annotations

import argparse
import os
import pstats
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.app_timing import _server

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("home", "playground", "spa", "lesson", "cw", "compare")
READY = ".js-plotly-plot, [data-testid=stHeading]"
# the state Streamlit's frontend publishes on its root element: no script run going on (a
# visitor who left mid-run would leave a cached computation unfinished, for every arrival)
DONE = "[data-testid=stApp][data-test-script-state=notRunning]"

# the floor: a minimal multipage app (10 pages, 4 widgets and one small plotly figure each)
MINIMAL = """
import plotly.graph_objects as go
import streamlit as st


def page():
    st.title("page")
    a = st.slider("a", 0, 10, 3)
    b = st.selectbox("b", ["x", "y", "z"])
    st.toggle("c", True)
    st.number_input("d", 0, 100, 1)
    st.plotly_chart(go.Figure(go.Scatter(x=list(range(20)), y=[a * i for i in range(20)])))
    st.caption(b)


pages = [st.Page(page, title=f"p{i}", url_path=f"p{i}", default=i == 0) for i in range(10)]
st.navigation(pages).run()
"""


def _cpu(pid: int) -> float:
    """User + system CPU-seconds of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _serve(script: str, cwd: Path, profile: str | None = None):
    """:func:`benchmarks.app_timing._server` of ``script``, kernels' background warm-up off."""
    env = {**os.environ, "OLEARN_WARMUP": "0"}
    return _server(env, script=script, cwd=cwd, profile=profile)


def _stop(proc) -> None:
    proc.send_signal(signal.SIGINT)  # (cProfile writes its file on a clean exit)
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def _visit(browser, url: str) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        tab = ctx.new_page()
        tab.goto(url, wait_until="networkidle", timeout=300_000)
        tab.wait_for_selector(READY, timeout=120_000)
        tab.wait_for_selector(DONE, timeout=300_000)  # the script run ended
        time.sleep(2.0)  # reruns the page's components ask for, after the first figure
        tab.wait_for_selector(DONE, timeout=300_000)
    finally:
        ctx.close()


def _site(page: str, minimal: str) -> tuple[str, Path, str]:
    """(script, working directory, path) of ``page``."""
    if page == "minimal":
        return minimal, Path(minimal).parent, "/"
    return "app.py", ROOT, f"/{page}"


def measure(browser, pages, repeat: int, warm: int, minimal: str) -> dict[str, list[float]]:
    out = {}
    for page in ("minimal", *pages):
        script, cwd, path = _site(page, minimal)
        proc, url = _serve(script, cwd)
        try:
            for _ in range(warm):
                _visit(browser, url + path)
            spent = []
            for _ in range(repeat):
                before = _cpu(proc.pid)
                _visit(browser, url + path)
                spent.append(_cpu(proc.pid) - before)
        finally:
            _stop(proc)
        out[page] = spent
        print(page, [round(x, 3) for x in spent], file=sys.stderr, flush=True)
    return out


def profile(browser, page: str, repeat: int, warm: int, minimal: str) -> None:
    script, cwd, path = _site(page, minimal)
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "server.prof")
        proc, url = _serve(script, cwd, profile=out)
        try:
            for _ in range(warm + repeat):
                _visit(browser, url + path)
        finally:
            _stop(proc)
        pstats.Stats(out).sort_stats("tottime").print_stats(30)


def main(argv=None) -> None:
    from playwright.sync_api import sync_playwright

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pages", default=",".join(PAGES))
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--warm", type=int, default=2)
    p.add_argument("--profile", default=None, help="profile the server over arrivals at PAGE")
    args = p.parse_args(argv)
    pages = [s for s in args.pages.split(",") if s]
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        minimal = str(Path(tmp) / "minimal.py")
        Path(minimal).write_text(MINIMAL)
        browser = pw.chromium.launch(executable_path=shutil.which("chromium"))
        try:
            if args.profile:
                profile(browser, args.profile, args.repeat, args.warm, minimal)
                return
            res = measure(browser, pages, args.repeat, args.warm, minimal)
        finally:
            browser.close()
    floor = statistics.median(res["minimal"])
    print(
        f"load average at the start {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, at the end ", end=""
    )
    print(" ".join(f"{v:.2f}" for v in os.getloadavg()) + f"; median of {args.repeat}")
    print("| page | CPU-s per arrival | x floor | olearn's share (CPU-s) |")
    print("|---|---:|---:|---:|")
    for page, spent in res.items():
        cpu = statistics.median(spent)
        print(f"| {page} | {cpu:.3f} | {cpu / floor:.2f} | {cpu - floor:+.3f} |")


if __name__ == "__main__":
    main()
