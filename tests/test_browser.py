"""End to end in a real browser: ``streamlit run app.py`` on a loopback port, driven by
Playwright with Debian's chromium (never a downloaded browser).

Steps the SPA page through an update and checks the rendered text of the support-class test,
visits every page (no exception, no traceback on screen), and saves screenshots under
``results/screenshots/``.  Marked ``browser``.
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

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "results" / "screenshots"
PAGES = ["", "playground", "spa", "cw", "cs_svm", "pcvm", "sgd", "compare", "reproduce"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 120.0) -> None:
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


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if shutil.which("chromium") is None:
        pytest.fail("Debian's chromium is required for the browser test (apt install chromium)")
    port = _free_port()
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
        _wait_healthy(url, proc)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)
        log.close()


@pytest.fixture(scope="module")
def page(server):
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=shutil.which("chromium"),
            args=["--no-sandbox", "--disable-dev-shm-usage"],
        )
        try:
            pg = browser.new_page(viewport={"width": 1400, "height": 2000})
            pg.set_default_timeout(90_000)
            yield pg
        finally:
            browser.close()


def _settle(pg, min_wait: float = 2.0, timeout: float = 120.0) -> None:
    """Wait until the app stops running and the number of charts and tables is stable."""
    start, last, same = time.time(), None, 0
    while time.time() - start < timeout:
        state = (
            pg.locator(".js-plotly-plot").count(),
            pg.locator("[data-testid='stDataFrame']").count(),
            pg.locator("[data-testid='stSpinner']").count(),
            pg.locator("[data-testid='stStatusWidget']").count()
            + pg.locator("[data-testid='stSkeleton']").count(),
        )
        same = same + 1 if state == last and state[2] == 0 and state[3] == 0 else 0
        last = state
        if same >= 2 and time.time() - start > min_wait:
            return
        time.sleep(0.5)


def _assert_no_error(pg) -> None:
    assert pg.locator("[data-testid='stException']").count() == 0
    body = pg.locator("[data-testid='stMain']").inner_text()
    assert "Traceback" not in body
    assert pg.locator("[data-testid='stAlertContentError']").count() == 0, body[:2000]


def test_spa_step_through_in_the_browser(server, page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    # a direct link to a sub-page is the fresh server's first request: the frame must hold
    page.goto(f"{server}/spa?scenario=three-rivals")
    page.get_by_text("One SPA update, step by step").wait_for()
    main = page.locator("[data-testid='stMain']")
    main.get_by_text("1. Scores").first.wait_for()
    _settle(page)
    assert page.locator("[data-testid='stSidebarNav']").count() == 1  # app.py's navigation
    page.screenshot(path=str(SHOTS / "spa-1-scores.png"), full_page=True)
    next_button = page.get_by_role("button", name="Next ▶")
    titles = [
        "2. Margins and loss",
        "3. Q values",
        "4. Sorted",
        "5.1 Support test, k = 1",
        "5.2 Support test, k = 2",
        "5.3 Support test, k = 3",
        "6. Threshold θ and the steps τ",
        "7. The update",
        "8. New scores",
    ]
    heading = main.locator("h4").first  # the sub-step card's title

    def step_to(title):
        next_button.click()
        page.wait_for_function(
            "t => [...document.querySelectorAll('[data-testid=stMain] h4')]"
            ".some(e => e.innerText.trim() === t)",
            arg=title,
            timeout=60_000,
        )

    for title in titles[:6]:
        step_to(title)
    _settle(page, min_wait=0.3)
    assert heading.inner_text().strip() == "5.3 Support test, k = 3"
    text = main.inner_text()
    assert "Class 2: Q_k = 0.375" in text
    assert "Threshold Σ_{j<3} Q_j / 3 = 0.5" in text
    assert "is not, and the search stops" in text
    page.screenshot(path=str(SHOTS / "spa-5.3-support-test.png"), full_page=True)
    for title in titles[6:]:  # tau -> update -> new scores
        step_to(title)
    _settle(page, min_wait=0.3)
    assert "Correctly classified: yes" in main.inner_text()
    _assert_no_error(page)
    page.screenshot(path=str(SHOTS / "spa-8-new-scores.png"), full_page=True)


@pytest.mark.parametrize("path", PAGES)
def test_every_page_renders_without_error(server, page, path):
    page.goto(f"{server}/{path}")
    page.locator("h1").first.wait_for()
    if path not in ("compare", "reproduce"):  # those two compute only on a button press
        page.locator(".js-plotly-plot").first.wait_for()
    _settle(page, min_wait=1.5)
    _assert_no_error(page)
    page.screenshot(path=str(SHOTS / f"page-{path or 'home'}.png"), full_page=True)


def test_language_switch_and_lesson_link(server, page):
    page.goto(f"{server}/spa?lang=ja&scenario=pa-failure&step=2")
    page.get_by_text("SPA の一回の更新をステップごとに").wait_for()
    _settle(page)
    assert "Q 値" in page.locator("[data-testid='stMain']").inner_text()
    page.screenshot(path=str(SHOTS / "spa-japanese.png"), full_page=True)
    page.goto(f"{server}/spa?scenario=pa-failure&step=2&hide=all")
    page.locator("h1").first.wait_for()
    _settle(page)
    assert page.locator("[data-testid='stSelectbox']").count() == 0
    assert "3. Q values" in page.locator("[data-testid='stMain']").inner_text()
    page.screenshot(path=str(SHOTS / "spa-lesson-link.png"), full_page=True)


def test_playground_click_places_a_point(server, page):
    """Click on the placement grid: a point of the chosen class joins the stream."""
    page.goto(f"{server}/playground?kind=placed&algos=spa")
    grid = page.locator(".js-plotly-plot").first
    grid.wait_for()
    _settle(page)
    slider_value = page.locator("[data-testid='stSliderThumbValue']").last
    assert slider_value.inner_text().strip() == "8"  # eight default points; t starts at 8
    box = grid.locator(".nsewdrag").first.bounding_box()
    fx, fy = (2 + 4.3) / 8.6, 1 - (-3 + 4.3) / 8.6  # data (2, -3) in the [-4.3, 4.3] axes
    page.mouse.click(box["x"] + fx * box["width"], box["y"] + fy * box["height"])
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=stSliderThumbValue]')]"
        ".some(e => e.innerText.trim() === '9')",
        timeout=60_000,
    )
    _settle(page)
    _assert_no_error(page)
    assert "/ 9 mistakes" in page.locator("[data-testid='stMain']").inner_text()
    page.screenshot(path=str(SHOTS / "playground-placed-points.png"), full_page=True)
