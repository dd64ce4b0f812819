"""How the app feels in a real browser: the Playground's frames per second while playing, the
latency of Step and of a slider move, the first render, and the SPA page's "Next".

Measured in Debian's chromium driven by Playwright (1280x720), against ``streamlit run
app.py`` started here on a loopback port.  The Playground plays in the browser
(:mod:`olearn.app.components.player`), so its numbers are the page's own: frames drawn per
second with the speed set to its maximum (60 frames/s asked), and for Step the time from the click
handler to the next animation frame after the charts changed (``performance.now()`` in the
page).  The SPA page's Next and the CW page's Next update are stepped in the browser too
(:mod:`olearn.app.components.stepper`): timed from Python's click to the new title on screen,
and in the page from the click handler to the painted charts.  Also timed: building the Playground's
frames in Python (the first render's server part).

Run: ``python -m benchmarks.app_timing`` (``--repeat N``, ``--seconds S``); writes
``results/app_timing.json`` and ``results/app_timing.md``.  Numbers depend on the machine's
load: the JSON records the load average at the start.

The cold start (``--cold``; writes ``results/app_timing_cold.json`` / ``.md``): for every page,
a fresh server with an empty numba cache (``NUMBA_CACHE_DIR`` a new temporary folder) started
the documented way, ``olearn app`` (``--launch streamlit``: ``streamlit run app.py``, as in a
clone), and one visit in a new browser as soon as the server answers its health check, timed
from the page load to the page's first figure on screen (the stepper's and the player's
included), and to its content with the script run ended.  Three installs (``--modes``):

- ``none``: nothing warms (``OLEARN_WARMUP=0``): the page imports and computes what it needs
  (the "before");
- ``background``: the server's own preparation (:mod:`olearn.app.server.serve` under
  ``olearn app``: imports, default views, kernels, from the server's start; under
  ``streamlit run app.py``: after its first page);
- ``warmup``: ``olearn warmup`` was run once into that empty cache before the server started
  (an install that ran it, e.g. a server image), the server's own preparation on;
- ``prepared``: as ``warmup``, the page opened once the server's console said
  ``pages prepared`` (a lecturer who starts the server before the class; ``olearn app``
  only).

``--cold-repeat N`` visits each page on N fresh servers and reports the median (the machine is
shared: one visit says little).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from tests.player_support import OLP, player_js, player_ready, player_state

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
PLAYGROUND = "/playground?algos=perceptron,pa,spa,arow&n=400&t=0&present=1"


def _stats(ms: list[float]) -> dict:
    ms = sorted(ms)
    return {
        "median_ms": round(statistics.median(ms), 1),
        "p90_ms": round(ms[int(0.9 * (len(ms) - 1))], 1),
        "n": len(ms),
    }


def _server(env: dict | None = None, *, script: str = "app.py", cwd=ROOT, profile=None):
    """A Streamlit server of ``script`` (run from ``cwd``; under cProfile writing ``profile``
    if given) on a free port, once healthy: ``(process, url)``."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, *(("-m", "cProfile", "-o", profile) if profile else ())]
    cmd += ["-m", "streamlit", "run", script, "--server.headless", "true"]
    cmd += ["--server.port", str(port), "--server.address", "127.0.0.1"]
    cmd += ["--browser.gatherUsageStats", "false"]
    proc = subprocess.Popen(
        cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, env=env
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(240):
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.5)
    proc.terminate()
    raise TimeoutError("streamlit did not start")


def _wait_player(pg, timeout: float = 180.0) -> float:
    """Seconds until the player drew its first frame on every chart."""
    start = time.perf_counter()
    player_ready(pg, timeout)
    return time.perf_counter() - start


