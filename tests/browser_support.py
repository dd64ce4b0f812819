"""Shared by the browser tests: a Streamlit server on a loopback port, a Playwright page in
Debian's chromium (never a downloaded browser), and the waits every page needs.

The fixtures ``server`` and ``page`` are registered in ``tests/conftest.py``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "results" / "screenshots"
SERVER_PIDS: dict[str, int] = {}  # base URL -> the streamlit process serving it

# every page of the app (its path and query after the server's URL), each with its figures
# drawn: a walk's step, a comparison run, a quick reproduction
EVERY_PAGE = {
    "home": "",
    "lesson": "lesson?step=1",
    "playground": "playground?algos=perceptron,pa,spa,arow&n=100",
    "spa": "spa?scenario=printed-II&rule=SPA-II&step=6",
    "cw": "cw?rule=arow",
    "cs_svm": "cs_svm",
    "pcvm": "pcvm",
    "sgd": "sgd",
    "compare": "compare?data=digits&algos=perceptron,pa1,spa1&folds=2&epochs=1&max=300&run=1",
    "reproduce": "reproduce?id=ono-sgd-figure1&mode=quick",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 120.0) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited early with code {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise TimeoutError(f"streamlit did not become healthy at {url}")


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """``streamlit run app.py``, one for the test process (each pytest-xdist worker has its
    own): the browser files a worker runs open their pages on it, one after the other, as
    visitors do (a server is started, and its first page drawn, once: 3-7 s, and each page's
    first draw on a new server costs it more).  A test that needs a server of its own, or its
    first request, starts one (tests/test_browser.py, tests/offline_support.py); yields its base
    URL."""
    if shutil.which("chromium") is None:
        pytest.fail("Debian's chromium is required for the browser test (apt install chromium)")
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    log = open(tmp_path_factory.mktemp("streamlit") / "server.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc)
        SERVER_PIDS[url] = proc.pid
        yield url
    finally:
        SERVER_PIDS.pop(url, None)
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)
        log.close()


def launch_chromium(playwright, *args: str):
    """Debian's chromium, headless, through a running sync Playwright (``args``: more of
    chromium's switches)."""
    if shutil.which("chromium") is None:
        pytest.fail("Debian's chromium is required for the browser test (apt install chromium)")
    return playwright.chromium.launch(
        executable_path=shutil.which("chromium"),
        args=["--no-sandbox", "--disable-dev-shm-usage", *args],
    )


@pytest.fixture(scope="module")
def page(server):
    """A chromium page (1400x2000 viewport) for the module."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = launch_chromium(p)
        try:
            pg = browser.new_page(viewport={"width": 1400, "height": 2000})
            pg.set_default_timeout(90_000)
            yield pg
        finally:
            browser.close()


# what settle() watches, in one round trip: charts, tables, anything still busy (a spinner,
# "Running", a skeleton, the app's loading skeleton, a connection notice), elements drawn
_SETTLE_STATE = """() => {
  const n = s => document.querySelectorAll(s).length;
  return [n('.js-plotly-plot'), n('[data-testid=stDataFrame]'),
          n('[data-testid=stSpinner]') + n('[data-testid=stStatusWidget]')
          + n('[data-testid=stSkeleton]') + n('[data-testid=stAppSkeleton]')
          + n('[data-testid=stConnectionStatus]'),
          n('[data-testid=stMain] [data-testid=stElementContainer]')];
}"""


def settle(pg, min_wait: float = 2.0, timeout: float = 120.0) -> None:
    """Wait until the page is connected and drawn (at least one element in the main area),
    nothing is busy, and the numbers of charts, tables and elements are stable for 1 s.

    A page still connecting shows nothing for a while (under load, seconds): without the
    "drawn" condition an empty page would count as settled."""
    start, last, same = time.time(), None, 0
    while time.time() - start < timeout:
        state = tuple(pg.evaluate(_SETTLE_STATE))
        idle = state[2] == 0 and state[3] > 0
        same = same + 1 if state == last and idle else 0
        last = state
        if same >= 2 and time.time() - start > min_wait:
            return
        time.sleep(0.5)


def still_box(pg, locator, timeout: float = 10.0) -> dict | None:
    """``locator``'s bounding box once it is the same on two reads 0.3 s apart (or the last
    one after ``timeout`` s): :func:`settle` watches what is drawn, not where, and a page
    under load may still be moving its blocks (fonts, formulas, figures sized late)."""
    last = locator.bounding_box()
    deadline = time.time() + timeout
    while time.time() < deadline:
        pg.wait_for_timeout(300)
        box = locator.bounding_box()
        if box == last:
            return box
        last = box
    return last


def assert_no_error(pg) -> None:
    assert pg.locator("[data-testid='stException']").count() == 0
    body = pg.locator("[data-testid='stMain']").inner_text()
    assert "Traceback" not in body
    assert pg.locator("[data-testid='stAlertContentError']").count() == 0, body[:2000]
