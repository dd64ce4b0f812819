"""Dark rooms (issue 31, item 3): the app's theme switch (light, dark, or the system's
``prefers-color-scheme``; ``?theme=`` in the URL) and every figure in the theme's colours, in
headless chromium (Debian's), driven by Playwright.

The contrast check reads what the browser draws: every text of the page (the DOM's, the
components' shadow roots included) and every text of every plotly chart (the SVG's fills),
its colour composited over the background it sits on (the first opaque background up the
tree, the chart's paper, or an annotation's own box), and WCAG 2's contrast ratio of the two
must be at least 4.5:1, on every page in both themes.  Disabled controls are left out (WCAG
exempts them), as are glyphs that are no text (a line sample "━━" in a legend's colour).

The contrast walk opens every page twice, light in English and dark in Japanese, from a new
server, under the offline watch (tests/offline_support.py, issue 32, item 4): no request for
another host, from the browser or the server, on any page in either language (the first
request to the new server included).  Marked ``browser``.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from olearn.teaching.strings import t
from tests.browser_support import EVERY_PAGE, SHOTS, assert_no_error, settle
from tests.offline_support import watched

pytestmark = pytest.mark.browser

PAGES = EVERY_PAGE
# each page in both themes and both languages, in two loads
WALK = [(name, theme, lang) for name in PAGES for theme, lang in (("light", "en"), ("dark", "ja"))]
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")  # kana or kanji: the page is in Japanese

# Every text the page shows, with its colour and the background it is read on (WCAG 2).
CONTRAST = r"""(root) => {
  const parse = (c) => {
    const m = (c || '').match(/[\d.]+/g);
    if (!m || m.length < 3) return null;
    return [+m[0], +m[1], +m[2], m.length > 3 ? +m[3] : 1];
  };
  const over = (f, b) => [0, 1, 2].map((i) => f[i] * f[3] + b[i] * (1 - f[3])).concat([1]);
  const lin = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  const ratio = (a, b) => { const x = lum(a), y = lum(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const up = (e) => e.parentElement || (e.getRootNode() instanceof ShadowRoot
                                        ? e.getRootNode().host : null);
  // the background behind `el`: the backgrounds up the tree, composited, the page's below
  const page = parse(getComputedStyle(document.querySelector('.stApp')).backgroundColor);
  // (an ancestor whose box does not hold the text's middle, e.g. a slider's thumb under
  // the value drawn above it, paints nothing behind it)
  const behind = (el) => {
    const r = el.getBoundingClientRect();
    const [x, y] = [r.x + r.width / 2, r.y + r.height / 2];
    const layers = [];
    for (let e = el; e; e = up(e)) {
      const c = parse(getComputedStyle(e).backgroundColor);
      const b = e.getBoundingClientRect();
      const holds = b.left <= x && x <= b.right && b.top <= y && y <= b.bottom;
      if (c && c[3] > 0 && holds) { layers.push(c); if (c[3] >= 1) break; }
    }
    let out = layers.length && layers[layers.length - 1][3] >= 1 ? layers.pop() : page;
    while (layers.length) out = over(layers.pop(), out);
    return out;
  };
  const opacity = (el) => { let o = 1;
    for (let e = el; e; e = up(e)) o *= +getComputedStyle(e).opacity; return o; };
  const disabled = (el) => {
    for (let e = el; e; e = up(e)) {
      const off = '[disabled],[aria-disabled=true],[data-disabled=true]';
      if (e.matches && e.matches(off)) return true;
      if (e.querySelector && e.matches && e.matches('[data-testid=stWidgetLabel]')) {
        const w = e.closest('[data-testid^=st]:not([data-testid=stWidgetLabel])');
        if (w && w.querySelector('[disabled],[aria-disabled=true]')) return true;
      }
    }
    return false;
  };
  const shown = (el) => { const r = el.getBoundingClientRect();
    const shut = el.closest('details:not([open])');  // a closed expander shows its title only
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'
      && (!shut || Boolean(el.closest('summary'))); };
  const words = /[\p{L}\p{N}]/u;
  const out = [];
  const visit = (node) => {
    for (const el of node.querySelectorAll('*')) {
      if (el.shadowRoot) visit(el.shadowRoot);
      if (el.closest('svg, [data-testid=stDataFrame], .modebar')) continue;
      const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.data).join('');
      if (!words.test(own) || !shown(el) || disabled(el)) continue;
      const c = parse(getComputedStyle(el).color);
      const seen = opacity(el);
      if (!c || seen < 0.05) continue; // (not drawn: a slider's ends until hovered)
      const bg = behind(el);
      const fg = over([c[0], c[1], c[2], c[3] * seen], bg);
      out.push({ where: 'page', text: own.trim().slice(0, 60), ratio: ratio(fg, bg),
                 color: getComputedStyle(el).color, bg: bg.map(Math.round).join(','),
                 what: (el.closest('[data-testid]') || el).dataset.testid || el.tagName });
    }
  };
  visit(root);
  // the charts: SVG text, on the chart's paper or an annotation's own box
  for (const gd of root.querySelectorAll('.js-plotly-plot')) {
    const svg = gd.querySelector('svg.main-svg');
    const paperC = svg && parse(svg.style.background);
    const paper = paperC && paperC[3] > 0 ? over(paperC, behind(gd)) : behind(gd);
    for (const el of gd.querySelectorAll('svg text, svg tspan')) {
      const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.data).join('');
      if (!words.test(own) || !shown(el)) continue;
      const style = getComputedStyle(el);
      const c = parse(style.fill);
      if (!c || style.display === 'none') continue;
      let bg = paper;
      const ann = el.closest('g.annotation');
      const box = ann && ann.querySelector('rect.bg');
      if (box) {
        const b = parse(getComputedStyle(box).fill);
        const bo = +getComputedStyle(box).fillOpacity;
        if (b && bo > 0) bg = over([b[0], b[1], b[2], b[3] * bo], paper);
      }
      const fg = over([c[0], c[1], c[2], c[3] * +style.fillOpacity * opacity(el)], bg);
      out.push({ where: 'chart', text: own.trim().slice(0, 60), ratio: ratio(fg, bg),
                 color: style.fill, bg: bg.map(Math.round).join(',') });
    }
  }
  return out;
}"""


def measured(pg) -> list[dict]:
    """Every text of the page's main area, with its contrast ratio."""
    return pg.locator("[data-testid=stMain]").evaluate(CONTRAST)


