"""End to end in a real browser: ``streamlit run app.py`` on a loopback port, driven by
Playwright with Debian's chromium (never a downloaded browser).

Steps the SPA page through an update and checks the rendered text of the support-class test,
visits every page (no exception, no traceback on screen), and saves screenshots under
``results/screenshots/``.  Marked ``browser``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from olearn.teaching.strings import t
from olearn.viz.palette import CLASS_COLORS
from tests.browser_support import ROOT, SHOTS, assert_no_error, free_port, settle, wait_healthy

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
    heading = main.locator("h4:visible").first  # the shown sub-step's title

    def step_to(title):
        next_button.click()
        page.wait_for_function(
            "t => [...document.querySelectorAll('[data-testid=stMain] h4')]"
            ".some(e => e.offsetParent !== null && e.innerText.trim() === t)",
            arg=title,
            timeout=60_000,
        )

    sent: list = []  # websocket messages to the server while stepping: none until a stop
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    before = len(sent)
    for title in titles[:6]:
        step_to(title)
    assert len(sent) == before, "a Next must not wait for the server"
    page.wait_for_function("() => new URL(location.href).searchParams.get('step') === '6'")
    settle(page, min_wait=0.3)
    assert heading.inner_text().strip() == "5.3 Support test, k = 3"
    prev = page.get_by_role("button", name="◀ Previous")
    assert prev.is_enabled()
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


from tests.player_support import player_js, player_ready, player_state  # noqa: E402


def url_t(pg) -> str | None:
    """The ``t`` in the address bar (``location.href``: Streamlit uses replaceState)."""
    return pg.evaluate("() => new URL(location.href).searchParams.get('t')")


def test_playground_click_places_a_point(server, page):
    """Click on the placement grid: a point of the chosen class joins the stream."""
    page.goto(f"{server}/playground?kind=placed&algos=spa")
    grid = page.locator(".js-plotly-plot").first
    grid.wait_for()
    player_ready(page)
    settle(page)
    tval = page.locator(".olp .tval")
    assert tval.inner_text().strip() == "t = 8 / 8"  # eight default points, all learnt
    # each class button shows that class's colour in the figures; Delete shows none
    swatches = page.evaluate(
        """() => [...document.querySelectorAll('.st-key-play-place_class button p')]
        .map(p => getComputedStyle(p, '::before'))
        .map(b => b.content === 'none' ? null : b.backgroundColor)"""
    )
    rgb = [f"rgb({int(c[1:3], 16)}, {int(c[3:5], 16)}, {int(c[5:7], 16)})" for c in CLASS_COLORS]
    assert swatches == [*rgb[:6], None]
    box = grid.locator(".nsewdrag").first.bounding_box()
    fx, fy = (2 + 4.3) / 8.6, 1 - (-3 + 4.3) / 8.6  # data (2, -3) in the [-4.3, 4.3] axes
    page.mouse.click(box["x"] + fx * box["width"], box["y"] + fy * box["height"])
    page.wait_for_function(
        player_js("d.n === '9' && d.t === '9'"),
        timeout=60_000,
    )
    settle(page)
    assert_no_error(page)
    assert "t = 9 / 9" in tval.inner_text()
    page.screenshot(path=str(SHOTS / "playground-placed-points.png"), full_page=True)


@pytest.fixture
def projector(page):
    """A 1280x720 page (a projector) in a new browser context: its own session and storage."""
    context = page.context.browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        pg = context.new_page()
        pg.set_default_timeout(90_000)
        yield pg
    finally:
        context.close()


def inside_viewport(pg, selector: str) -> dict:
    box = pg.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


@pytest.mark.parametrize(
    ("lang", "mode", "shot"),
    [
        ("en", "present=1", "present-playground.png"),
        ("ja", "present=1", "present-playground-ja.png"),
        ("en", "hide=all", "lesson-playground-hide-all.png"),
    ],
)
def test_playground_presentation_fits_1280x720(server, projector, lang, mode, shot):
    """Presentation mode (and a lesson's hide=all view) at 1280x720: the planes, the player
    with the step's text and the curves are all on screen without scrolling."""
    pg = projector
    pg.goto(f"{server}/playground?{mode}&lang={lang}&algos=perceptron,pa,spa,arow&n=400&t=120")
    player_ready(pg)
    settle(pg, min_wait=1.0)
    assert_no_error(pg)
    assert pg.evaluate("() => document.scrollingElement.scrollHeight") <= 720
    for selector in (".st-key-play-planes", ".st-key-play-curves", ".olp .note", ".olp .bar"):
        box = inside_viewport(pg, selector)
        assert box["y"] >= 0 and box["y"] + box["height"] <= 720, (selector, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= 1280, (selector, box)
    assert "t = 120 / 400" in pg.locator(".olp .note").inner_text()
    assert pg.locator("[data-testid='stSidebar'][aria-expanded='true']").count() == 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SHOTS / shot))


def test_playground_plays_client_side_and_the_url_keeps_the_shown_t(server, projector):
    pg = projector
    pg.goto(f"{server}/playground?algos=perceptron,pa,spa&n=150&t=0")
    player_ready(pg)
    settle(pg, min_wait=1.0)
    for _ in range(3):
        pg.locator(".olp button.step").click()
    pg.wait_for_function("() => new URL(location.href).searchParams.get('t') === '3'")
    pg.locator(".olp button.play").click()
    pg.wait_for_function(player_js("+d.t >= 20"))
    pg.locator(".olp button.play").click()  # pause
    shown = int(player_state(pg)["t"])
    pg.wait_for_function(
        "t => new URL(location.href).searchParams.get('t') === String(t)", arg=shown
    )
    assert int(player_state(pg)["fast"]) > 0  # frames drawn in the browser
    link = pg.evaluate("() => location.href")
    pg.goto(link)  # the shared link shows the same frame
    player_ready(pg)
    assert f"t = {shown} / 150" in pg.locator(".olp .tval").inner_text()
    assert_no_error(pg)


