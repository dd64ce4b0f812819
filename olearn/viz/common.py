"""Shared figure styling: one template, fonts a projector can carry, PNG download from the
modebar.

Every figure that passes through :func:`style` gets the theme's text colour (its inks:
:mod:`olearn.viz.theme`) at :data:`MIN_FONT` px or more: the global font, axis ticks and titles,
the legend, and every annotation (smaller annotation fonts are raised, grey ones darkened).
Markers of the figure builders should be at least :data:`MARKER` px.

>>> fig = style(__import__("plotly.graph_objects").graph_objects.Figure(), height=300)
>>> fig.layout.height, fig.layout.font.size, fig.layout.font.color
(300, 16, '#111111')
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from olearn.viz.palette import CLASS_COLORS, TEXT_FONT
from olearn.viz.theme import LIGHT

MIN_FONT = 16  # px: the smallest text in any figure (a projector at the back of a room)
TITLE_FONT = 19  # px
MARKER = 10  # px: the default marker size of data points
TEXT_COLOR = LIGHT.text  # dark text, never Plotly's default grey
FONT = dict(family=TEXT_FONT["family"], size=MIN_FONT, color=TEXT_COLOR)
AXIS_TEXT = dict(
    tickfont=dict(size=MIN_FONT, color=TEXT_COLOR),
    title=dict(font=dict(size=MIN_FONT + 1, color=TEXT_COLOR)),
    color=TEXT_COLOR,
    gridcolor=LIGHT.grid,
    zerolinecolor=LIGHT.pale,
)

# st.plotly_chart(config=PLOTLY_CONFIG): the camera button saves a 2x PNG client-side.
PLOTLY_CONFIG = {
    "displaylogo": False,
    "toImageButtonOptions": {"format": "png", "scale": 2, "filename": "olearn"},
    "modeBarButtonsToRemove": ["lasso2d", "select2d"],
}


def style(
    fig: go.Figure, height: int = 460, title: str | None = None, legend_below: bool = False
) -> go.Figure:
    """Apply the app's look: white template, dark 16 px text everywhere (axes, legend,
    annotations), compact margins, legend on top (or below the plot when subplot titles take
    the top)."""
    if fig._validate:  # unvalidated figures keep no template: Streamlit's theme styles them
        fig.update_layout(template="plotly_white")
    fig.update_layout(
        font=FONT,
        paper_bgcolor=LIGHT.paper,  # the theme's, not the template's (olearn.viz.theme.paint)
        plot_bgcolor=LIGHT.paper,
        height=height,
        margin=dict(l=60, r=20, t=105 if title else 60, b=55),
        legend=dict(
            orientation="h",
            yanchor="bottom",
            y=1.01,
            xanchor="left",
            x=0,
            font=dict(size=MIN_FONT, color=TEXT_COLOR),
        ),
        hoverlabel=dict(font_size=MIN_FONT),
    )
    fig.update_xaxes(**AXIS_TEXT)
    fig.update_yaxes(**AXIS_TEXT)
    _legible_annotations(fig)
    if legend_below:
        fig.update_layout(legend=dict(yanchor="top", y=-0.18), margin=dict(b=90))
    if title:
        fig.update_layout(title=_title(title, TITLE_FONT))
    return fig


def _title(text: str, size: int) -> dict:
    """A figure title at the top left of the container."""
    return dict(
        text=text,
        x=0.01,
        y=0.985,
        yanchor="top",
        yref="container",
        font=dict(size=size, color=TEXT_COLOR),
    )


# the axes of a dict-built figure, which has no template: plotly_white's look, dark text
_FAST_AXIS = dict(
    tickfont=dict(size=MIN_FONT, color=TEXT_COLOR),
    title_font=dict(size=MIN_FONT, color=TEXT_COLOR),
    gridcolor=LIGHT.grid,
    zerolinecolor=LIGHT.pale,
    linecolor=LIGHT.axis,
)


def style_fast(fig: FastFigure, height: int, title: str | None = None) -> go.Figure:
    """:func:`style` for a :class:`FastFigure` (built as dicts, validated never): white
    background, dark :data:`MIN_FONT` px text on the axes and every annotation; returns the
    plotly figure.  (Its axis titles are :data:`MIN_FONT` px and its title one px smaller than
    :func:`style`'s, as the CW page's figures have always been drawn.)"""
    for name, props in fig.layout.items():
        if name.startswith(("xaxis", "yaxis")):
            title_obj = props.pop("title", None)
            props.update({k: v for k, v in _FAST_AXIS.items() if k not in props})
            if title_obj is not None:
                props["title"] = {**title_obj, "font": dict(size=MIN_FONT, color=TEXT_COLOR)}
    for a in fig.layout["annotations"]:
        a.setdefault("font", {})
        a["font"] = {"color": TEXT_COLOR, **a["font"], "size": MIN_FONT}
    fig.update_layout(
        height=height,
        font=dict(FONT),  # a copy: the layout is a plain dict, not plotly's
        paper_bgcolor=LIGHT.paper,
        plot_bgcolor=LIGHT.paper,
        hoverlabel=dict(font_size=MIN_FONT),
    )
    if title:
        fig.update_layout(title=_title(title, TITLE_FONT - 1))
    return fig.figure()


def _legible_annotations(fig: go.Figure) -> None:
    """Raise every annotation's font to :data:`MIN_FONT` and darken grey text."""
    for a in fig.layout.annotations or ():
        size = a.font.size if a.font is not None else None
        if size is None or size < MIN_FONT:
            a.font.size = MIN_FONT
        color = a.font.color
        if color is None or _is_grey(str(color)):
            a.font.color = TEXT_COLOR