def playground(pg, url: str, repeat: int, seconds: float) -> dict:
    start = time.perf_counter()
    pg.goto(url + PLAYGROUND)
    first = _wait_player(pg) + 0.0
    first_render = time.perf_counter() - start
    pg.wait_for_timeout(1500)
    # Step: real clicks on the player's button; the page publishes click -> next paint
    steps = []
    for _ in range(repeat):
        jumps = int(player_state(pg)["jumps"])
        pg.locator(".olp button.step").click()
        pg.wait_for_function(player_js("+d.jumps > arg"), arg=jumps)
        steps.append(float(player_state(pg)["latency"]))
        pg.wait_for_timeout(120)
    # slider: set a new position and wait two animation frames (the frame is drawn)
    slider = pg.evaluate(
        f"""async (n) => {{ const s = {OLP}.querySelector('.slider');
        const out = [];
        for (let i = 0; i < n; i++) {{
          const t0 = performance.now(); s.value = String((37 * (i + 1)) % 400);
          s.dispatchEvent(new Event('input'));
          await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
          out.push(performance.now() - t0);
        }} return out; }}""",
        repeat,
    )
    # play at the fastest speed offered and count the frames drawn
    pg.locator(".olp button.rew").click()
    pg.wait_for_timeout(500)
    pg.locator(".olp select.speed").select_option("60")
    pg.locator(".olp button.play").click()
    pg.wait_for_timeout(1000)
    count = (
        f"() => {{ const d = {OLP}.dataset;"
        " return [+d.rendered, performance.now(), +d.fast, +d.slow]; }"
    )
    r0, t0, _, _ = pg.evaluate(count)
    pg.wait_for_timeout(int(1000 * seconds))
    r1, t1, fast, slow = pg.evaluate(count)
    pg.locator(".olp button.play").click()
    fps = (r1 - r0) / ((t1 - t0) / 1000)
    animate_fps = plotly_animate_rate(pg)
    # a parameter change in the session, as a lecturer makes it: Regenerate (a new seed;
    # every frame built and sent), from the click to the player's first frame of the new data
    regenerate = []
    pg.locator("[data-testid=stMain] [data-testid=stExpander] summary").first.click()  # Settings
    for _ in range(3):
        sig = player_state(pg)["sig"]
        start = time.perf_counter()
        pg.locator(".st-key-play-regenerate button").click()
        pg.wait_for_function(player_js("d.sig !== arg"), arg=sig, timeout=120_000)
        _wait_player(pg)
        regenerate.append(1000 * (time.perf_counter() - start))
        pg.wait_for_timeout(1000)
    # a parameter change on a warm server: new data (seed 1), every frame built and sent
    start = time.perf_counter()
    pg.goto(url + PLAYGROUND + "&seed=1")
    _wait_player(pg)
    new_data = time.perf_counter() - start
    return {
        "learners": 4,
        "n": 400,
        "first_render_s": round(first_render, 2),
        "player_ready_s": round(first, 2),
        "new_data_render_s": round(new_data, 2),
        "regenerate": _stats(regenerate),
        "play_frames_per_s": round(fps, 1),
        "play_seconds": seconds,
        "frames_drawn_fast_path": fast,
        "frames_drawn_by_plotly_animate": slow,
        "plotly_animate_frames_per_s": animate_fps,
        "step": _stats(steps),
        "slider": _stats(slider),
    }


class WireCounter:
    """A loopback TCP relay in a thread that counts the bytes the server sends on each
    connection, by the connection's first request line: how many bytes the websocket
    (``GET /_stcore/stream``) really carried, after any permessage-deflate.  A measuring
    tool for :func:`websocket_bytes`, not a server component."""

    def __init__(self, target_port: int):
        import asyncio
        import threading

        self.sent: dict[str, int] = {}
        self._loop = asyncio.new_event_loop()
        self._target = target_port
        ready = threading.Event()

        async def main():
            self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
            self.port = self._server.sockets[0].getsockname()[1]
            ready.set()
            await self._server.serve_forever()

        self._thread = threading.Thread(
            target=lambda: self._loop.run_until_complete(main()), daemon=True
        )
        self._thread.start()
        ready.wait(10)

    async def _relay(self, reader, writer):
        import asyncio

        up_r, up_w = await asyncio.open_connection("127.0.0.1", self._target)
        first = await reader.readline()
        kind = "websocket" if b"/_stcore/stream" in first else "http"
        up_w.write(first)

        async def pipe(src, dst, count):
            try:
                while data := await src.read(65536):
                    if count:
                        self.sent[kind] = self.sent.get(kind, 0) + len(data)
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pipe(reader, up_w, False), pipe(up_r, writer, True))

    def reset(self) -> None:
        self.sent.clear()

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)


