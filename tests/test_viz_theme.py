"""The figures' two themes (:mod:`olearn.viz.theme`): WCAG contrast against published values,
repainting that reaches every ink and never a data colour, and legible text in both themes
(issue 31, item 3).  The browser's view of it is ``tests/test_browser_theme.py``."""

from __future__ import annotations

import colorsys
import dataclasses
import json
import re

import pytest

from olearn import registry
from olearn.viz.palette import CLASS_COLORS
from olearn.viz.theme import (
    DARK,
    LIGHT,
    THEMES,
    contrast,
    over,
    paint,
    paint_text,
    readable,
    rgb,
)

INKS = [f.name for f in dataclasses.fields(LIGHT) if f.name != "name"]
DATA = {c.upper() for c in CLASS_COLORS} | {registry.get(k).colour.upper() for k in registry.keys()}


@pytest.mark.parametrize(
    ("fg", "bg", "published"),
    [
        ("#000000", "#FFFFFF", 21.0),  # the maximum
        ("#767676", "#FFFFFF", 4.54),  # the lightest grey that passes AA on white (WebAIM)
        ("#777777", "#FFFFFF", 4.48),  # and the first that fails
        ("#0000FF", "#FFFFFF", 8.59),  # pure blue (WebAIM's checker)
        ("#FF0000", "#FFFFFF", 4.0),  # pure red
    ],
)
def test_contrast_matches_published_wcag_values(fg, bg, published):
    assert contrast(fg, bg) == pytest.approx(published, abs=0.01)


def test_both_themes_name_the_same_distinct_inks_and_no_data_colour():
    assert [f.name for f in dataclasses.fields(DARK)] == [f.name for f in dataclasses.fields(LIGHT)]
    light = [getattr(LIGHT, n).upper() for n in INKS]
    assert len(set(light)) == len(light)  # each ink repaints to one ink
    assert not set(light) & DATA  # a class's or a learner's colour is never repainted


def test_paint_text_repaints_every_ink_and_nothing_else():
    text = json.dumps({n: getattr(LIGHT, n).lower() for n in INKS} | {"data": sorted(DATA)})
    dark = json.loads(paint_text(text, DARK))
    assert {n: dark[n] for n in INKS} == {n: getattr(DARK, n) for n in INKS}
    assert dark["data"] == sorted(DATA)
    assert paint_text(text, LIGHT) == text
    assert paint_text("#1111111", DARK) == "#1111111"  # (not an ink: a longer hex)


@pytest.mark.parametrize("theme", list(THEMES.values()), ids=list(THEMES))
@pytest.mark.parametrize("color", sorted(DATA))
def test_readable_reads_and_keeps_the_hue(theme, color):
    got = readable(color, theme.paper)
    assert contrast(got, theme.paper) >= 4.5
    if contrast(color, theme.paper) >= 4.5:
        assert got == color
    else:
        h0, _, s0 = colorsys.rgb_to_hls(*(v / 255 for v in rgb(color)[:3]))
        h1, _, s1 = colorsys.rgb_to_hls(*(v / 255 for v in rgb(got)[:3]))
        if s0 > 0.1:  # a colour, not a grey: the same hue
            assert min(abs(h0 - h1), 1 - abs(h0 - h1)) < 0.03, (color, got)


def _texts(fig: dict) -> list[tuple[str, str]]:
    """(text colour, the opaque colour behind it) of every text of a figure dict."""
    layout = fig["layout"]
    paper = layout.get("paper_bgcolor", "#FFFFFF")

    def opaque(color: str) -> str:
        return "#" + "".join(f"{round(v):02X}" for v in over(color, paper))

    out = []
    for name, axis in layout.items():
        if re.fullmatch(r"[xy]axis\d*", name):
            for font in (axis.get("tickfont"), (axis.get("title") or {}).get("font")):
                if font and font.get("color"):
                    out.append((font["color"], paper))
    for ann in layout.get("annotations", []):
        color = (ann.get("font") or {}).get("color")
        if color:
            out.append((color, opaque(ann["bgcolor"]) if ann.get("bgcolor") else paper))
    for trace in fig["data"]:
        color = (trace.get("textfont") or {}).get("color")
        for c in color if isinstance(color, list) else [color] if color else []:
            out.append((c, paper))
    return out


def _figures():
    from olearn.teaching.cw_walk import cw_update
    from olearn.teaching.settings import PlaygroundRun, SpaScenario, default_cw
    from olearn.teaching.spa_walk import narrate, spa_solve
    from olearn.viz.spa import spa_step_figure
    from olearn.viz.stream import curves_parts, planes_parts
    from olearn.viz.walks import cw_figure

    scenario = SpaScenario("printed-II", "II", 0.3)
    walk = narrate(spa_solve(scenario.instance(), scenario.variant, scenario.C), "en")
    run = PlaygroundRun(("perceptron", "pa", "arow"), "blobs", 60, 3, 0.0, seed=0).stream()
    yield "spa", spa_step_figure(walk, 6)
    yield "planes", planes_parts(run, "en", True, 400, 30, "s")[0]
    yield "curves", curves_parts(run, "en", 300, 30, "s")[0]
    yield "cw", cw_figure(cw_update(default_cw("arow"), 6), "en")


@pytest.mark.parametrize("theme", list(THEMES.values()), ids=list(THEMES))
def test_a_painted_figure_takes_the_themes_inks_and_its_texts_read(theme):
    for name, fig in _figures():
        painted = paint(fig, theme)
        text = painted.to_json(validate=False)
        if theme is DARK:  # no light ink is left, and the figure is no white box
            left = [
                n
                for n in INKS
                if re.search(re.escape(getattr(LIGHT, n)) + "(?![0-9A-F])", text, re.I)
            ]
            assert not left, (name, left)
        layout = json.loads(text)["layout"]
        assert layout["paper_bgcolor"] == theme.paper, name
        low = [(c, b) for c, b in _texts(json.loads(text)) if contrast(c, b) < 4.5]
        assert not low, (name, low)


def test_the_misprint_highlight_is_the_alert_ink():
    """The SPA page's formulas colour the misprinted term with ``spa_walk.HL``: it must be
    the alert ink, so the dark theme repaints it (teaching sits above viz and cannot import
    it)."""
    from olearn.teaching.spa_walk import HL

    assert HL.upper() == LIGHT.alert.upper()
    assert paint_text(rf"\textcolor{{{HL}}}{{x}}", DARK) == rf"\textcolor{{{DARK.alert}}}{{x}}"
