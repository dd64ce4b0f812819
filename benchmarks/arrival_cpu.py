"""Server CPU of one arrival, per page, on a warm server (issue 23 item 1).

An "arrival" is a new session opening a page: Streamlit runs the entry script (the frame and
the page) once for it.  Measured in this process with Streamlit's public test runner
(:class:`streamlit.testing.v1.AppTest`), which runs the script as a server would and collects
its messages: each page is first visited ``--warm`` times (the server's caches filled, the
kernels compiled), then ``--repeat`` fresh sessions open it and the CPU time of the thread
that runs the script (``time.thread_time`` around Streamlit's ``ScriptRunner._run_script``)
is read: the script's own cost, without the test runner's own work.  Beside olearn's pages,
the same for a
minimal Streamlit app (10 pages, 4 widgets, one small plotly figure): the floor that no page
can go under.  ``olearn's share`` is a page's median minus the floor's.

``--server``: the same through a real server (``streamlit run``) and Debian's chromium via
Playwright, each arrival a new browser context: the server process's CPU (``/proc``) from the
page load until 2 s after the network went quiet, every rerun the browser's components ask
for included.

Run: ``python -m benchmarks.arrival_cpu`` (``--pages home,spa``, ``--repeat N``,
``--profile PAGE`` prints the cProfile of one warm arrival, sorted by cumulative time).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from olearn.app import ENTRY

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("home", "playground", "spa", "lesson", "cw", "compare")

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


_SCRIPT = {"cpu": 0.0, "profile": None}


def _timed_run_script(original):
    """``ScriptRunner._run_script`` timed on its own thread (``time.thread_time``), and
    profiled when ``_SCRIPT["profile"]`` holds a profiler: the script's own CPU, without the
    test runner's per-run scan of installed packages for components."""

    def run(self, rerun_data):
        prof = _SCRIPT["profile"]
        start = time.thread_time()
        if prof is not None:
            prof.enable()
        try:
            return original(self, rerun_data)
        finally:
            if prof is not None:
                prof.disable()
            _SCRIPT["cpu"] += time.thread_time() - start

    return run


def _instrument() -> None:
    from streamlit.runtime.scriptrunner.script_runner import ScriptRunner

    if not getattr(ScriptRunner._run_script, "_olearn_timed", False):
        ScriptRunner._run_script = _timed_run_script(ScriptRunner._run_script)
        ScriptRunner._run_script._olearn_timed = True


def _app(page: str, entry: str) -> AppTest:
    at = AppTest.from_file(entry, default_timeout=300)
    if page != "minimal":
        at.switch_page(os.path.relpath(ROOT / "pages" / f"{page}.py", Path(entry).parent))
    return at


def arrival(page: str, entry: str) -> float:
    """CPU-seconds of one new session's first run of ``page``."""
    _instrument()
    at = _app(page, entry)
    _SCRIPT["cpu"] = 0.0
    at.run()
    spent = _SCRIPT["cpu"]
    if at.exception:
        raise RuntimeError(f"{page}: {at.exception[0].message}")
    return spent


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _serve(script: str, cwd: Path):
    import socket
    import subprocess
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "streamlit", "run", script, "--server.headless", "true"]
    cmd += ["--server.port", str(port), "--server.address", "127.0.0.1"]
    cmd += ["--browser.gatherUsageStats", "false"]
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(240):
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.5)
    proc.terminate()
    raise TimeoutError("streamlit did not start")


def measure_server(pages, repeat: int, warm: int, entry_min: str) -> dict[str, float]:
    import shutil

    from playwright.sync_api import sync_playwright

    out = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        try:
            for page in ("minimal", *pages):
                script, cwd = (
                    (entry_min, Path(entry_min).parent) if page == "minimal" else ("app.py", ROOT)
                )
                proc, url = _serve(script, cwd)
                try:
                    path = "/" if page == "minimal" else f"/{page}"
                    spent = []
                    for k in range(warm + repeat):
                        ctx = browser.new_context(viewport={"width": 1280, "height": 720})
                        tab = ctx.new_page()
                        before = _cpu(proc.pid)
                        tab.goto(url + path, wait_until="networkidle", timeout=300_000)
                        tab.wait_for_selector(
                            ".js-plotly-plot, [data-testid=stHeading]", timeout=120_000
                        )
                        time.sleep(2.0)
                        if k >= warm:
                            spent.append(_cpu(proc.pid) - before)
                        ctx.close()
                    out[page] = statistics.median(spent)
                    print(page, [round(x, 3) for x in spent], file=sys.stderr, flush=True)
                finally:
                    proc.terminate()
                    proc.wait(30)
        finally:
            browser.close()
    return out


def measure(pages, repeat: int, warm: int, entry_min: str) -> dict[str, float]:
    out = {}
    for page in ("minimal", *pages):
        entry = entry_min if page == "minimal" else str(ENTRY)
        for _ in range(warm):
            arrival(page, entry)
        out[page] = statistics.median(arrival(page, entry) for _ in range(repeat))
    return out


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pages", default=",".join(PAGES))
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--warm", type=int, default=2)
    p.add_argument("--server", action="store_true", help="a real server and chromium")
    p.add_argument("--profile", default=None, help="print the profile of one warm arrival")
    args = p.parse_args(argv)
    pages = [s for s in args.pages.split(",") if s]
    with tempfile.TemporaryDirectory() as tmp:
        entry_min = str(Path(tmp) / "minimal.py")
        Path(entry_min).write_text(MINIMAL)
        if args.profile:
            entry = entry_min if args.profile == "minimal" else str(ENTRY)
            for _ in range(args.warm):
                arrival(args.profile, entry)
            prof = _SCRIPT["profile"] = cProfile.Profile()
            arrival(args.profile, entry)
            _SCRIPT["profile"] = None
            buf = io.StringIO()
            pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(45)
            print(buf.getvalue())
            return
        run = measure_server if args.server else measure
        res = run(pages, args.repeat, args.warm, entry_min)
    load = os.getloadavg()
    floor = res["minimal"]
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; median of {args.repeat}")
    print("| page | CPU-s per arrival | x floor | olearn's share (CPU-s) |")
    print("|---|---|---|---|")
    for page, cpu in res.items():
        print(f"| {page} | {cpu:.3f} | {cpu / floor:.2f} | {cpu - floor:+.3f} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