def websocket_bytes(browser, url: str, path: str, ready=player_ready, wire=None) -> dict:
    """The bytes the server sends over the websocket for one visit of ``path`` in a new page,
    from the page load to the player's first frame on every chart and the script run ended
    (+1.5 s): the messages' payloads as the page receives them (Playwright's
    ``framereceived``), what permessage-deflate would make of them (zlib's raw deflate at its
    default level, the context kept across messages, one sync flush per message), and, when
    ``url`` is a :class:`WireCounter`'s (``wire``), the bytes the socket really carried."""
    import zlib

    sizes: list[int] = []
    deflate = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -zlib.MAX_WBITS)
    packed = [0]

    def received(payload):
        data = payload if isinstance(payload, bytes) else payload.encode()
        sizes.append(len(data))
        packed[0] += len(deflate.compress(data) + deflate.flush(zlib.Z_SYNC_FLUSH)) - 4

    pg = browser.new_page(viewport={"width": 1280, "height": 720})
    if wire is not None:
        wire.reset()
    try:
        pg.on("websocket", lambda ws: ws.on("framereceived", received))
        pg.goto(url + path)
        ready(pg)
        pg.wait_for_function(PAGE_DONE_JS)
        pg.wait_for_timeout(1500)
        out = {"messages": len(sizes), "kb": round(sum(sizes) / 1000, 1)}
        out["kb_deflated"] = round(packed[0] / 1000, 1)
        if wire is not None:
            out["kb_on_the_wire"] = round(wire.sent.get("websocket", 0) / 1000, 1)
        return out
    finally:
        pg.close()


def plotly_animate_rate(pg, frames: int = 40) -> float:
    """Frames per second when every chart of the player moves through plotly's public API
    alone: ``Plotly.animate(gd, [t], {mode: "immediate", frame: {duration: 0, redraw:
    false}, transition: {duration: 0}})`` on each chart, then the next paint, for t = 1..40
    (the frames the player added to plotly when it synced its data after a stop).  What the
    player's fast path (``plotly_svg.js``) is measured against."""
    pg.wait_for_timeout(1500)  # the player's data sync after the stop (adds the frames)
    return pg.evaluate(
        """async (n) => {
        const gds = [...document.querySelectorAll('.js-plotly-plot')]
          .filter((gd) => gd.closest('[class*="st-key-play-"]'));
        const opts = { mode: 'immediate', frame: { duration: 0, redraw: false },
          transition: { duration: 0 } };
        const t0 = performance.now();
        for (let t = 1; t <= n; t++) {
          await Promise.all(gds.map((gd) => Plotly.animate(gd, [String(t)], opts)));
          await new Promise((r) => requestAnimationFrame(() => r()));
        }
        return Math.round(10 * n / ((performance.now() - t0) / 1000)) / 10;
        }""",
        frames,
    )


SHOWN_H4 = (
    "[...document.querySelectorAll('[data-testid=stMain] h4')].find(e => e.offsetParent !== null)"
)


def _chart_meta(chart: str) -> str:
    """JS: the ``layout.meta`` of the chart with key ``chart`` (the step it shows)."""
    return f"document.querySelector('.st-key-{chart} .js-plotly-plot')?.layout?.meta"


