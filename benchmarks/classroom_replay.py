"""The classroom benchmark's machinery: what one real chromium sends to open a page, captured
with Playwright, replayed by many light websocket clients; and the server's cost from /proc.

- :func:`capture`: one visit in Debian's chromium; records the HTTP requests before and after
  the websocket opened and every frame the page sent on it (Streamlit's BackMsgs), and how
  many runs (``script_finished``) it had received when it sent each.  Captured at the start of
  each run, so the replay follows Streamlit's protocol as it changes.
- :func:`arrive`: one student: the page and its static files (gzip accepted, the cookies the
  server sets sent back), then the websocket with the captured frames (each sent once as many
  runs have finished as when the browser sent it), until the first figure and the end of the
  run.  Timed from the arrival; bytes counted as received on the wire.
- :func:`browser_arrival`: the real browser among them (Playwright's async API).
- :func:`cpu_seconds`, :func:`rss_mib`: every process of a server (its whole process tree,
  proxy included), from ``/proc``.
"""

from __future__ import annotations

import asyncio
import http.client
import os
import shutil
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

FIGURE = "plotly_chart"  # the element type whose first arrival is "the first figure"
BROWSER_ARGS = ["--no-sandbox", "--disable-dev-shm-usage"]
FIGURE_SELECTOR = "[data-testid=stMain] .js-plotly-plot"


@dataclass
class Capture:
    """What chromium did to open ``url``."""

    url: str
    before: list[str]  # same-origin paths fetched before the websocket opened (page first)
    after: list[str]  # ... and after it (chunks loaded lazily, e.g. plotly's)
    frames: list[tuple[int, bytes]]  # (runs finished when sent, BackMsg bytes)
    runs: int  # runs finished when the capture ended
    seconds: float  # the browser's own time to its first figure


@dataclass
class Arrival:
    """One student's arrival: times from its start (s), bytes received, what went wrong."""

    first_figure: float | None = None
    done: float | None = None
    static_bytes: int = 0
    ws_bytes: int = 0
    errors: list[str] = field(default_factory=list)
    # X-Olearn-Upstream seen (through the proxy, with OLEARN_UPSTREAM_HEADER=1)
    upstreams: set[str] = field(default_factory=set)
    encodings: dict[str, str] = field(default_factory=dict)  # path -> Content-Encoding
    figure_spec: str = ""  # the first figure's JSON spec (to tell sessions apart)


def _kept(url: str, origin: str) -> str | None:
    """The path (with query) of a same-origin request the replay repeats, else None."""
    parts = urllib.parse.urlsplit(url)
    if f"{parts.scheme}://{parts.netloc}" != origin or parts.scheme not in ("http", "https"):
        return None
    if parts.path.endswith("/_stcore/stream") or "/media/" in parts.path:
        return None  # the websocket itself; media files are the session's own
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _message_kinds(payload: bytes) -> tuple[str, str]:
    """(ForwardMsg type, element type) of a message the server sent."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    msg = ForwardMsg()
    msg.ParseFromString(payload)
    kind = msg.WhichOneof("type") or ""
    if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
        return kind, msg.delta.new_element.WhichOneof("type") or ""
    return kind, ""


def capture(url: str, timeout: float = 180.0, settle: float = 2.0) -> Capture:
    """Open ``url`` in Debian's chromium and record what it sent (see :class:`Capture`)."""
    from playwright.sync_api import sync_playwright

    origin = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(url))
    requests: list[tuple[float, str]] = []
    frames: list[tuple[int, bytes]] = []
    runs = [0]
    opened = [float("inf")]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=BROWSER_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.on("request", lambda r: requests.append((time.perf_counter(), r.url)))

            def on_ws(ws) -> None:
                if not ws.url.endswith("/_stcore/stream"):
                    return
                opened[0] = time.perf_counter()

                def sent(payload) -> None:
                    if isinstance(payload, bytes):
                        frames.append((runs[0], payload))

                def received(payload) -> None:
                    if isinstance(payload, bytes) and _message_kinds(payload)[0] == (
                        "script_finished"
                    ):
                        runs[0] += 1

                ws.on("framesent", sent)
                ws.on("framereceived", received)

            page.on("websocket", on_ws)
            start = time.perf_counter()
            page.goto(url)
            page.wait_for_selector(FIGURE_SELECTOR, timeout=timeout * 1000)
            seconds = time.perf_counter() - start
            page.wait_for_timeout(settle * 1000)
        finally:
            browser.close()
    before = [k for t, u in requests if t < opened[0] and (k := _kept(u, origin))]
    after = [k for t, u in requests if t >= opened[0] and (k := _kept(u, origin))]
    if not frames:
        raise RuntimeError(f"chromium sent nothing on the websocket of {url}")
    return Capture(url, before, after, frames, max(runs[0], 1), seconds)


