"""Shared figure styling: one template, readable fonts, PNG download from the modebar.

>>> fig = style(__import__("plotly.graph_objects").graph_objects.Figure(), height=300)
>>> fig.layout.height
300
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from olearn.viz.palette import CLASS_COLORS, TEXT_FONT

# st.plotly_chart(config=PLOTLY_CONFIG): the camera button saves a 2x PNG client-side.
PLOTLY_CONFIG = {
    "displaylogo": False,
    "toImageButtonOptions": {"format": "png", "scale": 2, "filename": "olearn"},
    "modeBarButtonsToRemove": ["lasso2d", "select2d"],
}


def style(fig: go.Figure, height: int = 460, title: str | None = None) -> go.Figure:
    """Apply the app's look: white template, 14 px font, compact margins, legend on top."""
    fig.update_layout(
        template="plotly_white",
        font=TEXT_FONT,
        height=height,
        margin=dict(l=50, r=20, t=70 if title else 50, b=50),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="left", x=0),
        hoverlabel=dict(font_size=13),
    )
    if title:
        fig.update_layout(title=dict(text=title, x=0.01, font=dict(size=17)))
    return fig


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
