"""Projector mode (``?present=1``) fits a projector: on every page, in English and Japanese, at
1280x720 and at 125 % zoom (1024x576 CSS px), the page's main figure and its controls lie
fully inside the window, unscrolled (bounding boxes against the viewport); and the lecturer's
guide's 90-minute plan, each ``present=1`` link in order, shows on its first screen what the
guide points to there (issue 31, item 2).  Headless chromium (Debian's), driven by Playwright.

The guide is read, not copied: a link added to it is walked too.  Screenshots of every screen
go to ``results/screenshots/projector-*.png`` (looked at by a person; nothing here asserts on
pixels).  Marked ``browser``.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from olearn.teaching.strings import t
from tests.browser_support import ROOT, SHOTS, assert_no_error, settle

pytestmark = pytest.mark.browser

SIZES = {"1280x720": (1280, 720, 1.0), "1024x576": (1024, 576, 1.25)}  # (w, h, zoom)
GUIDE = ROOT / "docs" / "lecturers_guide.md"

# the tabs beside the SPA walk (the QP check, the printed-vs-derived formulas)
SIDE_TABS = ".st-key-spa-side [role=tab]"
# every page in projector mode: (path and query, what must be on the first screen).  A
# selector naming several elements means every one of them (an element may be hidden: a
# stepped page renders every step and shows one; hidden ones are skipped, not passed).
PAGES = {
    "home": ("?present=1", [".st-key-home-family"]),
    "lesson": (
        "lesson?step=1&present=1",
        [".st-key-lesson-planes", ".st-key-lesson-curve", ".st-key-lesson-next"],
    ),
    "playground": (
        "playground?algos=perceptron,pa&present=1",
        [".st-key-play-planes", ".st-key-play-curves", ".olp .bar", ".olp .note", ".olp .keys"],
    ),
    "spa": (
        "spa?scenario=three-rivals&rule=SPA&present=1",
        [".st-key-spa-fig", ".ols .bar", ".ols .keys", "[class*='st-key-spatext-']", SIDE_TABS],
    ),
    "cw": ("cw?rule=cw&present=1", [".st-key-cw-fig", ".ols .bar", "[class*='st-key-cwtext-']"]),
    "cs_svm": ("cs_svm?present=1", [".st-key-cs-fig", ".olp .bar", ".olp .note"]),
    "pcvm": (
        "pcvm?present=1",
        [".st-key-pcvm-plane", ".st-key-pcvm-hist", ".st-key-pcvm-i", ".st-key-pcvm-next"],
    ),
    "sgd": ("sgd?present=1", [".st-key-sgd-obj", ".st-key-sgd-f1"]),
    "compare": (
        "compare?data=digits&algos=perceptron,pa1,spa1&folds=2&epochs=1&max=300&run=1&present=1",
        [".st-key-cmp-err", ".st-key-cmp-run", "[data-testid=stTable]"],
    ),
    "reproduce": (
        "reproduce?id=ono-sgd-figure1&mode=quick&present=1",
        [".st-key-rep-fig", ".st-key-rep-quick"],
    ),
}
# the page's settings (a closed box beside the one-line title), where it has any
SETTINGS = (
    "[data-testid=stHorizontalBlock]:has(.st-key-olearn-head) [data-testid=stExpander] summary"
)

# how far the page (or any box in it) is scrolled
SCROLLED = """() => [...document.querySelectorAll('[data-testid=stMain], [data-testid=stMain] *')]
  .reduce((top, el) => Math.max(top, el.scrollTop), document.scrollingElement.scrollTop)"""


def off_screen(pg, selectors: list[str], size: tuple) -> list[str]:
    """The selectors (of ``selectors``) with no element shown, or with one shown that is not
    fully inside the ``size`` window, described.  (Playwright's locators, which see inside
    the components' shadow roots; an element hidden, e.g. another step's text, is skipped.)"""
    w, h = size[0], size[1]
    bad = []
    for sel in selectors:
        found = pg.locator(sel)
        shown = 0
        for i in range(found.count()):
            box = found.nth(i).bounding_box() if found.nth(i).is_visible() else None
            if not box or box["width"] <= 0 or box["height"] <= 0:
                continue
            shown += 1
            right, bottom = box["x"] + box["width"], box["y"] + box["height"]
            if box["x"] < -0.5 or box["y"] < -0.5 or right > w + 0.5 or bottom > h + 0.5:
                bad.append(f"{sel} #{i}: { ({k: round(v) for k, v in box.items()}) }")
        if not shown:
            bad.append(f"{sel}: not shown")
    return bad


@pytest.fixture(scope="module", params=list(SIZES))
def screen(request, page):
    """A tab of the module's browser at one size: (page, (w, h), name)."""
    w, h, zoom = SIZES[request.param]
    context = page.context.browser.new_context(
        viewport={"width": w, "height": h}, device_scale_factor=zoom
    )
    pg = context.new_page()
    pg.set_default_timeout(120_000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield pg, (w, h), request.param
    context.close()


def show(pg, server: str, path: str) -> None:
    pg.goto(f"{server}/{path}")
    if not path.startswith(("compare", "reproduce")) or "run=1" in path or "mode=" in path:
        pg.locator(".js-plotly-plot").first.wait_for()
    pg.locator("[data-testid=stMain] [data-testid=stElementContainer]:visible").first.wait_for()
    settle(pg, min_wait=0.5)  # (the new page is drawn: settle waits for it to be still)
    assert_no_error(pg)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("name", list(PAGES))
def test_projector_mode_fits_the_screen(server, screen, name, lang):
    pg, size, size_name = screen
    path, selectors = PAGES[name]
    show(pg, server, f"{path}&lang={lang}")
    pg.screenshot(path=str(SHOTS / f"projector-{name}-{lang}-{size_name}.png"))
    assert pg.evaluate(SCROLLED) == 0
    wanted = selectors + ([SETTINGS] if pg.locator(SETTINGS).count() else [])
    assert not off_screen(pg, wanted, size), off_screen(pg, wanted, size)
    # the sidebar is closed, the intro gone: a one-line title at most
    assert pg.locator("[data-testid='stSidebar'][aria-expanded='true']").count() == 0
    assert pg.locator("[data-testid=stMain] h1").count() == 0


def test_the_check_sees_a_figure_below_the_fold(server, screen):
    """The same page outside projector mode (title, intro, controls above the figure) at
    1024x576: the check finds the figure's bottom off screen (so it can fail)."""
    pg, size, _ = screen
    show(pg, server, "spa?scenario=three-rivals&rule=SPA&lang=en")
    assert off_screen(pg, [".st-key-spa-fig"], size)


# -- the guide's plan ------------------------------------------------------------------------


def guide_links(text: str) -> list[str]:
    """Every ``present=1`` link of the guide's plan, in order (the app's paths, no host)."""
    plan = text[text.index("## The plan") : text.index("## Hosting the app")]
    return [m for m in re.findall(r"`(/[^`\s]*)`", plan) if "present=1" in m]


def pointed_at(link: str, lang: str) -> tuple[list[str], str | None]:
    """What the guide points to at ``link`` (selectors that must be on the first screen), and
    the label of a tab on that screen to open first (the QP check, the formulas), if any."""
    url = urlparse(link)
    page, query = url.path.strip("/") or "home", parse_qs(url.query)
    if page == "cw" and ("noise" in query or "passes" in query):
        return [".st-key-cw-noise_fig"], None
    if page == "spa":
        scenario = query.get("scenario", [""])[0]
        tab = "spa.tab.formulas" if scenario.startswith("printed") else "spa.tab.qp"
        return [".st-key-spa-fig", ".ols .bar", "[class*='st-key-spatext-']"], t(tab, lang)
    if page == "lesson":  # the step's view: every figure of it, and Next
        return [".st-key-stage-lesson .js-plotly-plot", ".st-key-lesson-next"], None
    if page == "reproduce":
        return ["[data-testid=stMain] [data-testid=stSelectbox]", ".st-key-rep-quick"], None
    return PAGES[page][1] if page in PAGES else [".js-plotly-plot"], None


def test_the_guide_links_are_read():
    links = guide_links(GUIDE.read_text(encoding="utf-8"))
    assert links[0] == "/?present=1" and len(links) >= 15
    assert any(link.startswith("/spa?scenario=printed-II") for link in links)
    assert any("noise=" in link and link.startswith("/cw?") for link in links)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_guides_plan_shows_what_it_points_to_on_the_first_screen(server, page, lang):
    """Each ``present=1`` link of the plan, in order, at 1280x720: what the guide points to
    at that step is on the first screen; where it sits behind a tab (the QP check beside
    the walk, the printed-vs-derived formulas), the tab is on the first screen and its
    content is too once opened."""
    context = page.context.browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        pg = context.new_page()
        pg.set_default_timeout(120_000)
        failures = []
        for i, link in enumerate(guide_links(GUIDE.read_text(encoding="utf-8"))):
            show(pg, server, link.lstrip("/") + f"&lang={lang}")
            selectors, tab = pointed_at(link, lang)
            bad = off_screen(pg, selectors, (1280, 720))
            if tab is not None:
                bad += off_screen(pg, [SIDE_TABS], (1280, 720))
                pg.locator(".st-key-spa-side").get_by_role("tab", name=tab, exact=True).click()
                shown = ".st-key-spa-side [role=tabpanel]:not([hidden])"
                pg.wait_for_timeout(300)  # (the panel is drawn already: the tab switches it)
                bad += off_screen(
                    pg, [f"{shown} .katex-display, {shown} .stDataFrame"], (1280, 720)
                )
            if bad:
                failures.append(f"{link}: {bad}")
            name = re.sub(r"[^a-z0-9]+", "-", link.lower()).strip("-")
            pg.screenshot(path=str(Path(SHOTS) / f"guide-{lang}-{i:02d}-{name[:40]}.png"))
        assert not failures, "\n".join(failures)
    finally:
        context.close()
