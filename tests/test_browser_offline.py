"""No request leaves the server (issue 32, item 4): every page, in English and Japanese, in
headless chromium where every request to a host other than the app's fails and is listed,
served by a server whose own outgoing HTTP goes to a local proxy that lists and refuses it.

A classroom without internet, or a school whose rules forbid requests to third parties, must
get the same app.  Two ways out are watched:

- the browser's: every request of the page's context (and every WebSocket) for another host
  or port than the app's is listed, and chromium sends every request not for this machine
  to a :class:`RecordingProxy` too, which refuses it (so the page gets nothing from
  outside, as in a classroom without internet).  The favicon used to come from
  fonts.gstatic.com (``page_icon=":material/timeline:"``, and the navigation's
  ``:material/home:`` on a new server's first page);
- the server's: ``HTTP_PROXY``/``HTTPS_PROXY`` point at :class:`RecordingProxy`.  Streamlit
  asked checkip.amazonaws.com for an "External URL" at every headless start on a wildcard
  address (the hosting guide's command) until ``browser.serverAddress`` was set.  Code that
  ignores the proxy variables would not be seen here.

Both servers are started as a user starts them: ``streamlit run app.py`` from the clone (the
repository's ``.streamlit/config.toml``) and ``olearn app`` (its launcher's settings), with
``--server.address 0.0.0.0 --server.headless true`` as docs/hosting.md says.  Marked
``browser``.
"""

from __future__ import annotations

import os
import re
import signal
import socketserver
import subprocess
import sys
import threading
import time
from urllib.parse import urlsplit

import pytest

from tests.browser_support import (
    EVERY_PAGE,
    ROOT,
    assert_no_error,
    free_port,
    launch_chromium,
    settle,
    wait_healthy,
)

pytestmark = pytest.mark.browser

LANGS = ("en", "ja")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")  # kana or kanji: the page is in Japanese
BANNER = "view your Streamlit app"  # Streamlit prints it once the start's work is done


class RecordingProxy(socketserver.ThreadingTCPServer):
    """An HTTP proxy on a loopback port that forwards nothing: each request's first line
    (``GET http://host/...`` or ``CONNECT host:443``) is kept in :attr:`seen`, and answered
    403."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        self.seen: list[str] = []
        super().__init__(("127.0.0.1", 0), _ProxyHandler)
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def env(self) -> dict[str, str]:
        """The environment of a server whose outgoing HTTP(S) goes through this proxy."""
        names = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        for name in names:
            env[name] = env[name.lower()] = self.url
        env["NO_PROXY"] = env["no_proxy"] = "localhost,127.0.0.1,::1"  # the app itself
        return env

    def __enter__(self) -> RecordingProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.shutdown()
        self.server_close()
        self._thread.join(timeout=10)


class _ProxyHandler(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        line = self.rfile.readline(8192).decode("latin-1").strip()
        if line:
            self.server.seen.append(line)
        self.wfile.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")


def _start(cmd: list[str], port: int, proxy: RecordingProxy, log_path):
    """Start ``cmd`` as docs/hosting.md does (every address, headless) on ``port``; the
    process and its log file, once it is healthy and has printed its banner."""
    cmd = [*cmd, "--server.address", "0.0.0.0", "--server.port", str(port)]
    cmd += ["--server.headless", "true"]
    log = open(log_path, "w")  # noqa: SIM115 - closed by _stop
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=proxy.env(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc)
        deadline = time.time() + 60
        while BANNER not in log_path.read_text() and time.time() < deadline:
            time.sleep(0.2)
        assert BANNER in log_path.read_text(), log_path.read_text()[-2000:]
    except BaseException:
        _stop(proc, log)
        raise
    return proc, log


def _stop(proc: subprocess.Popen, log) -> None:
    try:  # the whole process group: a launcher's server too
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    except ProcessLookupError:
        proc.wait(timeout=30)
    finally:
        log.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``streamlit run app.py`` from the clone, its outgoing HTTP through a recording proxy:
    ``(base URL, proxy)``."""
    port = free_port()
    log_path = tmp_path_factory.mktemp("offline") / "server.log"
    with RecordingProxy() as proxy:
        cmd = [sys.executable, "-m", "streamlit", "run", "app.py"]
        proc, log = _start(cmd, port, proxy, log_path)
        try:
            yield f"http://127.0.0.1:{port}", proxy
        finally:
            _stop(proc, log)


@pytest.fixture(scope="module")
def browser():
    """Chromium whose requests to any host but this machine go to a recording proxy, which
    refuses them (chromium sends the loopback's past a proxy): ``(browser, proxy)``.  The
    proxy also gets chromium's own calls (its updater, its account and autofill services),
    which no page makes: what a page asks is listed by :func:`watched`.  (Not Playwright's
    routing, which turns the HTTP cache off: the pages' walk took twice as long.)"""
    sync_api = pytest.importorskip("playwright.sync_api")
    with RecordingProxy() as proxy, sync_api.sync_playwright() as p:
        chromium = launch_chromium(p, f"--proxy-server={proxy.url}")
        try:
            yield chromium, proxy
        finally:
            chromium.close()