def _is_grey(color: str) -> bool:
    """Light greys (``#888`` and lighter, not a hue): too faint for text on a projector.
    ``#777777`` (the Perceptron's colour) and darker stay.

    >>> _is_grey("#888888"), _is_grey("#777777"), _is_grey("#0072B2"), _is_grey("grey")
    (True, False, False, True)
    """
    c = color.strip().lower()
    if c in ("grey", "gray", "darkgrey", "darkgray", "lightgrey", "lightgray", "silver"):
        return True
    if not c.startswith("#") or len(c) not in (4, 7):
        return False
    h = c[1:]
    if len(h) == 3:
        h = "".join(ch * 2 for ch in h)
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return max(r, g, b) - min(r, g, b) < 16 and min(r, g, b) > 0x80


def region_colorscale(K: int, alpha: float = 0.22) -> list:
    """A discrete colorscale mapping class index 0..K-1 (as heatmap z) to its colour."""
    from olearn.viz.palette import rgba

    if K == 1:
        return [[0, rgba(CLASS_COLORS[0], alpha)], [1, rgba(CLASS_COLORS[0], alpha)]]
    scale = []
    for k in range(K):
        c = rgba(CLASS_COLORS[k % len(CLASS_COLORS)], alpha)
        scale += [[k / K, c], [(k + 1) / K, c]]
    return scale


def argmax_grid(W: np.ndarray, bias: np.ndarray | None, box: tuple, steps: int = 90):
    """Class index of ``argmax_u w_u.z (+ b_u)`` on a ``steps x steps`` grid over
    ``box = (x0, x1, y0, y1)``: returns (xs, ys, Z, top_gap) with ``top_gap`` the difference
    between the best and the second-best score (the margin band is ``top_gap < 1``)."""
    xs = np.linspace(box[0], box[1], steps)
    ys = np.linspace(box[2], box[3], steps)
    gx, gy = np.meshgrid(xs, ys)
    S = gx[..., None] * W[:, 0] + gy[..., None] * W[:, 1]  # (steps, steps, K)
    if bias is not None:
        S = S + bias
    part = np.sort(S, axis=-1)
    gap = part[..., -1] - part[..., -2] if W.shape[0] > 1 else np.full(gx.shape, np.inf)
    return xs, ys, np.argmax(S, axis=-1), gap


def _ring(poly: np.ndarray, digits: int = 4) -> tuple[list, list]:
    """A polygon's vertices closed back to the first (plotly's fill="toself" path)."""
    if len(poly) == 0:
        return [], []
    closed = np.vstack([poly, poly[:1]]).round(digits)
    return closed[:, 0].tolist(), closed[:, 1].tolist()


def _joined(parts: list[tuple[list, list]]) -> tuple[list, list]:
    """Several paths in one trace, separated by None gaps."""
    xs: list = []
    ys: list = []
    for x, y in parts:
        if x:
            if xs:
                xs.append(None)
                ys.append(None)
            xs += x
            ys += y
    return xs, ys


def region_shapes(
    W: np.ndarray, bias: np.ndarray | None, box: tuple, band: bool = True
) -> dict[str, list]:
    """The exact decision regions of ``argmax_u w_u . x + b_u`` in ``box``, as trace data
    (see :mod:`olearn.teaching.regions`): ``{"regions": [(x, y) per class], "band": (x, y),
    "edges": (x, y)}``: straight-edged polygons and segments, never a pixel grid."""
    from olearn.teaching.regions import argmax_regions, boundaries, margin_bands

    regions = [_ring(p) for p in argmax_regions(W, bias, box)]
    bands = _joined([_ring(p) for p in margin_bands(W, bias, box).values()]) if band else ([], [])
    edges = _joined(
        [
            (seg[:, 0].round(4).tolist(), seg[:, 1].round(4).tolist())
            for seg in boundaries(W, bias, box).values()
        ]
    )
    return {"regions": regions, "band": bands, "edges": edges}


