"""Figures of the CW, Crammer-Singer, PCVM and SGD pages."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots
from scipy.stats import norm

from olearn.teaching.strings import t
from olearn.viz.common import argmax_grid, region_colorscale, style
from olearn.viz.palette import EXAMPLE_COLOR, algorithm_color, class_color, rgba

BEFORE, AFTER = "#888888", "#D94801"


# --- confidence-weighted -------------------------------------------------------------------


def cw_figure(walk, lang: str = "en") -> go.Figure:
    """Weight space (means, 1-sigma ellipses, the line y w.x = 0), input space (x and the
    boundaries before / after), and the margin's distribution before / after."""
    from olearn.core.cw import covariance_ellipse, ellipse_points

    tr, x, y = walk.trace, walk.x, walk.y
    fig = make_subplots(
        rows=1,
        cols=3,
        horizontal_spacing=0.08,
        subplot_titles=[
            t("cw.fig.weights", lang),
            t("cw.fig.input", lang),
            t("cw.fig.margin", lang),
        ],
    )
    mus = [np.asarray(tr.mu_before), np.asarray(tr.mu_after)]
    sig = [np.asarray(tr.Sigma_before), np.asarray(tr.Sigma_after)]
    R = float(max(np.max(np.abs(mus)) + 2.2 * np.sqrt(np.max(np.diag(sig[0]))), 1.0))
    # the weights classifying x right: y w.x >= 0, a half-plane bounded by a line through 0
    d = np.array([-x[1], x[0]]) / (np.linalg.norm(x) or 1.0)
    fig.add_trace(
        go.Scatter(
            x=[-2 * R * d[0], 2 * R * d[0]],
            y=[-2 * R * d[1], 2 * R * d[1]],
            mode="lines",
            line=dict(color="#222", dash="dash"),
            name="y w·x = 0",
        ),
        row=1,
        col=1,
    )
    for k, (mu, S, color, name) in enumerate(
        zip(mus, sig, (BEFORE, AFTER), (t("fig.before", lang), t("fig.after", lang)))
    ):
        pts = ellipse_points(covariance_ellipse(S, center=mu), 100)
        fig.add_trace(
            go.Scatter(
                x=pts[:, 0],
                y=pts[:, 1],
                mode="lines",
                fill="toself",
                fillcolor=rgba(color, 0.12),
                line=dict(color=color, width=2),
                name=f"μ ± 1σ ({name})",
                legendgroup=name,
            ),
            row=1,
            col=1,
        )
        fig.add_trace(
            go.Scatter(
                x=[mu[0]],
                y=[mu[1]],
                mode="markers",
                showlegend=False,
                marker=dict(size=11, color=color),
                legendgroup=name,
            ),
            row=1,
            col=1,
        )
        # input space: boundary mu.z = 0 (a line through the origin, normal mu)
        if np.linalg.norm(mu) > 0:
            e = np.array([-mu[1], mu[0]]) / np.linalg.norm(mu)
            fig.add_trace(
                go.Scatter(
                    x=[-2 * e[0], 2 * e[0]],
                    y=[-2 * e[1], 2 * e[1]],
                    mode="lines",
                    line=dict(color=color, width=2.5),
                    showlegend=False,
                ),
                row=1,
                col=2,
            )
        m, v = (tr.m, tr.v) if k == 0 else (tr.m_after, tr.v_after)
        s = np.sqrt(max(v, 1e-12))
        grid = np.linspace(
            min(tr.m, tr.m_after) - 4 * np.sqrt(tr.v),
            max(tr.m, tr.m_after) + 4 * np.sqrt(tr.v),
            300,
        )
        fig.add_trace(
            go.Scatter(
                x=grid,
                y=norm.pdf(grid, m, s),
                mode="lines",
                line=dict(color=color, width=2.5),
                showlegend=False,
                fill="tozeroy",
                fillcolor=rgba(color, 0.08),
            ),
            row=1,
            col=3,
        )
    fig.add_trace(
        go.Scatter(
            x=[x[0]],
            y=[x[1]],
            mode="markers+text",
            text=[f"x (y={y:+d})"],
            textposition="top center",
            marker=dict(
                symbol="star",
                size=16,
                color=class_color(int(y > 0)),
                line=dict(width=1.5, color=EXAMPLE_COLOR),
            ),
            showlegend=False,
        ),
        row=1,
        col=2,
    )
    fig.add_vline(x=0.0, line_color="#222", row=1, col=3)
    fig.update_xaxes(range=[-R, R], row=1, col=1, title_text="w₁")
    fig.update_yaxes(range=[-R, R], row=1, col=1, title_text="w₂", scaleanchor="x")
    fig.update_xaxes(range=[-1.1, 1.1], row=1, col=2, title_text="x₁")
    fig.update_yaxes(range=[-1.1, 1.1], row=1, col=2, title_text="x₂", scaleanchor="x2")
    fig.update_xaxes(title_text="y w·x", row=1, col=3)
    return style(fig, height=470, legend_below=True)


