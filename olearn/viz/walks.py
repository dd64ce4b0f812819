"""Figures of the CW, Crammer-Singer, PCVM and SGD pages.

Legibility rules applied here (a projector at 1280x720): every text >= 16 px and dark,
markers >= 10 px, one encoding per meaning (before = grey dashed, after = the learner's colour
solid; a learner always has its registry colour AND dash), lines labelled directly at their
right end (labels pushed apart so they never overlap), axes start at zero or say "log".
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from olearn.teaching.regions import box_polygon, clip_halfplane
from olearn.teaching.strings import num, t
from olearn.viz.common import MIN_FONT, TEXT_COLOR, FastFigure, style, style_fast
from olearn.viz.palette import (
    EXAMPLE_COLOR,
    algorithm_color,
    algorithm_dash,
    class_color,
    rgba,
)
from olearn.viz.theme import LIGHT

BEFORE = LIGHT.muted  # the state before an update: grey, dashed
INK = TEXT_COLOR
FONT = MIN_FONT  # px, every text of these figures
LABEL_GAP = 22  # px between two direct labels


def _normal_pdf(x, mean, sd):
    """The normal density (scipy.stats' ``norm.pdf``, whose import costs a cold page ~0.4 s)."""
    z = (np.asarray(x, dtype=float) - mean) / sd
    return np.exp(-0.5 * z * z) / (sd * np.sqrt(2.0 * np.pi))


def end_labels(fig: go.Figure, items, height_px: float, xaxis: str = "x", yaxis: str = "y"):
    """Label lines directly, just right of the plot at each line's last y.

    ``items``: (text, last y, colour); ``height_px``: the plot area's height in pixels; the
    y axis' range is read from the figure (log axes included).  Labels closer than
    :data:`LABEL_GAP` pixels are pushed apart, keeping their order.
    """
    ax = fig.layout[yaxis.replace("y", "yaxis")]
    log = ax.type == "log"
    ys = [np.log10(max(y, 1e-300)) if log else float(y) for _, y, _ in items]
    if ax.range is not None:
        lo, hi = ax.range
    else:
        lo, hi = min(ys), max(ys)
    span = (hi - lo) or 1.0
    px = [(y - lo) / span * height_px for y in ys]
    order = np.argsort(px)
    placed = list(px)
    for a, b in zip(order[:-1], order[1:]):  # bottom to top, keep LABEL_GAP
        placed[b] = max(placed[b], placed[a] + LABEL_GAP)
    shift = (max(placed) - max(px)) / 2 if len(px) > 1 else 0.0  # re-centre the stack
    for (text, _, color), y, p0, p1 in zip(items, ys, px, placed):
        fig.add_annotation(
            x=1.0,
            xshift=24,  # clear of the last tick label
            xref=f"{xaxis} domain",
            y=y,  # on a log axis plotly places annotations in log10 units
            yref=yaxis,
            text=f"<b>{text}</b>",
            showarrow=False,
            xanchor="left",
            yanchor="middle",
            yshift=p1 - p0 - shift,
            font=dict(size=FONT, color=color),
        )


# --- geometry: exact argmax regions of a linear model in 2-D (olearn.teaching.regions) -------


def region_polygons(W: np.ndarray, b: np.ndarray, box, offset: float = 0.0) -> list[np.ndarray]:
    """For each class u the convex polygon ``{z in box: s_u(z) - s_v(z) >= offset, v != u}``
    with ``s_u(z) = w_u.z + b_u``: offset 0 gives the argmax region (straight edges), offset
    1 the part outside the margin band.  The clipping is :mod:`olearn.teaching.regions`'.

    >>> W, b = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.zeros(2)
    >>> [float(p[:, 0].min().round(3)) for p in region_polygons(W, b, (-1, 1, -1, 1))]
    [0.0, -1.0]
    """
    out = []
    for u in range(W.shape[0]):
        poly = box_polygon(box)
        for v in range(W.shape[0]):
            if v != u and len(poly):
                d = W[u] - W[v]
                poly = clip_halfplane(poly, float(d[0]), float(d[1]), float(b[u] - b[v]) - offset)
        out.append(poly)
    return out


def _closed(poly: np.ndarray, decimals: int = 4) -> tuple[list, list]:
    """The polygon's x and y lists, closed, rounded (a smaller figure to send and redraw)."""
    if len(poly) == 0:
        return [], []
    p = np.round(poly, decimals)
    return [*p[:, 0].tolist(), float(p[0, 0])], [*p[:, 1].tolist(), float(p[0, 1])]


def _box(X):
    lo, hi = X.min(0), X.max(0)
    pad = 0.1 * float(np.max(hi - lo)) + 0.3
    return lo[0] - pad, hi[0] + pad, lo[1] - pad, hi[1] + pad


# --- confidence-weighted -------------------------------------------------------------------


def cw_figure(walk, lang: str = "en", height: int = 430, reveal: bool = True) -> go.Figure:
    """The page's main figure: weight space (the mean's path, the 1-sigma ellipses before /
    after, the half-plane of weights that classify x right) and the margin's distribution
    before / after (the shaded area is Pr[y w.x >= 0] after the update).  ``reveal=False``:
    the state before the update only, on the same axes (predict mode's question).

    Built from plain dicts (:class:`~olearn.viz.common.FastFigure`): a Next must not wait for
    plotly's validation (~0.4 s for this figure, ~20 ms like this)."""
    from olearn.core.cw_geometry import covariance_ellipse, ellipse_points

    tr, x, y = walk.trace, walk.x, walk.y
    after = algorithm_color(walk.rule)
    fig = FastFigure(
        cols=2,
        widths=[0.55, 0.45],
        spacing=0.12,
        titles=[t("cw.fig.weights", lang), t("cw.fig.margin", lang)],
    )
    mus = [np.asarray(tr.mu_before), np.asarray(tr.mu_after)]
    sig = [np.asarray(tr.Sigma_before), np.asarray(tr.Sigma_after)]
    reach = np.vstack([walk.path, *mus])
    R = float(max(np.max(np.abs(reach)) + 1.6 * np.sqrt(np.max(np.diag(sig[0]))), 1.0))
    # the weights classifying x right: y w.x >= 0, a half-plane bounded by a line through 0
    a = y * np.asarray(x, float)
    hx, hy = _closed(clip_halfplane(box_polygon((-R, R, -R, R)), float(a[0]), float(a[1]), 0.0))
    fig.add_trace(
        dict(
            type="scatter",
            x=hx,
            y=hy,
            fill="toself",
            mode="lines",
            fillcolor=rgba(class_color(int(y > 0)), 0.12),
            line=dict(color=INK, width=1.5, dash="dot"),
            name=t("cw.fig.right", lang),
            hoverinfo="skip",
        ),
        col=1,
    )
    fig.add_trace(
        dict(
            type="scatter",
            x=walk.path[:-1, 0].tolist(),
            y=walk.path[:-1, 1].tolist(),
            mode="lines+markers",
            line=dict(color=LIGHT.faint, width=1.5),
            marker=dict(size=6, color=LIGHT.faint),
            name=t("cw.fig.path", lang),
        ),
        col=1,
    )
    styles = [
        (BEFORE, "dash", t("fig.before", lang), t("cw.fig.mu_before", lang)),
        (after, "solid", t("fig.after", lang), t("cw.fig.mu_after", lang)),
    ]
    m_v = [(tr.m, tr.v), (tr.m_after, tr.v_after)]
    sd0 = np.sqrt(max(tr.v, 1e-12))
    lo = min(tr.m, tr.m_after, 0.0) - 3.5 * sd0
    hi = max(tr.m, tr.m_after, 0.0) + 3.5 * sd0
    grid = np.linspace(lo, hi, 300)
    shown = zip(zip(mus, sig), styles, m_v)
    for (mu, S), (color, dash, name, mu_name), (m, v) in list(shown)[: 2 if reveal else 1]:
        pts = ellipse_points(covariance_ellipse(S, center=mu), 100)
        fig.add_trace(
            dict(
                type="scatter",
                x=pts[:, 0].tolist(),
                y=pts[:, 1].tolist(),
                mode="lines",
                line=dict(color=color, width=3, dash=dash),
                name=f"μ ± 1σ ({name})",
                legendgroup=name,
            ),
            col=1,
        )
        fig.add_trace(
            dict(
                type="scatter",
                x=[float(mu[0])],
                y=[float(mu[1])],
                mode="markers",
                name=mu_name,
                showlegend=False,
                marker=dict(size=14, color=color, line=dict(width=1.5, color=LIGHT.paper)),
                legendgroup=name,
            ),
            col=1,
        )
        density = _normal_pdf(grid, m, np.sqrt(max(v, 1e-12)))
        fig.add_trace(
            dict(
                type="scatter",
                x=grid.tolist(),
                y=density.tolist(),
                mode="lines",
                line=dict(color=color, width=3, dash=dash),
                name=name,
                showlegend=False,
                legendgroup=name,
            ),
            col=2,
        )
    # Pr[y w.x >= 0] after: the area right of 0 under the new density
    s1 = np.sqrt(max(tr.v_after, 1e-12))
    pos = grid[grid >= 0]
    peak = float(_normal_pdf(0.0, 0.0, min(s1, sd0)))
    if reveal:
        fig.add_trace(
            dict(
                type="scatter",
                x=[0.0, *pos.tolist(), float(pos[-1]) if len(pos) else 0.0],
                y=[0.0, *_normal_pdf(pos, tr.m_after, s1).tolist(), 0.0],
                mode="lines",
                line=dict(width=0),
                fill="toself",
                fillcolor=rgba(after, 0.2),
                hoverinfo="skip",
                showlegend=False,
            ),
            col=2,
        )
        fig.layout["annotations"].append(  # top right: >= 3.5 sd from both peaks
            dict(
                x=0.99,
                y=0.99,
                xref="x2 domain",
                yref="y2 domain",
                xanchor="right",
                yanchor="top",
                text=f"Pr = {num(tr.prob_after, 3)}",
                showarrow=False,
                font=dict(size=FONT, color=after),
            )
        )
    fig.layout["shapes"].append(
        dict(
            type="line",
            x0=0,
            x1=0,
            y0=0,
            y1=1,
            xref="x2",
            yref="y2 domain",
            line=dict(color=INK, width=1.5),
        )
    )
    fig.update_xaxes(col=1, range=[-R, R], title_text="w₁", constrain="domain")
    fig.update_yaxes(col=1, range=[-R, R], title_text="w₂", scaleanchor="x", constrain="domain")
    fig.update_xaxes(col=2, title_text="y w·x")
    fig.update_yaxes(col=2, title_text=t("cw.fig.density", lang), range=[0, 1.08 * peak])
    top, bottom = 40, 120
    fig.update_layout(  # the legend at the figure's foot, under the axis titles, at any height
        margin=dict(l=60, r=20, t=top, b=bottom),
        legend=dict(
            orientation="h",
            yref="container",
            y=0,
            x=0,
            yanchor="bottom",
            font=dict(size=FONT, color=INK),
        ),
    )
    return style_fast(fig, height)


def cw_input_figure(walk, lang: str = "en", height: int = 380, reveal: bool = True) -> go.Figure:
    """Input space: the stream seen so far, the example x, the boundary mu.z = 0 before
    (grey dashed) and after (the rule's colour; not with ``reveal=False``).  Dict-built,
    like :func:`cw_figure`."""
    tr, x, y, i = walk.trace, walk.x, walk.y, walk.index
    after = algorithm_color(walk.rule)
    box = _box(walk.X)
    fig = FastFigure()
    seen = walk.X[:i]
    fig.add_trace(
        dict(
            type="scatter",
            x=seen[:, 0].tolist(),
            y=seen[:, 1].tolist(),
            mode="markers",
            name=t("cw.fig.seen", lang),
            marker=dict(
                size=10,
                color=[class_color(int(v > 0)) for v in walk.Y[:i]],
                line=dict(width=1, color=LIGHT.soft),
                opacity=0.7,
            ),
        )
    )
    L = 2 * max(map(abs, box))
    boundaries = (
        (np.asarray(tr.mu_before), BEFORE, "dash", t("fig.before", lang)),
        (np.asarray(tr.mu_after), after, "solid", t("fig.after", lang)),
    )
    for mu, color, dash, name in boundaries[: 2 if reveal else 1]:
        if np.linalg.norm(mu) > 0:
            e = np.array([-mu[1], mu[0]]) / np.linalg.norm(mu)
            fig.add_trace(
                dict(
                    type="scatter",
                    x=[-L * e[0], L * e[0]],
                    y=[-L * e[1], L * e[1]],
                    mode="lines",
                    line=dict(color=color, width=3, dash=dash),
                    name=f"μ·z = 0 ({name})",
                )
            )
    fig.add_trace(
        dict(
            type="scatter",
            x=[float(x[0])],
            y=[float(x[1])],
            mode="markers",
            name=t("cw.fig.x", lang, y=f"{y:+d}"),
            marker=dict(
                symbol="star",
                size=22,
                color=class_color(int(y > 0)),
                line=dict(width=2, color=EXAMPLE_COLOR),
            ),
        )
    )
    fig.update_xaxes(range=[box[0], box[1]], title_text="x₁", constrain="domain")
    fig.update_yaxes(range=[box[2], box[3]], title_text="x₂", scaleanchor="x", constrain="domain")
    top, bottom = 60, 130
    fig.update_layout(
        legend=dict(
            orientation="h",
            yref="container",
            y=0,
            x=0,
            yanchor="bottom",
            font=dict(size=FONT, color=INK),
        ),
        margin=dict(l=60, r=20, t=top, b=bottom),
    )
    return style_fast(fig, height, title=t("cw.fig.input", lang))


def noise_figure(table, lang: str = "en", height: int = 380) -> go.Figure:
    """Test error per pass, one line per learner in its registry colour and dash, labelled
    at its right end."""
    fig = go.Figure()
    last = []
    for key, part in table.groupby("key", sort=False):
        name, color = str(part["algorithm"].iloc[0]), algorithm_color(key)
        fig.add_trace(
            go.Scatter(
                x=part["pass"],
                y=part["error %"],
                mode="lines+markers",
                name=name,
                line=dict(color=color, width=3, dash=algorithm_dash(key)),
                marker=dict(size=10, color=color),
                showlegend=False,
            )
        )
        last.append((name, float(part["error %"].iloc[-1]), color))
    # a log axis: the learners that hold (7-12 %) were four touching lines at the foot of a
    # linear one running to CW's 50-60 %; equal ratios now look equally far apart
    errors = table["error %"].to_numpy(dtype=float)
    lo, hi = max(float(errors.min()), 0.1) / 1.25, max(float(errors.max()), 0.1) * 1.25
    fig.update_xaxes(title_text=t("cw.fig.pass", lang), dtick=1)
    fig.update_yaxes(
        title_text=t("cw.fig.error_log", lang),
        type="log",
        range=[np.log10(lo), np.log10(hi)],
        tickvals=[v for v in (1, 2, 5, 10, 20, 50, 100) if lo <= v <= hi],
    )
    style(fig, height=height, title=t("cw.fig.noise", lang))
    fig.update_layout(margin=dict(r=110, t=60))
    end_labels(fig, last, height_px=height - 60 - 50)
    return fig


# --- PCVM ------------------------------------------------------------------------------------


def pcvm_figure(walk, i: int, lang: str = "en", height: int = 440) -> go.Figure:
    """The decision function after EM iteration ``i``: its sign as two shades, the boundary
    y(z) = 0 thick, the training points, the weights left circled."""
    box = _box(walk.X)
    xs, ys = np.linspace(box[0], box[1], 90), np.linspace(box[2], box[3], 90)
    gx, gy = np.meshgrid(xs, ys)
    Z = walk.decision(i, np.column_stack([gx.ravel(), gy.ravel()])).reshape(gx.shape)
    fig = go.Figure()
    fig.add_trace(
        go.Contour(
            x=xs,
            y=ys,
            z=Z,
            showscale=False,
            contours=dict(start=-2, end=2, size=1, coloring="heatmap"),
            opacity=0.35,
            colorscale=[[0, class_color(0)], [0.5, LIGHT.paper], [1, class_color(1)]],
            line=dict(width=1),
            hoverinfo="skip",
        )
    )
    fig.add_trace(
        go.Contour(
            x=xs,
            y=ys,
            z=Z,
            showscale=False,
            contours=dict(start=0, end=0, size=1, coloring="lines"),
            colorscale=[[0, INK], [1, INK]],
            line=dict(width=4),
            hoverinfo="skip",
        )
    )
    cls = (walk.t > 0).astype(int)
    fig.add_trace(
        go.Scatter(
            x=walk.X[:, 0],
            y=walk.X[:, 1],
            mode="markers",
            showlegend=False,
            marker=dict(
                size=10, color=[class_color(k) for k in cls], line=dict(width=1, color=LIGHT.soft)
            ),
        )
    )
    nz = np.flatnonzero(walk.w[i])
    fig.add_trace(
        go.Scatter(
            x=walk.X[nz, 0],
            y=walk.X[nz, 1],
            mode="markers",
            name=t("pcvm.vectors", lang),
            marker=dict(size=22, symbol="circle-open", color=INK, line=dict(width=3, color=INK)),
        )
    )
    h = walk.history.iloc[i]
    fig.update_xaxes(range=[box[0], box[1]], title_text=t("cs.x1", lang), constrain="domain")
    fig.update_yaxes(
        range=[box[2], box[3]], title_text=t("cs.x2", lang), scaleanchor="x", constrain="domain"
    )
    style(
        fig,
        height=height,
        title=t(
            "pcvm.iter_title",
            lang,
            i=int(h["iteration"]),
            gamma=num(h["gamma"], 3),
            nz=int(h["non-zero weights"]),
        ),
    )
    fig.update_layout(
        legend=dict(yref="container", y=0, yanchor="bottom"), margin=dict(t=60, b=110)
    )
    return fig


def pcvm_history_figure(walk, i: int, lang: str = "en", height: int = 440) -> go.Figure:
    """gamma (left, log) and the weights left (right axis) against the EM iteration on a log
    axis: the first iterations, where both move, get most of the width."""
    h = walk.history
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    g_color, nz_color = algorithm_color("pcvm"), "#332288"
    fig.add_trace(
        go.Scatter(
            x=h["iteration"],
            y=h["gamma"],
            name="γ",
            mode="lines+markers",
            line=dict(color=g_color, width=3),
            marker=dict(size=7),
        ),
        secondary_y=False,
    )
    fig.add_trace(
        go.Scatter(
            x=h["iteration"],
            y=h["non-zero weights"],
            name=t("pcvm.nonzero", lang),
            mode="lines+markers",
            line=dict(color=nz_color, width=3, dash="dash"),
            marker=dict(size=7, symbol="square"),
        ),
        secondary_y=True,
    )
    now = int(h["iteration"].iloc[i])
    fig.add_vline(x=now, line_color=INK, line_width=2, line_dash="dot")
    fig.update_xaxes(title_text=t("pcvm.iteration_log", lang), type="log", dtick=1)
    fig.update_yaxes(
        title_text=t("pcvm.gamma_log", lang),
        type="log",
        secondary_y=False,
        title_font=dict(color=g_color),
    )
    fig.update_yaxes(
        title_text=t("pcvm.nonzero", lang),
        secondary_y=True,
        rangemode="tozero",
        tickmode="auto",
        nticks=6,
        title_font=dict(color=nz_color),
        showgrid=False,
    )
    style(fig, height=height, title=t("pcvm.history", lang))
    fig.update_yaxes(title_font=dict(color=g_color), secondary_y=False)
    fig.update_yaxes(title_font=dict(color=nz_color), secondary_y=True)
    fig.update_layout(
        legend=dict(yref="container", y=0, yanchor="bottom"), margin=dict(t=60, b=110)
    )
    return fig


# --- SGD ---------------------------------------------------------------------------------------

SCHEDULE_KEYS = {"global": "sgd-svm", "per-feature": "sgd-svm-pf"}  # registry entries


def _schedule_style(schedule: str) -> tuple[str, str, str]:
    key = SCHEDULE_KEYS[schedule]
    return algorithm_color(key), algorithm_dash(key), key


def sgd_figures(walk, lang: str = "en", height: int = 380) -> tuple[go.Figure, ...]:
    """(objective vs examples, held-out F-measure vs training time, the rates of a frequent
    and a rare feature): each schedule in its registry colour and dash, labelled at its
    right end."""
    obj, f1 = go.Figure(), go.Figure()
    ends_obj, ends_f1 = [], []
    for schedule, part in walk.curves.groupby("schedule", sort=False):
        name = t(f"sgd.{schedule}", lang)
        color, dash, _ = _schedule_style(schedule)
        line = dict(color=color, width=3, dash=dash)
        obj.add_trace(
            go.Scatter(x=part["t"], y=part["objective"], mode="lines", name=name, line=line)
        )
        f1.add_trace(
            go.Scatter(
                x=part["seconds"],
                y=part["F-measure"],
                mode="lines+markers",
                name=name,
                line=line,
                marker=dict(size=8, color=color),
            )
        )
        ends_obj.append((name, float(part["objective"].iloc[-1]), color))
        ends_f1.append((name, float(part["F-measure"].iloc[-1]), color))
    obj.update_xaxes(title_text=t("cmp.t_axis", lang), rangemode="tozero")
    obj.update_yaxes(title_text=t("sgd.objective_log", lang), type="log")
    f1.update_xaxes(title_text=t("sgd.seconds", lang), rangemode="tozero")
    f1.update_yaxes(title_text=t("sgd.f1", lang), range=[0, 1.02])
    top = 60
    for fig, title in ((obj, "sgd.objective"), (f1, "sgd.f1_title")):
        style(fig, height=height, title=t(title, lang))
        fig.update_layout(showlegend=False, margin=dict(l=80, t=top, r=170, b=60))
    values = np.log10(walk.curves["objective"].clip(lower=1e-300))
    obj.update_yaxes(range=[float(values.min()) - 0.05, float(values.max()) + 0.05])
    end_labels(obj, ends_obj, height_px=height - top - 60)
    end_labels(f1, ends_f1, height_px=height - top - 60)
    return obj, f1, sgd_rates_figure(walk, lang, height)


def sgd_rates_figure(walk, lang: str = "en", height: int = 380) -> go.Figure:
    """The learning rate each schedule used on a frequent feature (left) and a rare one
    (right), log axes stated in the titles."""
    features = list(dict.fromkeys(walk.rates["feature"]))
    fig = make_subplots(
        rows=1,
        cols=len(features),
        shared_yaxes=True,
        horizontal_spacing=0.06,
        subplot_titles=[
            t("sgd.feature_title", lang, feature=f, kind=t(f"sgd.kind{i}", lang))
            for i, f in enumerate(features)
        ],
    )
    ends = []
    for col, feature in enumerate(features, start=1):
        for schedule, part in walk.rates[walk.rates["feature"] == feature].groupby(
            "schedule", sort=False
        ):
            color, dash, _ = _schedule_style(schedule)
            fig.add_trace(
                go.Scatter(
                    x=part["t"],
                    y=part["rate"],
                    mode="lines+markers",
                    marker=dict(size=6, color=color),
                    name=t(f"sgd.{schedule}", lang),
                    line=dict(color=color, width=3, dash=dash),
                    showlegend=False,
                ),
                row=1,
                col=col,
            )
            if col == len(features):
                ends.append((t(f"sgd.{schedule}", lang), float(part["rate"].iloc[-1]), color))
        fig.update_xaxes(title_text=t("cmp.t_axis", lang), row=1, col=col)
    fig.update_yaxes(title_text=t("sgd.rate_log", lang), type="log", row=1, col=1)
    fig.update_yaxes(type="log")
    style(fig, height=height, title=t("sgd.rates", lang))
    rates = np.log10(walk.rates["rate"])
    fig.update_yaxes(range=[float(rates.min()) - 0.1, float(rates.max()) + 0.1])
    fig.update_layout(showlegend=False, margin=dict(l=80, t=90, r=170, b=60))
    last = f"x{len(features)}" if len(features) > 1 else "x"
    end_labels(
        fig,
        ends,
        height_px=height - 90 - 60,
        xaxis=last,
        yaxis=last.replace("x", "y"),
    )
    return fig