def _next_times(pg, go, button: str, chart: str, repeat: int, after=None) -> dict:
    """Click ``button`` ``repeat`` times at a lecturer's pace (0.8 s between clicks): the ms
    from Python's click to the new step's title on screen, and to that title with the chart
    ``chart`` showing the new step (its ``layout.meta``) painted (the next animation frame).
    ``go()`` opens the page at its first step (again when Next is disabled, not timed);
    ``after()``, if given, is called after each move."""
    go()
    button = pg.locator(button)
    titles, painted, restarts = [], [], 0
    for _ in range(repeat):
        if button.is_disabled():  # the last step: back to the start (not timed)
            restarts += 1
            go()
        title = pg.evaluate(f"() => {SHOWN_H4}.innerText")
        meta = pg.evaluate(f"() => {_chart_meta(chart)}")
        start = time.perf_counter()
        button.click()
        pg.wait_for_function(
            f"t => {{ const h = {SHOWN_H4}; return h && h.innerText !== t; }}",
            arg=title,
            timeout=60_000,
        )
        titles.append(1000 * (time.perf_counter() - start))
        pg.wait_for_function(
            f"""m => new Promise((done) => {{ const check = () => {{
              const now = {_chart_meta(chart)};
              if (now && now !== m) requestAnimationFrame(() => done(true));
              else requestAnimationFrame(check); }}; check(); }})""",
            arg=meta,
            timeout=60_000,
        )
        painted.append(1000 * (time.perf_counter() - start))
        pg.wait_for_timeout(800)
        if after is not None:
            after()
    return {**_stats(titles), "with_figure": _stats(painted), "restarts": restarts}


def stepper_next(pg, url: str, path: str, chart: str, repeat: int) -> dict:
    """Next on a page stepped in the browser (:mod:`olearn.app.components.stepper`): from
    Python's click to the new step's title on screen and to its figure painted (end to end,
    Playwright's round trip included, :func:`_next_times`), and the page's own
    click-to-painted time."""

    def go():
        pg.goto(url + path)
        pg.locator(".ols .next").wait_for(timeout=120_000)
        pg.wait_for_timeout(2000)

    stepper = pg.locator(".ols").first
    page_ms = []
    moves = [0]

    def latency():  # the page's own click-to-painted time of each move (published on .ols)
        got = int(stepper.get_attribute("data-moves") or 0)
        if got > moves[0]:
            page_ms.append(float(stepper.get_attribute("data-latency")))
        moves[0] = got

    out = _next_times(pg, go, ".ols .next", chart, repeat, latency)
    return {**out, "page": _stats(page_ms) if page_ms else None}


def fragment_next(pg, url: str, path: str, chart: str, repeat: int) -> dict:
    """Next on the prototype (``benchmarks/fragment_stepper.py``: an ``st.fragment`` rerun per
    click), timed as :func:`stepper_next`."""

    def go():
        pg.goto(url + path)
        pg.locator(".st-key-fnext button").wait_for(timeout=120_000)
        pg.wait_for_timeout(2000)

    return _next_times(pg, go, ".st-key-fnext button", chart, repeat)