def noise_figure(table, lang: str = "en") -> go.Figure:
    from olearn import registry

    keys = {a.name: a.key for a in registry.ALGORITHMS}
    fig = go.Figure()
    for name, part in table.groupby("algorithm", sort=False):
        fig.add_trace(
            go.Scatter(
                x=part["pass"],
                y=part["error %"],
                mode="lines+markers",
                name=name,
                line=dict(color=algorithm_color(keys.get(name, name)), width=2.5),
            )
        )
    fig.update_xaxes(title_text=t("cw.fig.pass", lang), dtick=1)
    fig.update_yaxes(title_text=t("cmp.error_axis", lang), rangemode="tozero")
    return style(fig, height=360, title=t("cw.fig.noise", lang))


# --- Crammer-Singer ----------------------------------------------------------------------------


def cs_gap_figure(walk, lang: str = "en") -> go.Figure:
    sw = walk.sweeps
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=sw["sweep"],
            y=sw["primal"],
            mode="lines+markers",
            name=t("cs.primal", lang),
            line=dict(color="#6A51A3", width=2.5),
        )
    )
    fig.add_trace(
        go.Scatter(
            x=sw["sweep"],
            y=sw["dual"],
            mode="lines+markers",
            name=t("cs.dual", lang),
            line=dict(color="#41AB5D", width=2.5),
        )
    )
    fig.add_hline(
        y=walk.liblinear_primal,
        line_dash="dash",
        line_color="#C00000",
        annotation_text=t("cs.liblinear", lang),
        annotation_position="bottom right",
    )
    fig.update_xaxes(title_text=t("cs.sweep", lang))
    fig.update_yaxes(title_text=t("cs.objective", lang))
    return style(fig, height=360, title=t("cs.gap_title", lang))


def _plane_traces(fig, X, y, W, b, box, K, highlight=None, row=1, col=1):
    xs, ys, Z, gap = argmax_grid(W, b, box, steps=90)
    fig.add_trace(
        go.Heatmap(
            x=xs,
            y=ys,
            z=Z,
            zmin=-0.5,
            zmax=K - 0.5,
            showscale=False,
            colorscale=region_colorscale(K),
            hoverinfo="skip",
        ),
        row=row,
        col=col,
    )
    fig.add_trace(
        go.Heatmap(
            x=xs,
            y=ys,
            z=np.where(gap < 1.0, 1.0, np.nan),
            showscale=False,
            colorscale=[[0, "rgba(40,40,40,0.15)"], [1, "rgba(40,40,40,0.15)"]],
            hoverinfo="skip",
        ),
        row=row,
        col=col,
    )
    fig.add_trace(
        go.Scatter(
            x=X[:, 0],
            y=X[:, 1],
            mode="markers",
            showlegend=False,
            marker=dict(
                size=8, color=[class_color(k) for k in y], line=dict(width=0.7, color="#333")
            ),
        ),
        row=row,
        col=col,
    )
    if highlight is not None:
        fig.add_trace(
            go.Scatter(
                x=[X[highlight, 0]],
                y=[X[highlight, 1]],
                mode="markers",
                showlegend=False,
                marker=dict(size=20, symbol="circle-open", line=dict(width=3, color=EXAMPLE_COLOR)),
            ),
            row=row,
            col=col,
        )


def _box(X):
    lo, hi = X.min(0), X.max(0)
    pad = 0.1 * float(np.max(hi - lo)) + 0.3
    return lo[0] - pad, hi[0] + pad, lo[1] - pad, hi[1] + pad


def cs_plane_figure(walk, s: int, lang: str = "en") -> go.Figure:
    """The weights after sub-problem ``s`` (regions, margin band), its example circled."""
    W = walk.W[s + 1]
    K = W.shape[0]
    fig = make_subplots(rows=1, cols=1)
    _plane_traces(
        fig, walk.X, walk.y, W[:, :2], W[:, 2], _box(walk.X), K, highlight=walk.steps[s].p
    )
    fig.update_yaxes(scaleanchor="x")
    return style(fig, height=440, title=t("cs.plane_title", lang, s=s + 1, p=walk.steps[s].p))