def with_query(frame: bytes, query: str) -> bytes:
    """A captured ``rerun_script`` BackMsg with another query string (e.g. another seed)."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    msg = BackMsg()
    msg.ParseFromString(frame)
    if msg.WhichOneof("type") != "rerun_script":
        return frame
    msg.rerun_script.query_string = query
    return msg.SerializeToString()


class _Jar:
    """The cookies a server sets, sent back on every later request (name=value only)."""

    def __init__(self, preset: dict[str, str] | None = None):
        self.values = dict(preset or {})

    def take(self, headers) -> None:
        for value in headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.values[name.strip()] = rest.split(";", 1)[0]

    def header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.values.items())


def _fetch(origin: str, paths: list[str], jar: _Jar, out: Arrival) -> None:
    """GET ``paths`` in turn on one keep-alive connection (run in a thread)."""
    parts = urllib.parse.urlsplit(origin)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=300)
    try:
        for path in paths:
            headers = {"Accept-Encoding": "gzip, deflate, br", "Cookie": jar.header()}
            conn.request("GET", path, headers=headers)
            resp = conn.getresponse()
            body = resp.read()  # as sent: a compressed body stays compressed
            jar.take(resp.headers)
            out.static_bytes += len(body) + sum(
                len(k) + len(v) + 4 for k, v in resp.headers.items()
            )
            out.encodings[path] = resp.headers.get("Content-Encoding", "")
            if upstream := resp.headers.get("X-Olearn-Upstream"):
                out.upstreams.add(upstream)
            if resp.status >= 500:  # the browser too gets 404 for its probes under a page
                out.errors.append(f"GET {path}: HTTP {resp.status}")
            if resp.headers.get("Connection", "").lower() == "close":
                conn.close()
    finally:
        conn.close()


async def arrive(
    cap: Capture,
    *,
    delay: float = 0.0,
    query: str | None = None,
    cookies: dict[str, str] | None = None,
    timeout: float = 300.0,
) -> Arrival:
    """One student arriving ``delay`` seconds after the wave starts (see the module)."""
    from websockets.asyncio.client import ClientConnection, connect

    await asyncio.sleep(delay)
    out = Arrival()
    origin = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(cap.url))
    jar = _Jar(cookies)
    start = time.perf_counter()

    class Counting(ClientConnection):
        def data_received(self, data: bytes) -> None:
            out.ws_bytes += len(data)
            super().data_received(data)

    frames = [(n, with_query(f, query) if query is not None else f) for n, f in cap.frames]
    try:
        await asyncio.to_thread(_fetch, origin, cap.before, jar, out)
        ws_url = origin.replace("http", "ws", 1) + "/_stcore/stream"
        headers = {"Origin": origin, "Cookie": jar.header()}
        async with asyncio.timeout(timeout):
            async with connect(
                ws_url,
                subprotocols=["streamlit"],
                additional_headers=headers,
                create_connection=Counting,
                max_size=None,
                open_timeout=120,  # a swamped server accepts late: slow, not an error
            ) as ws:
                if upstream := ws.response.headers.get("X-Olearn-Upstream"):
                    out.upstreams.add(upstream)
                runs = 0  # runs ended (successfully or not) so far
                finished_after_last_send = False
                pending = list(frames)
                while pending and pending[0][0] <= runs:
                    await ws.send(pending.pop(0)[1])
                while pending or not finished_after_last_send or out.first_figure is None:
                    payload = await ws.recv()
                    kind, element = _message_kinds(payload)
                    if element == FIGURE and out.first_figure is None:
                        out.first_figure = time.perf_counter() - start
                        out.figure_spec = _spec(payload)
                    elif element == "exception":
                        out.errors.append("an exception element")
                    elif kind == "script_finished":
                        runs += 1
                        finished_after_last_send = _run_ended(payload)
                        while pending and pending[0][0] <= runs:
                            await ws.send(pending.pop(0)[1])
                            finished_after_last_send = False
                        if not pending and finished_after_last_send and out.first_figure is None:
                            out.errors.append("the run ended without a figure")
                            break
                out.done = time.perf_counter() - start
                await asyncio.to_thread(_fetch, origin, cap.after, jar, out)
                await _wait_hold()
    except Exception as exc:  # noqa: BLE001 - every failure is a reported error
        out.errors.append(f"{type(exc).__name__}: {exc}")
    return out


_hold: asyncio.Event | None = None  # set by a wave: sessions stay open until it is set
_ready: list[int] = []  # one entry per student whose first run has finished (in a wave)


async def _wait_hold() -> None:
    """Keep the session open (its memory is measured) until the wave ends."""
    if _hold is not None:
        _ready.append(1)
        await _hold.wait()


def _run_ended(payload: bytes) -> bool:
    """A ``script_finished`` that ends a whole run (not one cut short for a rerun, nor a
    fragment's)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    msg = ForwardMsg()
    msg.ParseFromString(payload)
    return msg.script_finished in (
        ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY,
        ForwardMsg.ScriptFinishedStatus.FINISHED_WITH_COMPILE_ERROR,
    )


def _spec(payload: bytes) -> str:
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    msg = ForwardMsg()
    msg.ParseFromString(payload)
    chart = msg.delta.new_element.plotly_chart
    return chart.spec


async def browser_arrival(url: str, *, delay: float, timeout: float = 300.0) -> Arrival:
    """The real chromium among the students: page load to the first figure on screen."""
    from playwright.async_api import async_playwright

    out = Arrival()
    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=shutil.which("chromium"), args=BROWSER_ARGS
        )
        try:
            page = await browser.new_page(viewport={"width": 1280, "height": 900})
            await asyncio.sleep(delay)
            start = time.perf_counter()
            await page.goto(url)
            await page.wait_for_selector(FIGURE_SELECTOR, timeout=timeout * 1000)
            out.first_figure = time.perf_counter() - start
            if await page.locator("[data-testid='stException']").count():
                out.errors.append("an exception on screen (browser)")
            await _wait_hold()
        except Exception as exc:  # noqa: BLE001
            out.errors.append(f"browser: {type(exc).__name__}: {exc}")
        finally:
            await browser.close()
    return out