def python_build(repeat: int) -> dict:
    """Building every frame of the Playground (4 learners, n=400) in Python, uncached."""
    from olearn.teaching.stream import run_stream
    from olearn.viz.stream import curves_parts, planes_parts

    keys = ("perceptron", "pa", "spa", "arow")
    times_run, times_frames = [], []
    for _ in range(max(1, repeat // 5)):
        start = time.perf_counter()
        run = run_stream(keys, "blobs", 400, test_fraction=0.2)
        times_run.append(1000 * (time.perf_counter() - start))
        start = time.perf_counter()
        _, frames = planes_parts(run, "en", True, 520, 0)
        curves_parts(run, "en", 360, 0)
        json.dumps(frames)
        times_frames.append(1000 * (time.perf_counter() - start))
    return {"run_stream": _stats(times_run), "frames_and_json": _stats(times_frames)}


# the page's content is on screen and its script run has ended (the state Streamlit's frontend
# publishes on its root element for tests)
PAGE_DONE_JS = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  const title = main && main.querySelector('h1, h3, .olp, .ols');
  return !!title && !!document.querySelector(
    '[data-testid=stApp][data-test-script-state=notRunning]');
}"""
# a drawn plotly figure, also inside the player's and the stepper's components (Playwright's
# CSS selectors enter their shadow roots; document.querySelector does not)
FIGURE = "[data-testid=stMain] .js-plotly-plot .main-svg"
# every chart of the page drawn (and the player, where there is one, showing its first frame)
DRAWN_JS = (
    "() => [...document.querySelectorAll('[data-testid=stMain] [data-testid=stPlotlyChart]')]"
    ".every(c => c.querySelector('.main-svg'))"
    " && (!(" + OLP + ") || " + OLP + ".dataset.ready === 'true')"
)
COLD_MODES = ("none", "background", "warmup", "prepared")
# pages that draw no figure until asked (a button): timed to their content
NO_FIGURE = ("compare", "reproduce")


def _env(cache: str, mode: str) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    env.pop("NUMBA_DISABLE_JIT", None)
    env["OLEARN_WARMUP"] = "0" if mode == "none" else "1"
    return env


def warmed_cache(folder: str) -> float:
    """``olearn warmup`` into the empty ``folder``; its seconds."""
    start = time.perf_counter()
    warm = [sys.executable, "-m", "olearn", "warmup", "--no-progress"]
    subprocess.run(warm, cwd=ROOT, env=_env(folder, "warmup"), check=True, capture_output=True)
    return round(time.perf_counter() - start, 1)


def _olearn_app(env: dict, prepared: bool = False):
    """``olearn app`` (headless, loopback, a free port) once healthy (and with ``prepared``,
    once its console said the pages are prepared): ``(process, url)``."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "olearn", "app", "--server.headless", "true"]
    cmd += ["--server.port", str(port), "--server.address", "127.0.0.1"]
    console = subprocess.PIPE if prepared else subprocess.DEVNULL
    proc = subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=console, env=env, text=True
    )
    url = f"http://127.0.0.1:{port}"
    start = time.perf_counter()
    try:
        if prepared:  # the console's line (olearn.app.server.serve); the rest read and dropped
            for line in proc.stderr:
                if "pages prepared" in line:
                    break
            threading.Thread(target=proc.stderr.read, daemon=True).start()
        for _ in range(1200):
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                    proc.answered_s = time.perf_counter() - start  # (a note for the report)
                    return proc, url
            except OSError:
                time.sleep(0.1)
        raise TimeoutError("olearn app did not start")
    except BaseException:  # also a SIGTERM's SystemExit while waiting: no server left
        proc.terminate()
        proc.wait(timeout=30)
        raise


def _time_visit(pg, url: str, path: str, figure_expected: bool) -> tuple[float, float | None]:
    """(seconds to the content with the run ended, seconds to the first figure or None)."""
    start = time.perf_counter()
    pg.goto(url + path)
    figure = done = None
    deadline = start + 300
    while time.perf_counter() < deadline:
        now = time.perf_counter() - start
        if figure is None and pg.locator(FIGURE).count():
            figure = now
        if done is None and pg.evaluate(PAGE_DONE_JS):
            done = now
            # a rerun may follow (the legacy first request, a fragment): done means still
            # done 1 s later, with every chart drawn
            pg.wait_for_timeout(1000)
            if not (pg.evaluate(PAGE_DONE_JS) and pg.evaluate(DRAWN_JS)):
                done = None
        if done is not None and (figure is not None or not figure_expected):
            return done, figure
        pg.wait_for_timeout(50)
    raise TimeoutError(f"{path} did not finish in 300 s")


def cold_visit(path: str, mode: str, launch, warmed: str | None = None, how: str = "olearn"):
    """One page on a fresh server whose numba cache is empty (see the module docstring);
    for ``mode == "warmup"``, a copy of ``warmed``, the cache ``olearn warmup`` filled."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="olearn-numba-") as cache:
        if mode in ("warmup", "prepared"):
            shutil.copytree(warmed, cache, dirs_exist_ok=True)
        env = _env(cache, mode)
        if how == "olearn":
            proc, url = _olearn_app(env, prepared=mode == "prepared")
        else:
            proc, url = _server(env)
        try:
            browser, pg = launch()
            try:
                done, figure = _time_visit(pg, url, path, path.strip("/") not in NO_FIGURE)
            finally:
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return {
        "page_s": round(done, 2),
        "figure_s": None if figure is None else round(figure, 2),
        "server_s": round(proc.answered_s, 2) if hasattr(proc, "answered_s") else None,
    }


def _median_visit(runs: list[dict]) -> dict:
    """The median of ``runs`` (each key on its own), with every run's first-figure time."""
    out = {}
    for key in ("page_s", "figure_s", "server_s"):
        values = [r[key] for r in runs if r[key] is not None]
        out[key] = round(statistics.median(values), 2) if values else None
    out["runs"] = [r["figure_s"] if r["figure_s"] is not None else r["page_s"] for r in runs]
    return out


