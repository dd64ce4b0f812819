"""The lesson in headless chromium at 1280x720 (a projector): Next through every step, in
English and in Japanese; each step's view renders (a figure, no error) and the step is in
the URL.  Also writes presentation-mode screenshots of the lesson, the SPA page and Home to
``results/screenshots/`` (looked at by a person; nothing here asserts on pixels or time)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from olearn.teaching.lesson import STEPS
from olearn.teaching.strings import t
from tests.browser_support import SHOTS, assert_no_error, settle, still_box

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def projector(page):
    """A 1280x720 tab (the projector the issue names) of the module's browser."""
    context = page.context.browser.new_context(viewport={"width": 1280, "height": 720})
    pg = context.new_page()
    pg.set_default_timeout(120_000)
    yield pg
    context.close()


def _step_in_url(pg) -> int:
    return int(parse_qs(urlparse(pg.url).query)["step"][0])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_next_through_every_lesson_step(server, projector, lang):
    pg = projector
    pg.goto(f"{server}/lesson?lang={lang}&hide=all")
    settle(pg)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for i, step in enumerate(STEPS, start=1):
        main = pg.locator("[data-testid='stMain']")
        main.get_by_text(step.title(lang), exact=True).first.wait_for()
        main.get_by_role("link", name=t("lesson.open", lang)).wait_for()  # drawn after the view
        main.locator(".js-plotly-plot").first.wait_for()
        settle(pg)
        assert_no_error(pg)
        assert pg.locator(".js-plotly-plot").count() >= 1, f"step {i} drew no figure"
        # the URL is written at the end of the run, after the content: wait for it
        pg.wait_for_function(f"() => new URLSearchParams(location.search).get('step') === '{i}'")
        assert _step_in_url(pg) == i
        link = main.get_by_role("link", name=t("lesson.open", lang))
        assert link.get_attribute("href").startswith(f"/{step.page}?")
        pg.screenshot(path=str(SHOTS / f"lesson-{lang}-{i}-{step.key}.png"))
        if i < len(STEPS):
            main.get_by_role("button", name=t("lesson.next", lang)).click()
    # and back once: Previous returns to the step before
    pg.locator("[data-testid='stMain']").get_by_role("button", name=t("lesson.prev", lang)).click()
    pg.locator("[data-testid='stMain']").get_by_text(
        STEPS[-2].title(lang), exact=True
    ).first.wait_for()
    settle(pg)
    pg.wait_for_function(
        f"() => new URLSearchParams(location.search).get('step') === '{len(STEPS) - 1}'"
    )
    assert _step_in_url(pg) == len(STEPS) - 1


def test_lesson_deep_link_opens_the_page_in_that_state(server, projector):
    pg = projector
    pg.goto(f"{server}/lesson?lang=en&step=4&hide=all")
    settle(pg)
    pg.get_by_role("link", name=t("lesson.open", "en")).click()
    pg.wait_for_url("**/spa?**")
    settle(pg)
    assert_no_error(pg)
    query = parse_qs(urlparse(pg.url).query)
    assert query["scenario"] == ["three-rivals"] and query["hide"] == ["all"]
    # the last sub-step: the new scores
    assert pg.get_by_text(t("spa.sub.after.title", "en"), exact=False).count() >= 1


SPA_SHOTS = [  # (name, query): several sub-steps of the SPA page in presentation mode
    ("spa-en-scores", "scenario=three-rivals&rule=SPA&step=0"),
    ("spa-en-support-test", "scenario=three-rivals&rule=SPA&step=5"),
    ("spa-en-spa1-second-search", "scenario=printed-I&rule=SPA-I&C=0.3&step=8"),
    ("spa-en-spa1-tau", "scenario=printed-I&rule=SPA-I&C=0.3&step=11"),
    ("spa-ja-spa2-test", "scenario=printed-II&rule=SPA-II&C=0.3&step=6&lang=ja"),
    ("spa-ja-update", "scenario=pa-failure&rule=SPA&step=7&lang=ja"),
]


@pytest.mark.parametrize("name,query", SPA_SHOTS)
def test_spa_presentation_screenshots(server, projector, name, query):
    """The figure and the sub-step's text are both inside the 1280x720 window, Next beside."""
    pg = projector
    pg.goto(f"{server}/spa?hide=all&{query}")
    settle(pg)
    assert_no_error(pg)
    chart = still_box(pg, pg.locator(".st-key-spa-fig"))  # the walk's figure, not any plot
    title = still_box(pg, pg.locator("[data-testid='stMain'] h4:visible").first)
    next_button = still_box(pg, pg.locator(".ols .next"))
    for box in (chart, title, next_button):
        assert box is not None and box["y"] + box["height"] <= 720, box
    pg.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_home_screenshot(server, projector, lang):
    pg = projector
    pg.goto(f"{server}/?lang={lang}&hide=all")
    settle(pg)
    assert_no_error(pg)
    pg.screenshot(path=str(SHOTS / f"home-{lang}.png"))
    pg.screenshot(path=str(SHOTS / f"home-{lang}-full.png"), full_page=True)


def test_spa_sub_step_survives_the_language_switch(server, projector):
    pg = projector
    pg.goto(f"{server}/spa?lang=en&scenario=printed-I&rule=SPA-I&C=0.3")
    settle(pg)
    main = pg.locator("[data-testid='stMain']")
    for _ in range(3):
        main.get_by_role("button", name=t("spa.next", "en")).click()
        settle(pg, min_wait=0.5)
    assert main.locator("h4:visible").first.inner_text().startswith("4.")
    pg.wait_for_function("() => new URL(location.href).searchParams.get('step') === '3'")
    pg.locator("[data-testid='stSidebar'] [data-testid='stSelectbox']").first.click()
    pg.get_by_role("option", name="日本語").click()
    main.get_by_text(t("spa.sub.sorted.title", "ja")).first.wait_for(state="visible")
    settle(pg)
    assert main.locator("h4:visible").first.inner_text().startswith("4.")  # same, in Japanese
    assert "step=3" in pg.url and "lang=ja" in pg.url
