"""Figures out of the app, in a real browser: every chart's modebar offers PNG (plotly's
camera) and SVG (:mod:`olearn.app.downloads`), the SVG button saves an SVG, and an
animation's "Download" saves one HTML file that plays offline.  Marked ``browser``."""

from __future__ import annotations

import pytest

from olearn.app.player import READY_JS
from olearn.teaching.strings import t
from tests.browser_support import SHOTS, assert_no_error, settle

pytestmark = pytest.mark.browser

# every chart on the page: its modebar's buttons' titles (the modebar is drawn hidden)
MODEBARS = """() => [...document.querySelectorAll('.js-plotly-plot')].map(gd =>
  [...gd.querySelectorAll('.modebar-btn')].map(b => b.getAttribute('data-title')))"""


def _plays_offline(browser, path, n_charts: int) -> None:
    """Open the saved HTML with the network off: it holds ``n_charts`` charts with their
    frames; press Play: the slider and every chart (those following it too) move."""
    context = browser.new_context(offline=True)
    try:
        pg = context.new_page()
        pg.goto(path.as_uri())
        pg.wait_for_function(
            "() => [...document.querySelectorAll('.js-plotly-plot')]"
            ".every(gd => gd._transitionData && gd._transitionData._frames.length > 2)"
        )
        assert pg.evaluate("() => document.querySelectorAll('.js-plotly-plot').length") == n_charts
        start = pg.evaluate(
            "() => [...document.querySelectorAll('.js-plotly-plot')]"
            ".map(gd => JSON.stringify(gd.data.map(d => d.x)))"
        )
        pg.locator(".updatemenu-button").first.click()
        pg.wait_for_function(  # playing: the slider moved on, every chart was redrawn
            "s => [...document.querySelectorAll('.js-plotly-plot')].every((gd, i) =>"
            " JSON.stringify(gd.data.map(d => d.x)) !== s[i])"
            " && document.querySelector('.js-plotly-plot').layout.sliders[0].active >= 3",
            arg=start,
            timeout=30_000,
        )
    finally:
        context.close()


def test_playground_charts_offer_png_and_svg_and_the_animation_downloads(server, page, tmp_path):
    page.goto(f"{server}/playground?algos=perceptron,arow&n=50&t=5&present=1&lang=en")
    page.wait_for_function(READY_JS, timeout=120_000)
    settle(page, min_wait=1.0)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.js-plotly-plot')]"
        ".every(gd => gd.querySelector('.olearn-svg'))"
    )
    bars = page.evaluate(MODEBARS)
    assert len(bars) == 3  # the planes, the curves, AROW's weight space
    for titles in bars:
        assert any("png" in (t or "").lower() for t in titles), titles
        assert "Download plot as SVG" in titles, titles
    chart = page.locator(".js-plotly-plot").first
    chart.hover()
    SHOTS.mkdir(parents=True, exist_ok=True)
    chart.screenshot(path=str(SHOTS / "modebar_png_svg.png"))
    with page.expect_download() as info:
        chart.locator(".olearn-svg").click()
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