def cold(modes, pages, repeat: int = 1, how: str = "olearn") -> None:
    """The cold-start table: a row per page, a column per install (:data:`COLD_MODES`)."""
    import tempfile

    from playwright.sync_api import sync_playwright

    from olearn.app.frame import PAGES

    os.environ.setdefault("OLEARN_DATA", str(ROOT / "data"))
    # a SIGTERM runs the `finally`s below: no server and no cache folder left behind
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    load = os.getloadavg()[0]
    keys = [p.key for p in PAGES if not pages or p.key in pages]
    previous = RESULTS / "app_timing_cold.json"
    kept = json.loads(previous.read_text()) if pages and previous.exists() else {}
    rows = kept.get("pages", {})  # a subset re-measured: the other rows are kept
    warmed = tempfile.mkdtemp(prefix="olearn-numba-warmed-")
    warmed_needed = {"warmup", "prepared"} & set(modes)
    warmup_s = warmed_cache(warmed) if warmed_needed else kept.get("warmup_s")
    loads = []
    with sync_playwright() as p:

        def launch():
            browser = p.chromium.launch(
                executable_path=shutil.which("chromium"),
                args=["--no-sandbox", "--disable-dev-shm-usage"],
            )
            pg = browser.new_page(viewport={"width": 1280, "height": 720})
            return browser, pg

        try:
            for _ in range(repeat):  # rounds: a burst of load spreads over every cell
                for mode in modes:
                    for key in keys:
                        loads.append(os.getloadavg()[0])
                        got = cold_visit(f"/{key}", mode, launch, warmed, how)
                        rows.setdefault(key, {}).setdefault(mode, {}).setdefault("all", [])
                        rows[key][mode]["all"].append(got)
                        print(key, mode, got, flush=True)
        finally:
            shutil.rmtree(warmed, ignore_errors=True)
    for by_mode in rows.values():
        for mode, cell in by_mode.items():
            if "all" in cell:
                by_mode[mode] = _median_visit(cell.pop("all"))
    launched = "olearn app" if how == "olearn" else "streamlit run app.py"
    out = {
        "command": "python -m benchmarks.app_timing " + " ".join(sys.argv[1:]),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, load avg {load:.1f}"
        f" at the start, {min(loads):.1f}-{max(loads):.1f} during the run",
        "browser": "chromium (Debian) via Playwright, 1280x720",
        "server": launched,
        "repeat": repeat,
        "warmup_s": warmup_s,
        "pages": rows,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "app_timing_cold.json").write_text(json.dumps(out, indent=2) + "\n")

    cold_report(out)


