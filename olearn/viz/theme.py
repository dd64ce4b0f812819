"""The figures' colours in one place: a light and a dark set of the same named inks.

Every figure builder draws with :data:`LIGHT`'s inks (``LIGHT.text``, ``LIGHT.edge``, ...), read
from here and nowhere else; data colours (classes, algorithms) come from
:mod:`olearn.viz.palette` and stay the same in both themes.  A figure is shown in another
theme by :func:`paint`: each of LIGHT's inks becomes the same ink of that theme (the inks are
distinct strings, so a figure's JSON, a frame's, or a formula's ``\\textcolor`` is repainted by
replacing them), then every text of the figure is made legible on its background
(:func:`legible`: a colour that reads below WCAG's 4.5:1 there is darkened, or lightened, to
the nearest one that reads, keeping its hue).

>>> contrast("#111111", "#FFFFFF") > 18, contrast("#FFFFFF", "#FFFFFF")
(True, 1.0)
>>> paint_text('{"color": "#111111"}', DARK)
'{"color": "#F2F2F2"}'
>>> contrast(readable("#E69F00", LIGHT.paper), LIGHT.paper) >= 4.5
True
"""

from __future__ import annotations

import dataclasses
import json
import re
import weakref
from collections import OrderedDict

MIN_CONTRAST = 4.5  # WCAG 2 AA for text


@dataclasses.dataclass(frozen=True)
class Theme:
    """The inks of one theme (CSS colours).  In :data:`LIGHT` every value is distinct."""

    name: str
    paper: str  # the figure's background, as the app's page
    text: str  # every text, the axes' titles and ticks, the current example x
    edge: str  # decision boundaries, arrows, marker outlines
    soft: str  # secondary lines: error bars, the outlines of bars and points
    axis: str  # axis lines, the margin band's edges
    muted: str  # the state before an update, open markers
    faint: str  # guides: the diagonal, the path of the mean, the map's arrows
    pale: str  # zero lines, bars left out
    grid: str  # grid lines
    band: str  # the margin band's fill
    label_bg: str  # the box behind a label drawn over the data
    alert: str  # what the lecture warns about: the misprinted term, the cap, "now"
    alert_text: str  # a warning written on the figure
    alert_fill: str  # the region a warning covers

    def inks(self) -> dict[str, str]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "name"}


LIGHT = Theme(
    name="light",
    paper="#FFFFFF",
    text="#111111",
    edge="#222222",
    soft="#333333",
    axis="#444444",
    muted="#666666",
    faint="#999999",
    pale="#C8C8C8",
    grid="#E5E5E5",
    band="rgba(40,40,40,0.17)",
    label_bg="rgba(255,255,255,0.85)",
    alert="#C00000",
    alert_text="#8B0000",
    alert_fill="rgba(200,0,0,0.07)",
)
DARK = Theme(  # on Streamlit's dark background (the app's theme.dark.backgroundColor)
    name="dark",
    paper="#0E1117",
    text="#F2F2F2",
    edge="#E6E6E6",
    soft="#CFCFCF",
    axis="#B0B0B0",
    muted="#A6A6A6",
    faint="#8C8C8C",
    pale="#5A5F69",
    grid="#262B36",
    band="rgba(235,235,235,0.20)",
    label_bg="rgba(14,17,23,0.85)",
    alert="#FF6B6B",
    alert_text="#FF9C9C",
    alert_fill="rgba(255,90,90,0.14)",
)
THEMES = {"light": LIGHT, "dark": DARK}


# -- WCAG contrast ---------------------------------------------------------------------------


def rgb(color: str) -> tuple[float, float, float, float]:
    """``"#RRGGBB"``, ``"#RGB"``, ``"rgb(r,g,b)"`` or ``"rgba(r,g,b,a)"`` -> (r, g, b, alpha).

    >>> rgb("#0072B2"), rgb("rgba(40,40,40,0.17)")
    ((0.0, 114.0, 178.0, 1.0), (40.0, 40.0, 40.0, 0.17))
    """
    c = color.strip().lower()
    if c.startswith("#"):
        h = c[1:]
        if len(h) == 3:
            h = "".join(ch * 2 for ch in h)
        return float(int(h[0:2], 16)), float(int(h[2:4], 16)), float(int(h[4:6], 16)), 1.0
    nums = [float(v) for v in re.findall(r"[-+]?\d*\.?\d+", c)]
    if c.startswith("rgb") and len(nums) >= 3:
        return nums[0], nums[1], nums[2], nums[3] if len(nums) > 3 else 1.0
    named = {"white": (255.0, 255.0, 255.0), "black": (0.0, 0.0, 0.0)}
    if c in named:
        return (*named[c], 1.0)
    raise ValueError(f"not a colour this module reads: {color!r}")


def over(color: str, background: str) -> tuple[float, float, float]:
    """``color`` composited over the opaque ``background`` (its alpha applied)."""
    r, g, b, a = rgb(color)
    br, bg, bb, _ = rgb(background)
    return r * a + br * (1 - a), g * a + bg * (1 - a), b * a + bb * (1 - a)