async def wave(
    cap: Capture,
    n: int,
    *,
    spread: float = 2.0,
    browser: bool = True,
    queries: list[str] | None = None,
    measure=None,
) -> tuple[list[Arrival], Arrival | None, object]:
    """``n`` students arriving evenly within ``spread`` seconds (one of them, in the middle,
    a real browser when ``browser``); ``measure()`` is called once all have their first run
    while every session is still open.  Returns (replayed arrivals, the browser's, measure's
    result)."""
    global _hold
    _hold = asyncio.Event()
    _ready.clear()
    slots = [spread * i / n for i in range(n)]
    middle = n // 2 if browser else -1
    tasks = [
        asyncio.create_task(
            arrive(cap, delay=t, query=queries[i] if queries else None)
            if i != middle
            else browser_arrival(cap.url, delay=t)
        )
        for i, t in enumerate(slots)
    ]
    try:
        while sum(t.done() for t in tasks) + len(_ready) < n:
            await asyncio.sleep(0.1)
        measured = measure() if measure is not None else None
    finally:
        _hold.set()
        results = await asyncio.gather(*tasks)
        _hold = None
    found_browser = results[middle] if browser else None
    return [r for i, r in enumerate(results) if i != middle], found_browser, measured


# --- the server's processes, from /proc ---------------------------------------------------


def process_tree(root: int) -> list[int]:
    """``root`` and every process descended from it (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of ``pids`` so far (those gone count 0)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def rss_mib(pids: list[int]) -> float:
    """Resident memory of ``pids`` together, in MiB."""
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def wait_idle(pids: list[int], *, below: float = 0.05, timeout: float = 90.0) -> float:
    """Wait until ``pids`` use less than ``below`` of a core over 1 s (background work such
    as a kernel warm-up has ended); returns the seconds waited."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        before = cpu_seconds(pids)
        time.sleep(1.0)
        if cpu_seconds(pids) - before < below:
            break
    return time.monotonic() - start