# --- PCVM ------------------------------------------------------------------------------------


def pcvm_figure(walk, i: int, lang: str = "en") -> go.Figure:
    box = _box(walk.X)
    xs, ys = np.linspace(box[0], box[1], 70), np.linspace(box[2], box[3], 70)
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
            colorscale=[[0, class_color(0)], [0.5, "#ffffff"], [1, class_color(1)]],
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
            colorscale=[[0, "#111"], [1, "#111"]],
            line=dict(width=3),
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
                size=7, color=[class_color(k) for k in cls], line=dict(width=0.5, color="#333")
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
            marker=dict(size=17, symbol="circle-open", line=dict(width=2.5, color="#111")),
        )
    )
    h = walk.history.iloc[i]
    fig.update_yaxes(scaleanchor="x")
    return style(
        fig,
        height=440,
        title=t(
            "pcvm.iter_title",
            lang,
            i=int(h["iteration"]),
            gamma=f"{h['gamma']:.3g}",
            nz=int(h["non-zero weights"]),
        ),
    )


def pcvm_history_figure(walk, i: int, lang: str = "en") -> go.Figure:
    h = walk.history
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    fig.add_trace(
        go.Scatter(
            x=h["iteration"],
            y=h["gamma"],
            name="γ",
            mode="lines",
            line=dict(color="#9E9AC8", width=3),
        ),
        secondary_y=False,
    )
    fig.add_trace(
        go.Scatter(
            x=h["iteration"],
            y=h["non-zero weights"],
            name=t("pcvm.nonzero", lang),
            mode="lines",
            line=dict(color="#54278F", width=2, dash="dot"),
        ),
        secondary_y=True,
    )
    fig.add_vline(x=int(h["iteration"].iloc[i]), line_color="#C00000", line_dash="dash")
    fig.update_xaxes(title_text=t("pcvm.iteration", lang))
    fig.update_yaxes(title_text="γ", type="log", secondary_y=False)
    fig.update_yaxes(title_text=t("pcvm.nonzero", lang), secondary_y=True)
    return style(fig, height=440, title=t("pcvm.history", lang))


# --- SGD ---------------------------------------------------------------------------------------


def sgd_figures(walk, lang: str = "en") -> tuple[go.Figure, go.Figure, go.Figure]:
    """(objective vs examples, held-out F-measure vs training time, the rates of a frequent
    and a rare feature)."""
    colors = {"global": "#6A51A3", "per-feature": "#D94801"}
    obj, f1 = go.Figure(), go.Figure()
    for schedule, part in walk.curves.groupby("schedule"):
        name, color = t(f"sgd.{schedule}", lang), colors[schedule]
        obj.add_trace(
            go.Scatter(
                x=part["t"],
                y=part["objective"],
                mode="lines",
                name=name,
                line=dict(color=color, width=2.5),
            )
        )
        f1.add_trace(
            go.Scatter(
                x=part["seconds"],
                y=part["F-measure"],
                mode="lines+markers",
                name=name,
                line=dict(color=color, width=2.5),
                marker=dict(size=5),
            )
        )
    obj.update_xaxes(title_text=t("cmp.t_axis", lang))
    obj.update_yaxes(title_text="E(w, b)", type="log")
    f1.update_xaxes(title_text=t("sgd.seconds", lang))
    f1.update_yaxes(title_text=t("sgd.f1", lang), range=[0, 1.02])
    rates = go.Figure()
    for (schedule, feature), part in walk.rates.groupby(["schedule", "feature"]):
        rates.add_trace(
            go.Scatter(
                x=part["t"],
                y=part["rate"],
                mode="lines+markers",
                marker=dict(size=4),
                name=f"{t(f'sgd.{schedule}', lang)}: {feature}",
                line=dict(color=colors[schedule], dash="solid" if feature == "x0" else "dot"),
            )
        )
    rates.update_xaxes(title_text=t("cmp.t_axis", lang))
    rates.update_yaxes(title_text=t("sgd.rate", lang), type="log")
    return (
        style(obj, height=380, title=t("sgd.objective", lang)),
        style(f1, height=380, title=t("sgd.f1_title", lang)),
        style(rates, height=380, title=t("sgd.rates", lang)),
    )