def cold_report(out: dict) -> None:
    """``results/app_timing_cold.md`` from the JSON ``out`` (a column per install measured)."""
    rows = out["pages"]
    modes = [m for m in COLD_MODES if any(m in r for r in rows.values())]
    warmup_s = out.get("warmup_s")
    repeat = out.get("repeat", 1)

    def cell(r: dict | None) -> str:
        if r is None:
            return "-"
        first = r["page_s"] if r["figure_s"] is None else r["figure_s"]
        text = f"**{first} s**" if first <= 5 else f"{first} s"
        if r["figure_s"] is not None and r["page_s"] > r["figure_s"] + 0.5:
            text += f" (run ended {r['page_s']} s)"
        if len(r.get("runs", [])) > 1:
            text += " [" + ", ".join(f"{v}" for v in r["runs"]) + "]"
        return text

    import textwrap

    median = f"median of {repeat} fresh servers per cell, every run in brackets; " * (repeat > 1)
    intro = (
        f"`{out['command'].strip()}` on {out['machine']}; {out['browser']}; the server started"
        f" with `{out.get('server', 'streamlit run app.py')}` and the page opened as soon as it"
        f" answered.  Seconds from the page load to the page's first figure on screen ({median}"
        "bold: at most 5 s); compare and reproduce draw no figure until asked: timed to their"
        " content with the script run ended."
    )
    lines = [
        "# The app's cold start: first visit of each page, fresh server, empty numba cache",
        "",
        *textwrap.wrap(intro, 92, break_on_hyphens=False),
        "",
        "| page | " + " | ".join(f"`{m}`" for m in modes) + " |",
        "|---|" + "---|" * len(modes),
    ]
    for key, by_mode in rows.items():
        lines.append(f"| {key} | " + " | ".join(cell(by_mode.get(m)) for m in modes) + " |")
    answered = {
        m: [r[m]["server_s"] for r in rows.values() if r.get(m, {}).get("server_s") is not None]
        for m in modes
    }
    if any(answered.values()):
        lines += [
            "",
            "The server answered its health check (the page could be opened) after, median"
            " over the pages: "
            + ", ".join(f"`{m}` {statistics.median(v):.1f} s" for m, v in answered.items() if v)
            + " from its start.",
        ]
    if warmup_s is not None:
        lines += ["", f"`olearn warmup` into the empty cache took {warmup_s} s (once)."]
    (RESULTS / "app_timing_cold.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


def _save(stem: str, out: dict, lines: list[str]) -> None:
    """``results/<stem>.json`` (``out``) and ``results/<stem>.md`` (``lines``), printed."""
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{stem}.json").write_text(json.dumps(out, indent=2) + "\n")
    (RESULTS / f"{stem}.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


def _browser(p):
    """Debian's chromium and a 1280x720 page in it (2 min for any wait): ``(browser, page)``."""
    browser = p.chromium.launch(
        executable_path=shutil.which("chromium"),
        args=["--no-sandbox", "--disable-dev-shm-usage"],
    )
    pg = browser.new_page(viewport={"width": 1280, "height": 720})
    pg.set_default_timeout(120_000)
    return browser, pg


SPA_PATH, CW_PATH = "/spa?scenario=three-rivals&step=0", "/cw?rule=arow&t=1&present=1"


def stepper_designs(repeat: int, argv) -> None:
    """SPA Next and CW Next on the app's browser stepper and on the ``st.fragment`` prototype
    (``benchmarks/fragment_stepper.py``, a server of its own), one after the other in one
    run; writes ``results/app_timing_stepper.json`` / ``.md``."""
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("OLEARN_DATA", str(ROOT / "data"))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    load = os.getloadavg()
    rows = {}
    app, app_url = _server()
    try:
        proto, proto_url = _server(script="benchmarks/fragment_stepper.py")
        try:
            with sync_playwright() as p:
                browser, pg = _browser(p)
                for page, path, chart in (("SPA", SPA_PATH, "spa-fig"), ("CW", CW_PATH, "cw-fig")):
                    rows[f"{page} Next, browser stepper"] = stepper_next(
                        pg, app_url, path, chart, repeat
                    )
                    query = path.split("?")[1].split("&")[-1 if page == "SPA" else 1]
                    rows[f"{page} Next, st.fragment"] = fragment_next(
                        pg, proto_url, f"/?page={page.lower()}&{query}", chart, repeat
                    )
                browser.close()
        finally:
            proto.terminate()
            proto.wait(timeout=30)
    finally:
        app.terminate()
        app.wait(timeout=30)
    out = {
        "command": "python -m benchmarks.app_timing " + " ".join(argv or sys.argv[1:]),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores,"
        f" load avg {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}",
        "browser": "chromium (Debian) via Playwright, 1280x720",
        "rows": rows,
    }
    lines = [
        "# Stepping a walkthrough: the browser stepper against an st.fragment rerun",
        "",
        f"`{out['command'].strip()}` on {out['machine']}; {out['browser']}. End to end:",
        "Playwright's click to the new step's title on screen, and to the main figure showing",
        "the new step painted; a lecturer's pace (0.8 s between clicks).",
        "",
        "| design | to the title: median | p90 | to the figure: median | p90 | n |",
        "|---|---|---|---|---|---|",
    ]
    for name, r in rows.items():
        f = r["with_figure"]
        lines.append(
            f"| {name} | {r['median_ms']} ms | {r['p90_ms']} ms | {f['median_ms']} ms"
            f" | {f['p90_ms']} ms | {r['n']} |"
        )
    _save("app_timing_stepper", out, lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument(
        "--cold", action="store_true", help="the cold-start table instead (module docstring)"
    )
    parser.add_argument(
        "--modes", nargs="+", choices=COLD_MODES, default=list(COLD_MODES[:3]), help="--cold"
    )
    parser.add_argument("--pages", nargs="+", default=None, help="page keys (default: all)")
    parser.add_argument(
        "--cold-repeat", type=int, default=1, help="--cold: fresh servers per page and install"
    )
    parser.add_argument(
        "--launch",
        choices=("olearn", "streamlit"),
        default="olearn",
        help="--cold: start each server with `olearn app` (default) or `streamlit run app.py`",
    )
    parser.add_argument(
        "--stepper-fragment",
        action="store_true",
        help="the steppers only: the app's against the st.fragment prototype, same run",
    )
    args = parser.parse_args(argv)
    if args.cold:
        return cold(args.modes, args.pages, args.cold_repeat, args.launch)
    if args.stepper_fragment:
        return stepper_designs(args.repeat, argv)
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("OLEARN_DATA", str(ROOT / "data"))
    load = os.getloadavg()[0]
    proc, url = _server()
    try:
        with sync_playwright() as p:
            browser, pg = _browser(p)
            play = playground(pg, url, args.repeat, args.seconds)
            nxt = stepper_next(pg, url, SPA_PATH, "spa-fig", args.repeat)
            cw = stepper_next(pg, url, CW_PATH, "cw-fig", args.repeat)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    out = {
        "command": "python -m benchmarks.app_timing " + " ".join(argv or sys.argv[1:]),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, load avg {load:.1f}",
        "browser": "chromium (Debian) via Playwright, 1280x720",
        "playground": play,
        "spa_next": nxt,
        "cw_next": cw,
        "python": python_build(args.repeat),
    }
    lines = [
        "# App timing in the browser",
        "",
        f"`{out['command'].strip()}` on {out['machine']}; {out['browser']}.",
        "",
        "| measurement | median | p90 | n |",
        "|---|---|---|---|",
        f"| Playground Step (click to painted frame) | {play['step']['median_ms']} ms"
        f" | {play['step']['p90_ms']} ms | {play['step']['n']} |",
        f"| Playground slider move | {play['slider']['median_ms']} ms"
        f" | {play['slider']['p90_ms']} ms | {play['slider']['n']} |",
        f"| SPA Next (click to new title, end to end) | {nxt['median_ms']} ms"
        f" | {nxt['p90_ms']} ms | {nxt['n']} |",
        f"| SPA Next (in the page: click to painted) | {nxt['page']['median_ms']} ms"
        f" | {nxt['page']['p90_ms']} ms | {nxt['page']['n']} |",
        f"| CW Next update (click to new title, end to end) | {cw['median_ms']} ms"
        f" | {cw['p90_ms']} ms | {cw['n']} |",
        f"| CW Next update (in the page: click to painted) | {cw['page']['median_ms']} ms"
        f" | {cw['page']['p90_ms']} ms | {cw['page']['n']} |",
        "",
        f"- Playing (4 learners, n=400, 60 frames/s asked): **{play['play_frames_per_s']}"
        f" frames/s** over {play['play_seconds']} s; the same frames through plotly's public"
        f" `Plotly.animate` alone (immediate, no transition, no redraw):"
        f" {play['plotly_animate_frames_per_s']} frames/s",
        f"- First render of that Playground on a fresh server (page load to the player's"
        f" first frame): {play['first_render_s']} s; with new data on a warm server:"
        f" {play['new_data_render_s']} s (a new tab); Regenerate in the session (click to the"
        f" new data's first frame): median {play['regenerate']['median_ms']} ms",
        f"- Python, uncached: run_stream {out['python']['run_stream']['median_ms']} ms, frames"
        f" + JSON {out['python']['frames_and_json']['median_ms']} ms",
        "",
    ]
    _save("app_timing", out, lines)


if __name__ == "__main__":
    main()
