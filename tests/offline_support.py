"""The offline watch (issue 32, item 4: no request leaves the server), shared by the browser
files that use it: a :class:`RecordingProxy` that lists and refuses outgoing HTTP, a server
started as docs/hosting.md starts it with its outgoing HTTP through one (:func:`offline_server`),
chromium sending every request not for this machine to one (:func:`offline_browser`), and a context
listing every request a page makes to another host (:func:`watched`).

tests/test_browser_offline.py shows the watch can fail and that ``olearn app`` asks no one as
it starts; tests/test_browser_theme.py's walk opens every page in both languages under it.
"""

from __future__ import annotations

import os
import signal
import socketserver
import subprocess
import sys
import threading
import time
from urllib.parse import urlsplit

import pytest

from tests.browser_support import ROOT, free_port, launch_chromium, wait_healthy

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


def start(cmd: list[str], port: int, proxy: RecordingProxy, log_path):
    """Start ``cmd`` as docs/hosting.md does (every address, headless) on ``port``; the
    process and its log file, once it is healthy and has printed its banner."""
    cmd = [*cmd, "--server.address", "0.0.0.0", "--server.port", str(port)]
    cmd += ["--server.headless", "true"]
    log = open(log_path, "w")  # noqa: SIM115 - closed by stop
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
        stop(proc, log)
        raise
    return proc, log


def stop(proc: subprocess.Popen, log) -> None:
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
def offline_server(tmp_path_factory):
    """``streamlit run app.py`` from the clone, its outgoing HTTP through a recording proxy:
    ``(base URL, proxy)``."""
    port = free_port()
    log_path = tmp_path_factory.mktemp("offline") / "server.log"
    with RecordingProxy() as proxy:
        cmd = [sys.executable, "-m", "streamlit", "run", "app.py"]
        proc, log = start(cmd, port, proxy, log_path)
        try:
            yield f"http://127.0.0.1:{port}", proxy
        finally:
            stop(proc, log)


@pytest.fixture(scope="module")
def offline_browser():
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
        parts = urlsplit(req.url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.netloc != own:
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