def luminance(r: float, g: float, b: float) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0-255 channels)."""

    def lin(v: float) -> float:
        v /= 255.0
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(color: str, background: str) -> float:
    """WCAG 2 contrast ratio of ``color`` (its alpha applied) on the opaque ``background``."""
    a = luminance(*over(color, background))
    b = luminance(*over(background, background))
    hi, lo = max(a, b), min(a, b)
    return round((hi + 0.05) / (lo + 0.05), 4)


def readable(color: str, background: str, ratio: float = MIN_CONTRAST) -> str:
    """``color`` if it reads on ``background`` (contrast >= ``ratio``), else the colour of the
    same hue mixed towards black (on a light background) or white (on a dark one) just far
    enough to read, as ``#RRGGBB``."""
    if contrast(color, background) >= ratio:
        return color
    base = over(color, background)
    toward = 0.0 if luminance(*over(background, background)) > 0.18 else 255.0
    lo, hi = 0.0, 1.0  # the share of black / white to mix in
    for _ in range(20):
        mid = (lo + hi) / 2
        mixed = "#" + "".join(f"{round(v + (toward - v) * mid):02X}" for v in base)
        if contrast(mixed, background) >= ratio:
            hi = mid
        else:
            lo = mid
    return "#" + "".join(f"{round(v + (toward - v) * hi):02X}" for v in base)


# -- painting a figure in a theme ------------------------------------------------------------


def _pattern() -> re.Pattern:
    inks = sorted(set(LIGHT.inks().values()), key=len, reverse=True)
    parts = [re.escape(v) + (r"(?![0-9A-Fa-f])" if v.startswith("#") else "") for v in inks]
    return re.compile("|".join(parts), re.IGNORECASE)


_LIGHT_INKS = _pattern()
_NAME_OF = {v.upper(): k for k, v in LIGHT.inks().items()}
assert len(_NAME_OF) == len(LIGHT.inks()), "LIGHT's inks must be distinct"


def paint_text(text: str, theme: Theme) -> str:
    """``text`` (a figure's JSON, frames, a formula) with each of LIGHT's inks as ``theme``'s."""
    if theme is LIGHT:
        return text
    return _LIGHT_INKS.sub(lambda m: getattr(theme, _NAME_OF[m.group(0).upper()]), text)


def _fix(font: dict, background: str) -> None:
    """Make ``font["color"]`` (a colour, or one per point) legible on ``background``."""
    color = font.get("color")
    try:
        if isinstance(color, str):
            font["color"] = readable(color, background)
        elif isinstance(color, list):
            font["color"] = [readable(c, background) if isinstance(c, str) else c for c in color]
    except ValueError:  # a colour name this module does not read: left as it is
        pass


def legible(figure: dict, theme: Theme) -> dict:
    """Every text colour of ``figure`` (a plotly figure as a dict: the global font, titles,
    axes, legend, annotations, text traces and their frames) made legible on the theme's
    paper (an annotation on its own box: on that box), in place; returns ``figure``."""
    paper = theme.paper
    layout = figure.get("layout", {})
    fonts = [layout.get("font"), *((layout.get(k) or {}).get("font") for k in ("legend", "title"))]
    for font in fonts:
        if isinstance(font, dict):
            _fix(font, paper)
    for name, axis in layout.items():
        if re.fullmatch(r"[xy]axis\d*", name) and isinstance(axis, dict):
            for font in (axis.get("tickfont"), (axis.get("title") or {}).get("font")):
                if isinstance(font, dict):
                    _fix(font, paper)
    for ann in layout.get("annotations", []) or []:
        if isinstance(ann.get("font"), dict):
            box = ann.get("bgcolor")
            behind = paper
            if isinstance(box, str):
                try:
                    behind = "#" + "".join(f"{round(v):02X}" for v in over(box, paper))
                except ValueError:
                    pass
            _fix(ann["font"], behind)
    for trace in [*figure.get("data", [])] + [
        tr for frame in figure.get("frames", []) or [] for tr in frame.get("data", [])
    ]:
        if isinstance(trace.get("textfont"), dict):
            _fix(trace["textfont"], paper)
    return figure


_PAINTED: OrderedDict = OrderedDict()  # (theme, figure JSON) -> painted JSON, the newest last


def paint_json(text: str, theme: Theme) -> str:
    """A figure's (or a frame list's) JSON in ``theme``: inks repainted, texts legible.
    Remembered for the 64 JSON strings painted last (the pages' figures are cached, so the
    same strings come back on every rerun)."""
    key = (theme.name, text)
    if key in _PAINTED:
        _PAINTED.move_to_end(key)
        return _PAINTED[key]
    value = json.loads(paint_text(text, theme))
    if isinstance(value, dict) and ("data" in value or "layout" in value):
        legible(value, theme)
    elif isinstance(value, list):  # frames
        for frame in value:
            if isinstance(frame, dict):
                legible({"data": frame.get("data", []), "layout": frame.get("layout", {})}, theme)
    out = json.dumps(value, separators=(",", ":"))
    _PAINTED[key] = out
    while len(_PAINTED) > 64:
        _PAINTED.popitem(last=False)
    return out


_BY_FIGURE: dict[int, tuple] = {}  # id(figure) -> (a weak reference to it, theme, painted)


def paint(figure, theme: Theme):
    """``figure`` (a plotly ``Figure``) in ``theme``: a new figure (never validated again),
    LIGHT's inks replaced by the theme's and every text legible on its background.  The
    pages' figures are cached and shared, never changed: a figure painted once is remembered
    (while it lives) and not serialised again."""
    import plotly.graph_objects as go

    held = _BY_FIGURE.get(id(figure))
    if held is not None and held[0]() is figure and held[1] == theme.name:
        return held[2]
    painted = go.Figure(
        json.loads(paint_json(figure.to_json(validate=False), theme)), _validate=False
    )
    for key in [k for k, v in _BY_FIGURE.items() if v[0]() is None]:
        del _BY_FIGURE[key]
    _BY_FIGURE[id(figure)] = (weakref.ref(figure), theme.name, painted)
    return painted