def open_page(pg, url: str) -> None:
    """Open ``url`` and wait until it is drawn; a theme asked for in the URL first reloads
    the page once, with Streamlit's embed option for it (olearn.app.components.theme)."""
    pg.goto(url)
    if "theme=light" in url or "theme=dark" in url:
        pg.wait_for_url(lambda u: "embed_options=" in u)
    pg.locator(".js-plotly-plot").first.wait_for()
    settle(pg)
    assert_no_error(pg)


def themed(theme: str) -> str:
    """The query that shows ``theme`` at once: the choice and Streamlit's embed option for it,
    as the page's one reload writes them (the reload itself is walked by the switch's and
    the system's tests), so a page in a theme costs one load, not two."""
    return f"theme={theme}&embed_options={theme}_theme"


def page_is(pg, theme: str) -> bool:
    """Whether Streamlit shows ``theme`` (from the page's background)."""
    return bool(
        pg.evaluate(
            "(t) => { const m = getComputedStyle(document.querySelector('.stApp'))"
            ".backgroundColor.match(/\\d+/g).map(Number);"
            " return (m[0] + m[1] + m[2] < 150) === (t === 'dark'); }",
            theme,
        )
    )


@pytest.fixture(scope="module")
def walk(offline_server, offline_browser):
    """The walk's tab, watched: ``(page, where, outside)``: ``where[0]`` names the page being
    opened, ``outside`` lists every request for another host."""
    url, _ = offline_server
    chromium, _ = offline_browser
    where = ["(start)"]
    context, pg, outside = watched(chromium, urlsplit(url).netloc, where)
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield pg, where, outside
    context.close()


@pytest.mark.parametrize("name,theme,lang", WALK)
def test_every_text_reads_on_its_background_and_no_request_leaves(
    offline_server, walk, name, theme, lang
):
    url, server_proxy = offline_server
    pg, where, outside = walk
    where[0] = f"{name} ({theme}, {lang})"
    sep = "&" if "?" in PAGES[name] else "?"
    open_page(pg, f"{url}/{PAGES[name]}{sep}{themed(theme)}&lang={lang}")
    assert page_is(pg, theme)
    main = pg.locator("[data-testid=stMain]").inner_text()
    assert bool(JAPANESE.search(main)) == (lang == "ja")
    texts = measured(pg)
    assert sum(1 for x in texts if x["where"] == "chart") >= 5  # the charts were read
    low = [x for x in texts if x["ratio"] < 4.5]
    pg.screenshot(path=str(SHOTS / f"theme-{name}-{theme}.png"), full_page=True)
    assert not low, low[:15]
    assert not outside, "requests to other hosts:\n" + "\n".join(outside)
    assert not server_proxy.seen, "the server's requests:\n" + "\n".join(server_proxy.seen)


def test_the_check_finds_text_that_does_not_read(offline_server, walk):
    """The measure can fail: grey text on a grey box, put on the page by hand."""
    pg = walk[0]
    open_page(pg, f"{offline_server[0]}/sgd?theme=light&lang=en")
    pg.evaluate(
        "() => { const d = document.createElement('div'); d.textContent = 'faint words';"
        " d.style.cssText = 'color: #999; background: #bbb';"
        " document.querySelector('[data-testid=stMain]').prepend(d); }"
    )
    assert any(x["text"] == "faint words" and x["ratio"] < 4.5 for x in measured(pg))


