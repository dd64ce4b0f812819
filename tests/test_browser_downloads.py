"""Figures out of the app, in a real browser: every chart's camera saves a PNG, or an SVG
once the sidebar says so (:mod:`olearn.app.downloads`), and an animation's "Download" saves
one HTML file that plays offline.  Marked ``browser``."""

from __future__ import annotations

import pytest

from olearn.teaching.strings import t
from tests.browser_support import SHOTS, assert_no_error, settle
from tests.player_support import player_js

pytestmark = pytest.mark.browser

# every chart on the page: its modebar's buttons' titles (the modebar is drawn hidden)
MODEBARS = """() => [...document.querySelectorAll('.js-plotly-plot')].map(gd =>
  [...gd.querySelectorAll('.modebar-btn')].map(b => b.getAttribute('data-title')))"""


def _plays_offline(browser, path, n_charts: int) -> None:
    """Open the saved HTML with the network off: it holds ``n_charts`` charts with their
    frames; press Play: it goes on from the frame the slider shows, and every chart (those
    following the first too) moves."""
    context = browser.new_context(offline=True)
    try:
        pg = context.new_page()
        pg.goto(path.as_uri())
        pg.wait_for_function(
            "() => [...document.querySelectorAll('.js-plotly-plot')]"
            ".every(gd => gd._transitionData && gd._transitionData._frames.length > 2)"
        )
        assert pg.evaluate("() => document.querySelectorAll('.js-plotly-plot').length") == n_charts
        lead = "document.querySelector('.js-plotly-plot')"
        first = pg.evaluate(f"() => {lead}.layout.sliders[0].active")
        # the page brought plotly.js to the frame its slider shows (plotly.js's current frame)
        pg.wait_for_function(f"() => {lead}._fullLayout._currentFrame === '{first}'")
        start = pg.evaluate(
            "() => { const gds = [...document.querySelectorAll('.js-plotly-plot')];"
            " window.__shown = []; gds[0].on('plotly_animatingframe', e => __shown.push(+e.name));"
            " return gds.map(gd => JSON.stringify(gd.data.map(d => d.x))); }"
        )
        pg.locator(".updatemenu-button").first.click()
        pg.wait_for_function(  # playing: the slider moved on, every chart was redrawn
            "([s, first]) => [...document.querySelectorAll('.js-plotly-plot')].every((gd, i) =>"
            " JSON.stringify(gd.data.map(d => d.x)) !== s[i])"
            " && document.querySelector('.js-plotly-plot').layout.sliders[0].active >= first + 3",
            arg=[start, first],
            timeout=30_000,
        )
        shown = pg.evaluate("() => window.__shown")
        assert shown and min(shown) >= first, (first, shown[:5])
    finally:
        context.close()


def test_playground_charts_save_png_or_svg_and_the_animation_downloads(server, page, tmp_path):
    page.goto(f"{server}/playground?algos=perceptron,arow&n=50&t=5&lang=en")
    page.wait_for_function(player_js("d.ready === 'true'"), timeout=120_000)
    settle(page, min_wait=1.0)
    camera = ".modebar-btn[data-title^='Download plot']"
    bars = page.evaluate(MODEBARS)
    assert len(bars) == 3  # the planes, the curves, AROW's weight space
    for titles in bars:
        assert "download plot as a png" in [(t or "").lower() for t in titles], titles
    page.locator("[data-testid=stSidebar]").get_by_text("SVG", exact=True).click()
    page.wait_for_function(  # the rerun gave every chart the SVG camera
        "() => [...document.querySelectorAll('.js-plotly-plot')].every(gd =>"
        " gd.querySelector(\"[data-title='Download plot']\"))",
        timeout=60_000,
    )
    settle(page, min_wait=0.5)
    chart = page.locator(".js-plotly-plot").first
    chart.hover()
    SHOTS.mkdir(parents=True, exist_ok=True)
    chart.screenshot(path=str(SHOTS / "modebar_svg.png"))
    with page.expect_download() as info:
        chart.locator(camera).click()
    svg = tmp_path / "planes.svg"
    info.value.save_as(svg)
    assert info.value.suggested_filename == "olearn-play-planes.svg"
    assert svg.read_text(encoding="utf-8").lstrip().startswith("<svg")
    # the animation, as one file (built now, on the click)
    with page.expect_download() as info:
        page.get_by_role("button", name=t("ui.download_html", "en")).click()
    html = tmp_path / "playground.html"
    info.value.save_as(html)
    assert info.value.suggested_filename == "olearn-playground.html"
    assert_no_error(page)
    _plays_offline(page.context.browser, html, 3)


def test_cs_svm_animation_downloads_and_plays_offline(server, page, tmp_path):
    page.goto(f"{server}/cs_svm?n=20&lang=ja")
    settle(page, min_wait=1.0)
    with page.expect_download() as info:
        page.get_by_role("button", name=t("ui.download_html", "ja")).click()
    html = tmp_path / "cs.html"
    info.value.save_as(html)
    assert_no_error(page)
    _plays_offline(page.context.browser, html, 1)
