"""Figures of the playground: each learner's plane at time t (decision regions, separating
lines, margin band, the points seen so far, the current example), the running mistake
counts, and for confidence-weighted learners the covariance ellipses in weight space.

Figures are built from plain dicts (no per-trace validation), which keeps a rerun cheap.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from olearn.teaching.strings import t as tt
from olearn.viz.common import argmax_grid, region_colorscale, style
from olearn.viz.palette import EXAMPLE_COLOR, algorithm_color, class_color, rgba

GRID = 100


def _box(X: np.ndarray) -> tuple[float, float, float, float]:
    lo, hi = X.min(axis=0), X.max(axis=0)
    pad = 0.08 * float(np.max(hi - lo)) + 0.3
    return lo[0] - pad, hi[0] + pad, lo[1] - pad, hi[1] + pad


def _axes(i: int) -> tuple[str, str]:
    return ("x", "y") if i == 0 else (f"x{i + 1}", f"y{i + 1}")


def _domains(n: int):
    """Subplot domains (x, y) for 1..4 panels: one row up to two, else a 2 x 2 grid."""
    if n == 1:
        return [((0, 1), (0, 1))]
    if n == 2:
        return [((0, 0.47), (0, 1)), ((0.53, 1), (0, 1))]
    cells = [
        ((0, 0.47), (0.54, 1)),
        ((0.53, 1), (0.54, 1)),
        ((0, 0.47), (0, 0.46)),
        ((0.53, 1), (0, 0.46)),
    ]
    return cells[:n]


def stream_figure(run, t: int, lang: str = "en", band: bool = True) -> go.Figure:
    """Every learner's plane after ``t`` steps, the example ``t`` (the next to arrive)
    highlighted, the points seen so far coloured by class and the mistakes crossed."""
    t = int(min(max(t, 0), run.n))
    box = _box(run.X)
    data, layout = [], {"annotations": []}
    seen = slice(0, t)
    colors = [class_color(k) for k in run.y[seen]]
    for i, key in enumerate(run.keys):
        xa, ya = _axes(i)
        W = run.W[key][t]
        Wp, b = (W[:, :2], W[:, 2]) if run.bias else (W, None)
        xs, ys, Z, gap = argmax_grid(Wp, b, box, steps=GRID)
        data.append(
            dict(
                type="heatmap",
                x=xs,
                y=ys,
                z=Z,
                zmin=-0.5,
                zmax=run.K - 0.5,
                colorscale=region_colorscale(run.K),
                showscale=False,
                hoverinfo="skip",
                xaxis=xa,
                yaxis=ya,
            )
        )
        if band:
            data.append(
                dict(
                    type="heatmap",
                    x=xs,
                    y=ys,
                    z=np.where(gap < 1.0, 1.0, np.nan),
                    colorscale=[[0, "rgba(40,40,40,0.16)"], [1, "rgba(40,40,40,0.16)"]],
                    showscale=False,
                    hoverinfo="skip",
                    xaxis=xa,
                    yaxis=ya,
                )
            )
        if np.any(W):
            data.append(
                dict(
                    type="contour",
                    x=xs,
                    y=ys,
                    z=Z,
                    showscale=False,
                    contours=dict(coloring="lines", start=0.5, end=run.K - 1.5, size=1),
                    line=dict(color="#222", width=2),
                    colorscale=[[0, "#222"], [1, "#222"]],
                    hoverinfo="skip",
                    xaxis=xa,
                    yaxis=ya,
                )
            )
        S = run.Sigma.get(key)
        if S is not None:  # uncertainty in input space: the std of the score, sqrt(z' S z)
            Sig = S[t]
            gx, gy = np.meshgrid(xs, ys)
            Zf = np.stack([gx, gy] + ([np.ones_like(gx)] if run.bias else []), axis=-1)
            std = np.sqrt(np.maximum(np.einsum("...i,ij,...j->...", Zf, Sig, Zf), 0.0))
            data.append(
                dict(
                    type="contour",
                    x=xs,
                    y=ys,
                    z=std,
                    showscale=False,
                    contours=dict(
                        coloring="lines", showlabels=True, labelfont=dict(size=10, color="#8C2D04")
                    ),
                    line=dict(color="#8C2D04", width=1, dash="dot"),
                    ncontours=6,
                    colorscale=[[0, "#8C2D04"], [1, "#8C2D04"]],
                    hoverinfo="skip",
                    xaxis=xa,
                    yaxis=ya,
                )
            )
        if t:
            data.append(
                dict(
                    type="scatter",
                    x=run.X[seen, 0],
                    y=run.X[seen, 1],
                    mode="markers",
                    showlegend=False,
                    hoverinfo="skip",
                    marker=dict(size=6, color=colors, line=dict(width=0.5, color="#333")),
                    xaxis=xa,
                    yaxis=ya,
                )
            )
            wrong = np.flatnonzero(run.mistakes[key][:t])
            if wrong.size:
                data.append(
                    dict(
                        type="scatter",
                        x=run.X[wrong, 0],
                        y=run.X[wrong, 1],
                        mode="markers",
                        showlegend=False,
                        hoverinfo="skip",
                        marker=dict(symbol="x-thin", size=7, line=dict(width=1.5, color="#222")),
                        xaxis=xa,
                        yaxis=ya,
                    )
                )
        if t < run.n:
            data.append(
                dict(
                    type="scatter",
                    x=[run.X[t, 0]],
                    y=[run.X[t, 1]],
                    mode="markers",
                    showlegend=False,
                    hoverinfo="skip",
                    marker=dict(
                        size=17,
                        color=class_color(run.y[t]),
                        symbol="star",
                        line=dict(width=2, color=EXAMPLE_COLOR),
                    ),
                    xaxis=xa,
                    yaxis=ya,
                )
            )
        (dx, dy) = _domains(len(run.keys))[i]
        suffix = "" if i == 0 else str(i + 1)
        layout[f"xaxis{suffix}"] = dict(
            domain=dx, range=box[:2], anchor=ya, showgrid=False, zeroline=False
        )
        layout[f"yaxis{suffix}"] = dict(
            domain=dy, range=box[2:], anchor=xa, showgrid=False, zeroline=False, scaleanchor=xa
        )
        count = int(run.mistakes[key][:t].sum())
        layout["annotations"].append(
            dict(
                text=f"<span style='color:{algorithm_color(key)}'>■</span> <b>{run.names[i]}</b>: "
                f"{count} / {t} {tt('play.mistakes', lang)}",
                x=(dx[0] + dx[1]) / 2,
                y=dy[1],
                xref="paper",
                yref="paper",
                yanchor="bottom",
                showarrow=False,
                font=dict(size=15, color="#222"),
            )
        )
    fig = go.Figure(data=data, layout=layout, _validate=False)
    rows = 1 if len(run.keys) <= 2 else 2
    return style(fig, height=430 * rows)


def mistakes_figure(run, t: int, lang: str = "en") -> go.Figure:
    """Cumulative online mistakes of every learner over the stream, with t marked."""
    steps = np.arange(run.n + 1)
    data = [
        dict(
            type="scatter",
            x=steps,
            y=np.concatenate([[0], np.cumsum(run.mistakes[k])]),
            mode="lines",
            name=run.names[i],
            line=dict(color=algorithm_color(k), width=2.5),
        )
        for i, k in enumerate(run.keys)
    ]
    layout = dict(
        shapes=[
            dict(
                type="line",
                x0=int(t),
                x1=int(t),
                y0=0,
                y1=1,
                yref="paper",
                line=dict(color="#C00000", dash="dash"),
            )
        ],
        xaxis=dict(title=dict(text="t")),
        yaxis=dict(title=dict(text=tt("play.cum_mistakes", lang)), rangemode="tozero"),
    )
    return style(go.Figure(data=data, layout=layout, _validate=False), height=300)


def weight_space_figure(run, t: int, lang: str = "en") -> go.Figure | None:
    """For confidence-weighted learners: each class mean mu_k (features 1, 2) with the 1-sigma
    ellipse of the shared covariance around it; None when no such learner runs."""
    from olearn.core.cw import covariance_ellipse, ellipse_points

    keys = [k for k in run.keys if run.Sigma.get(k) is not None]
    if not keys:
        return None
    data = []
    for k in keys:
        i = run.keys.index(k)
        W, S = run.W[k][int(t)], run.Sigma[k][int(t)]
        for u in range(run.K):
            pts = ellipse_points(covariance_ellipse(S, center=W[u, :2]), 80)
            data.append(
                dict(
                    type="scatter",
                    x=pts[:, 0],
                    y=pts[:, 1],
                    mode="lines",
                    line=dict(
                        color=class_color(u), width=2, dash="solid" if i % 2 == 0 else "dash"
                    ),
                    fill="toself",
                    fillcolor=rgba(class_color(u), 0.08),
                    name=f"{run.names[i]}: μ_{u} ± 1σ",
                    showlegend=True,
                    hoverinfo="skip",
                )
            )
            data.append(
                dict(
                    type="scatter",
                    x=[W[u, 0]],
                    y=[W[u, 1]],
                    mode="markers",
                    marker=dict(size=10, color=class_color(u), line=dict(width=1, color="#222")),
                    showlegend=False,
                    hoverinfo="skip",
                )
            )
    layout = dict(
        xaxis=dict(title=dict(text="w · feature 1"), zeroline=True),
        yaxis=dict(title=dict(text="w · feature 2"), zeroline=True, scaleanchor="x"),
    )
    fig = go.Figure(data=data, layout=layout, _validate=False)
    return style(fig, height=420, title=tt("play.weight_space", lang))


def placement_figure(points: tuple, lang: str = "en") -> go.Figure:
    """A clickable grid over [-4, 4]^2 (faint dots every 0.25) with the placed points on top:
    clicking a grid dot adds a point there (the page listens to the selection)."""
    g = np.arange(-4.0, 4.0001, 0.5)
    gx, gy = np.meshgrid(g, g)
    data = [
        dict(
            type="scatter",
            x=gx.ravel(),
            y=gy.ravel(),
            mode="markers",
            marker=dict(size=10, color="rgba(120,120,120,0.25)"),
            hoverinfo="x+y",
            showlegend=False,
        )
    ]
    if points:
        P = np.asarray(points, dtype=float)
        data.append(
            dict(
                type="scatter",
                x=P[:, 0],
                y=P[:, 1],
                mode="markers",
                marker=dict(
                    size=12,
                    color=[class_color(int(c)) for c in P[:, 2]],
                    line=dict(width=1, color="#222"),
                ),
                hoverinfo="skip",
                showlegend=False,
            )
        )
    layout = dict(
        xaxis=dict(range=[-4.3, 4.3], zeroline=True, fixedrange=True),
        yaxis=dict(range=[-4.3, 4.3], zeroline=True, fixedrange=True),
        clickmode="event+select",
        dragmode=False,
    )
    fig = go.Figure(data=data, layout=layout, _validate=False)
    fig = style(fig, height=380)
    fig.update_layout(margin=dict(t=20, b=30))
    return fig