def theme_box(pg):
    """The sidebar's theme switch."""
    return pg.locator("[data-testid=stSidebar] [data-testid=stSelectbox]").filter(
        has_text=t("theme.label", "en")
    )


def chart_paper(pg) -> str:
    return pg.evaluate(
        "() => document.querySelector('.js-plotly-plot svg.main-svg').style.background"
    )


def test_the_switch_turns_the_page_and_its_figures_dark_and_the_url_keeps_it(
    offline_server, offline_browser
):
    """The sidebar's switch: Dark makes Streamlit's page and every figure dark (no white box
    left: each chart's paper is the page's background) and writes ``theme=dark`` to the URL,
    which a fresh browser opens dark; Light brings it back."""
    server, chromium = offline_server[0], offline_browser[0]
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
    try:
        pg = context.new_page()
        pg.set_default_timeout(120_000)
        open_page(pg, f"{server}/cw?rule=cw&lang=en")
        assert page_is(pg, "light")
        theme_box(pg).click()
        pg.get_by_role("option", name=t("theme.dark", "en")).click()
        pg.wait_for_function("() => new URL(location.href).searchParams.get('theme') === 'dark'")
        pg.locator(".js-plotly-plot").first.wait_for()
        settle(pg, min_wait=1.0)
        assert page_is(pg, "dark")
        backgrounds = pg.evaluate(
            "() => [...document.querySelectorAll('.js-plotly-plot svg.main-svg:first-child')]"
            ".map((s) => s.style.background)"
        )
        app = pg.evaluate(
            "() => getComputedStyle(document.querySelector('.stApp')).backgroundColor"
        )
        assert backgrounds and all(b == app for b in backgrounds), (backgrounds, app)
        link = pg.evaluate("() => location.href")
        fresh = chromium.new_context(viewport={"width": 1280, "height": 900})
        try:
            other = fresh.new_page()
            other.set_default_timeout(120_000)
            open_page(other, link)
            assert page_is(other, "dark") and chart_paper(other) == app
        finally:
            fresh.close()
        theme_box(pg).click()
        pg.get_by_role("option", name=t("theme.light", "en")).click()
        pg.wait_for_function("() => new URL(location.href).searchParams.get('theme') === 'light'")
        pg.locator(".js-plotly-plot").first.wait_for()
        settle(pg, min_wait=1.0)
        assert page_is(pg, "light") and chart_paper(pg) == "rgb(255, 255, 255)"
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_follow_the_system_takes_prefers_color_scheme(offline_server, offline_browser, scheme):
    """No ``theme=`` in the link: the page and its figures follow the system's colour scheme
    (a browser set to dark gets dark figures, the stepper's and the player's included)."""
    server, chromium = offline_server[0], offline_browser[0]
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    try:
        pg = context.new_page()
        pg.set_default_timeout(120_000)
        for path in ("spa?scenario=three-rivals&lang=en", "playground?algos=perceptron,pa"):
            open_page(pg, f"{server}/{path}")
            assert page_is(pg, scheme)
            app = pg.evaluate(
                "() => getComputedStyle(document.querySelector('.stApp')).backgroundColor"
            )
            assert chart_paper(pg) == app
            low = [x for x in measured(pg) if x["ratio"] < 4.5]
            assert not low, low[:10]
    finally:
        context.close()


# The player's speed choice, found in the component's shadow root.
SPEED_AND_STEP = r"""() => {
  const find = (root, sel) => {
    const hit = root.querySelector(sel);
    if (hit) return hit;
    for (const el of root.querySelectorAll('*')) {
      const got = el.shadowRoot && find(el.shadowRoot, sel);
      if (got) return got;
    }
    return null;
  };
  const look = (el) => { const s = getComputedStyle(el);
    return { background: s.backgroundColor, border: s.borderTopColor, color: s.color,
             height: s.height, radius: s.borderTopLeftRadius, appearance: s.appearance }; };
  const speed = find(document, '.olp select.speed');
  const step = find(document, '.olp button.step');
  return speed && step ? { speed: look(speed), step: look(step) } : null;
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_players_speed_choice_is_drawn_like_its_buttons(offline_server, walk, theme):
    """The speed ``<select>`` is no native grey box in a dark room (issue 31's details): the
    theme's background, border and text, the buttons' height and radius."""
    server, pg = offline_server[0], walk[0]
    open_page(pg, f"{server}/playground?algos=perceptron,pa&{themed(theme)}&lang=en")
    pg.wait_for_function(f"() => ({SPEED_AND_STEP})() !== null")
    got = pg.evaluate(SPEED_AND_STEP)
    speed, step = got["speed"], got["step"]
    assert speed["appearance"] == "none"
    for key in ("background", "border", "color", "height", "radius"):
        assert speed[key] == step[key], (key, got)
