"""End to end in a real browser: ``streamlit run app.py`` on a loopback port, driven by
Playwright with Debian's chromium (never a downloaded browser).

Steps the SPA page through an update and checks the rendered text of the support-class test,
visits every page (no exception, no traceback on screen), and saves screenshots under
``results/screenshots/``.  Marked ``browser``.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.browser_support import SHOTS, assert_no_error, free_port, settle, wait_healthy

pytestmark = pytest.mark.browser

PAGES = ["", "playground", "spa", "cw", "cs_svm", "pcvm", "sgd", "compare", "reproduce"]


def test_spa_step_through_in_the_browser(server, page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    # a direct link to a sub-page is the fresh server's first request: the frame must hold
    page.goto(f"{server}/spa?scenario=three-rivals")
    page.get_by_text("One SPA update, step by step").wait_for()
    main = page.locator("[data-testid='stMain']")
    main.get_by_text("1. Scores").first.wait_for()
    settle(page)
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
    settle(page, min_wait=0.3)
    assert heading.inner_text().strip() == "5.3 Support test, k = 3"
    text = main.inner_text()
    assert "Class 2 is number k = 3 in the order: Q_k = 0.375" in text
    assert "the threshold is 0.5" in text
    assert "is not, and the search stops" in text
    page.screenshot(path=str(SHOTS / "spa-5.3-support-test.png"), full_page=True)
    for title in titles[6:]:  # tau -> update -> new scores
        step_to(title)
    settle(page, min_wait=0.3)
    assert "Correctly classified: yes" in main.inner_text()
    assert_no_error(page)
    page.screenshot(path=str(SHOTS / "spa-8-new-scores.png"), full_page=True)


@pytest.mark.parametrize("path", PAGES)
def test_every_page_renders_without_error(server, page, path):
    page.goto(f"{server}/{path}")
    page.locator("h1").first.wait_for()
    if path not in ("compare", "reproduce"):  # those two compute only on a button press
        page.locator(".js-plotly-plot").first.wait_for()
    settle(page, min_wait=1.5)
    assert_no_error(page)
    page.screenshot(path=str(SHOTS / f"page-{path or 'home'}.png"), full_page=True)


def test_language_switch_and_lesson_link(server, page):
    page.goto(f"{server}/spa?lang=ja&scenario=pa-failure&step=2")
    page.get_by_text("SPA の一回の更新をステップごとに").wait_for()
    settle(page)
    assert "Q 値" in page.locator("[data-testid='stMain']").inner_text()
    page.screenshot(path=str(SHOTS / "spa-japanese.png"), full_page=True)
    page.goto(f"{server}/spa?scenario=pa-failure&step=2&hide=all")
    page.get_by_text("3. Q values").first.wait_for()  # presentation mode: no page title
    settle(page)
    assert page.locator("[data-testid='stSelectbox']").count() == 0
    assert "3. Q values" in page.locator("[data-testid='stMain']").inner_text()
    page.screenshot(path=str(SHOTS / "spa-lesson-link.png"), full_page=True)


def test_playground_click_places_a_point(server, page):
    """Click on the placement grid: a point of the chosen class joins the stream."""
    page.goto(f"{server}/playground?kind=placed&algos=spa")
    grid = page.locator(".js-plotly-plot").first
    grid.wait_for()
    settle(page)
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
    settle(page)
    assert_no_error(page)
    assert "/ 9 mistakes" in page.locator("[data-testid='stMain']").inner_text()
    page.screenshot(path=str(SHOTS / "playground-placed-points.png"), full_page=True)


def test_deep_link_is_right_on_a_fresh_servers_first_request(tmp_path, page):
    """``olearn app`` (the installed entry script) on a new port; the very first request is a
    deep link to a sub-page: the frame's navigation and language switch must be there, and
    the page must be the one asked for (Streamlit's legacy ``pages/`` mode would run the page
    file alone)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "olearn", "app", "--server.headless", "true"]
    cmd += ["--server.port", str(port), "--server.address", "127.0.0.1"]
    with open(tmp_path / "server.log", "w") as log:
        proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_healthy(url, proc)
            pg = page.context.new_page()  # the module's browser, a tab of its own
            pg.set_viewport_size({"width": 1280, "height": 720})
            pg.goto(f"{url}/cw?lang=ja")
            pg.locator("h1").first.wait_for(timeout=90_000)
            settle(pg)
            assert pg.locator("[data-testid='stSidebarNav']").count() == 1
            assert "信頼度重み付き" in pg.locator("h1").first.inner_text()
            assert_no_error(pg)
            pg.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