def watched(browser, own: str, where: list[str]):
    """A context of ``browser`` whose every request (and WebSocket) for a host or port other
    than ``own`` is listed in the returned list as ``"<where[0]>: <request>"``: ``(context,
    page, list)``.  (Listening, not routing: the HTTP cache stays on.)"""
    outside: list[str] = []

    def request(req) -> None:
        if urlsplit(req.url).scheme in ("http", "https", "ws", "wss"):
            if urlsplit(req.url).netloc != own:
                outside.append(f"{where[0]}: {req.method} {req.url}")

    def websocket(ws) -> None:
        if urlsplit(ws.url).netloc != own:
            outside.append(f"{where[0]}: WebSocket {ws.url}")

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.on("request", request)
    pg = context.new_page()
    pg.set_default_timeout(120_000)
    pg.on("websocket", websocket)
    return context, pg, outside


def test_no_page_asks_another_host(served, browser):
    """Every page in both languages, one after the other, from a new server (its first
    request included): no request for another host, from the browser or the server."""
    url, proxy = served
    chromium, _ = browser
    where = ["(start)"]
    context, pg, outside = watched(chromium, urlsplit(url).netloc, where)
    try:
        for lang in LANGS:
            for name, path in EVERY_PAGE.items():
                where[0] = f"{name} ({lang})"
                sep = "&" if "?" in path else "?"
                pg.goto(f"{url}/{path}{sep}lang={lang}")
                pg.locator(".js-plotly-plot").first.wait_for()
                settle(pg, min_wait=0.5)  # (a plot is drawn: the new page is there)
                assert_no_error(pg)
                text = pg.locator("[data-testid=stMain]").inner_text()
                assert bool(JAPANESE.search(text)) == (lang == "ja"), where[0]
    finally:
        context.close()
    assert not outside, "requests to other hosts:\n" + "\n".join(outside)
    assert not proxy.seen, "the server's requests to other hosts:\n" + "\n".join(proxy.seen)


def test_the_watch_sees_and_refuses_a_request_to_another_host(served, browser):
    """The check can fail: a page of the app that asks for a font from fonts.gstatic.com
    (what the favicon once did), a page from another port of this machine and an
    ``http://`` address is seen asking, and every one of them is refused."""
    url, _ = served
    chromium, browser_proxy = browser
    asked = len(browser_proxy.seen)
    context, pg, outside = watched(chromium, urlsplit(url).netloc, ["home"])
    try:
        pg.goto(f"{url}/?lang=en")
        pg.locator("[data-testid=stMain] [data-testid=stElementContainer]:visible").first.wait_for()
        other = f"http://127.0.0.1:{free_port()}/x"  # (a free port: nothing answers)
        answers = pg.evaluate(
            """async (urls) => Promise.all(urls.map((u) => fetch(u, {mode: 'no-cors'})
                 .then((r) => r.status, () => 'failed')))""",
            ["https://fonts.gstatic.com/s/i/x.woff2", "http://example.com/x", other],
        )
    finally:
        context.close()
    # (the proxy answers 403, which a no-cors fetch sees as an opaque status 0; the https
    # tunnel it refuses, and nothing listens on the other port: both fail)
    assert answers == ["failed", 0, "failed"], answers
    assert [line.split(": ", 1)[1] for line in outside] == [
        "GET https://fonts.gstatic.com/s/i/x.woff2",
        "GET http://example.com/x",
        f"GET {other}",
    ]
    refused = browser_proxy.seen[asked:]  # (chromium's own calls may come between)
    assert "CONNECT fonts.gstatic.com:443 HTTP/1.1" in refused, refused
    assert "GET http://example.com/x HTTP/1.1" in refused, refused


def test_olearn_app_asks_no_one_as_it_starts(tmp_path):
    """``olearn app`` as docs/hosting.md starts it: no outgoing request from its start to its
    banner (the launcher's settings, not the clone's config.toml), and the console still
    names the link students open (Streamlit's banner names ``browser.serverAddress`` only)."""
    from olearn.app.server.serve import network_address

    port = free_port()
    with RecordingProxy() as proxy:
        cmd = [sys.executable, "-m", "olearn", "app"]
        proc, log = _start(cmd, port, proxy, tmp_path / "server.log")
        _stop(proc, log)
    assert not proxy.seen, "requests to other hosts:\n" + "\n".join(proxy.seen)
    console = (tmp_path / "server.log").read_text()
    assert "External URL" not in console
    ip = network_address()
    if ip is not None:  # a machine on a network
        assert f"students on this network open http://{ip}:{port}" in console, console