BAND_FILL = LIGHT.band
EDGE_COLOR = LIGHT.edge


def region_traces(
    W: np.ndarray,
    bias: np.ndarray | None,
    box: tuple,
    band: bool = True,
    alpha: float = 0.22,
    xaxis: str = "x",
    *,
    yaxis: str = "y",
) -> list[dict]:
    """Plotly traces (plain dicts, scatter only) of :func:`region_shapes`: one filled
    polygon per class in its class colour, the grey margin band, and the boundaries as
    dark straight lines.  A drop-in for a heatmap of :func:`argmax_grid`, with exact edges:

    >>> tr = region_traces(np.array([[1.0, 0], [-1, 0]]), None, (-1, 1, -1, 1))
    >>> [t.get("name") for t in tr], [abs(v) for v in tr[-1]["x"]]
    (['class 0', 'class 1', 'band', 'boundary'], [0.0, 0.0])
    """
    from olearn.viz.palette import rgba

    shapes = region_shapes(W, bias, box, band)
    common = dict(type="scatter", mode="lines", hoverinfo="skip", showlegend=False)
    traces = [
        dict(
            common,
            x=x,
            y=y,
            fill="toself",
            fillcolor=rgba(CLASS_COLORS[u % len(CLASS_COLORS)], alpha),
            line=dict(width=0),
            name=f"class {u}",
            xaxis=xaxis,
            yaxis=yaxis,
        )
        for u, (x, y) in enumerate(shapes["regions"])
    ]
    bx, by = shapes["band"]
    traces.append(
        dict(
            common,
            x=bx,
            y=by,
            fill="toself",
            fillcolor=BAND_FILL,
            line=dict(width=0),
            name="band",
            xaxis=xaxis,
            yaxis=yaxis,
        )
    )
    ex, ey = shapes["edges"]
    traces.append(
        dict(
            common,
            x=ex,
            y=ey,
            line=dict(color=EDGE_COLOR, width=2.5),
            name="boundary",
            xaxis=xaxis,
            yaxis=yaxis,
        )
    )
    return traces


class FastFigure:
    """A plotly figure assembled as plain dicts and validated never: ``add_trace(dict, row,
    col)``, ``update_xaxes/yaxes(row, col, **props)``, ``update_layout(**props)``, then
    :meth:`figure`.  plotly's object model re-validates on every call (an ``add_annotation``
    re-validates all previous ones), which costs 100+ ms on a busy figure; this costs ~10 ms.

    >>> f = FastFigure(cols=2, titles=["a", "b"])
    >>> f.add_trace(dict(type="scatter", x=[0], y=[1]), col=2)
    >>> f.figure().data[0].xaxis
    'x2'
    """

    def __init__(self, cols: int = 1, widths=None, spacing: float = 0.1, titles=None):
        widths = widths or [1.0 / cols] * cols
        usable = 1.0 - spacing * (cols - 1)
        self.data: list[dict] = []
        self.layout: dict = {"annotations": [], "shapes": []}
        start = 0.0
        for c in range(cols):
            end = start + usable * widths[c] / sum(widths)
            sx = "" if c == 0 else str(c + 1)
            self.layout[f"xaxis{sx}"] = {"domain": [start, end], "anchor": f"y{sx}"}
            self.layout[f"yaxis{sx}"] = {"domain": [0.0, 1.0], "anchor": f"x{sx}"}
            if titles:
                self.layout["annotations"].append(
                    dict(
                        text=titles[c],
                        x=(start + end) / 2,
                        y=1.0,
                        xref="paper",
                        yref="paper",
                        xanchor="center",
                        yanchor="bottom",
                        showarrow=False,
                        font=dict(size=MIN_FONT + 1, color=TEXT_COLOR),
                    )
                )
            start = end + spacing

    @staticmethod
    def axes(col: int = 1) -> tuple[str, str]:
        return ("x", "y") if col == 1 else (f"x{col}", f"y{col}")

    def add_trace(self, trace: dict, row: int = 1, col: int = 1) -> None:
        xa, ya = self.axes(col)
        self.data.append({**trace, "xaxis": xa, "yaxis": ya})

    def _axis(self, name: str, props: dict) -> None:
        title = props.pop("title_text", None)
        if title is not None:
            props["title"] = {"text": title}
        self.layout[name].update(props)

    def update_xaxes(self, row: int = 1, col: int = 1, **props) -> None:
        self._axis("xaxis" + ("" if col == 1 else str(col)), props)

    def update_yaxes(self, row: int = 1, col: int = 1, **props) -> None:
        self._axis("yaxis" + ("" if col == 1 else str(col)), props)

    def update_layout(self, **props) -> None:
        self.layout.update(props)

    def figure(self) -> go.Figure:
        return go.Figure(data=self.data, layout=self.layout, _validate=False)