def test_playground_hand_over_link_works_in_a_fresh_browser(server, projector):
    pg = projector
    pg.goto(f"{server}/playground?algos=pa,spa&t=40")
    player_ready(pg)
    pg.get_by_text("Open this state in the SPA step-through").click()
    href = pg.locator("[data-testid='stPageLink'] a").first.get_attribute("href")
    assert "pg=" in href and "scenario=playground" in href
    # a new browser context: no cookies, no storage, no Streamlit session of the Playground
    context = pg.context.browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        fresh = context.new_page()
        target = href if href.startswith("http") else server + "/" + href.lstrip("/")
        fresh.goto(target)
        fresh.locator("h1, h3").first.wait_for(timeout=90_000)
        settle(fresh)
        assert_no_error(fresh)
        text = fresh.locator("[data-testid='stMain']").inner_text()
        assert t("spa.playground_missing") not in text
        box = fresh.locator("[data-testid='stMain'] [data-testid='stSelectbox'] input").first
        scenario = box.input_value()
        assert t("spa.scenario.playground") in scenario  # the playground's state is shown
        assert "pg=" in fresh.evaluate("() => location.href")  # and kept in the URL
    finally:
        context.close()


def test_language_switch_keeps_every_widget(server, projector):
    """SPA page: three Next, then 日本語: the sub-step stays, its label and the scenario box
    are Japanese, and Next goes on from there."""
    pg = projector
    pg.goto(f"{server}/spa?scenario=three-rivals")
    main = pg.locator("[data-testid='stMain']")
    main.locator("h4:visible").first.wait_for()
    settle(pg)
    shown_h4 = (
        "[...document.querySelectorAll('[data-testid=stMain] h4')]"
        ".find(e => e.offsetParent !== null)"
    )
    prev = pg.locator(".ols .prev")
    assert prev.is_disabled()  # the first sub-step: nothing before it
    for _ in range(3):
        title = main.locator("h4:visible").first.inner_text()
        pg.get_by_role("button", name="Next ▶").click()
        pg.wait_for_function(f"t => {shown_h4}.innerText !== t", arg=title)
    pg.wait_for_function("() => new URL(location.href).searchParams.get('step') === '3'")
    settle(pg, min_wait=0.5)
    english = main.locator("h4:visible").first.inner_text()
    assert english.startswith("4.")
    box = main.locator("[data-testid='stSelectbox'] input").first
    assert box.input_value() == t("spa.scenario.three-rivals", "en")
    pg.locator("[data-testid='stSidebar'] [data-testid='stSelectbox']").filter(
        has_text=t("lang.label", "en")
    ).click()  # (the sidebar's other box is the theme's)
    pg.get_by_text("日本語").click()
    pg.wait_for_function(f"() => /[\u3040-\u30ff]/.test({shown_h4}.innerText)")
    settle(pg, min_wait=0.5)
    japanese = main.locator("h4:visible").first.inner_text()
    assert japanese.startswith("4.") and japanese != english
    count = pg.locator(".ols .count").inner_text()
    assert count.startswith("ステップ 4 /")  # the stepper shows the same sub-step, in Japanese
    assert pg.locator(".ols .next").inner_text() == t("spa.next", "ja")
    scenario = main.locator("[data-testid='stSelectbox'] input").first.input_value()
    assert scenario == t("spa.scenario.three-rivals", "ja")  # translated, not left in English
    pg.locator(".ols .next").click()  # 次へ ▶
    pg.wait_for_function(f"t => {shown_h4}.innerText !== t", arg=japanese)
    assert main.locator("h4:visible").first.inner_text().startswith("5.")
    pg.wait_for_function("() => new URL(location.href).searchParams.get('lang') === 'ja'")
    assert_no_error(pg)


ENTRIES = {  # how a user starts the app: an installed package, and a clone
    "olearn-app": ([sys.executable, "-m", "olearn", "app"], None),
    "streamlit-run-app.py": ([sys.executable, "-m", "streamlit", "run", "app.py"], ROOT),
}


@pytest.mark.parametrize("entry", list(ENTRIES))
def test_deep_link_is_right_on_a_fresh_servers_first_request(tmp_path, page, entry):
    """A new server; its very first request is a deep link to a sub-page: the frame's
    navigation and language switch must be there, and the page must be the one asked for.
    ``streamlit run app.py`` has ``pages/`` beside it, so Streamlit's legacy multipage mode
    serves that first request by running the page file alone: the page's
    ``require_frame()`` must bring the frame."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd, cwd = ENTRIES[entry]
    cmd = [*cmd, "--server.headless", "true"]
    cmd += ["--server.port", str(port), "--server.address", "127.0.0.1"]
    with open(tmp_path / "server.log", "w") as log:
        proc = subprocess.Popen(
            cmd, cwd=cwd or tmp_path, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            wait_healthy(url, proc)
            # a new context of the module's browser (a second sync Playwright cannot start
            # while the module's is running)
            context = page.context.browser.new_context(viewport={"width": 1280, "height": 720})
            try:
                pg = context.new_page()
                pg.goto(f"{url}/cw?lang=ja")
                pg.locator("h1").first.wait_for(timeout=90_000)
                settle(pg)
                assert pg.locator("[data-testid='stSidebarNav']").count() == 1
                assert "信頼度重み付き" in pg.locator("h1").first.inner_text()
                assert_no_error(pg)
            finally:
                context.close()
        finally:  # the whole process group: a launcher's server child too
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
