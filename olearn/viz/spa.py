"""Figures of the SPA page: the plane (weights, x, decision regions) and the number line of
scores / margins / Q / tau, redrawn for each sub-step of
:func:`olearn.teaching.spa_walk.spa_walkthrough`; the C curve; PA beside SPA."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from olearn.teaching.strings import t
from olearn.viz.common import FastFigure, region_traces, style
from olearn.viz.palette import EXAMPLE_COLOR, class_color, rgba
from olearn.viz.theme import LIGHT


class _Layer:
    """Annotations and shapes collected as plain dicts and assigned once (plotly re-validates
    every existing annotation on each ``add_annotation``: quadratic and slow)."""

    def __init__(self):
        self.annotations: list[dict] = []
        self.shapes: list[dict] = []

    def annotate(self, **kw) -> None:
        self.annotations.append(kw)

    def vline(
        self,
        x,
        xref,
        yref,
        text=None,
        dash="dash",
        color=LIGHT.edge,
        *,
        width=1.5,
        label_left=False,
        label_top=False,
    ):
        """A vertical line with its label at the bottom, right of the line (or left of it
        when ``label_left``: a line near the right edge keeps its label inside the plot;
        above the plot area with ``label_top``, clear of bars at the bottom)."""
        self.shapes.append(
            dict(
                type="line",
                x0=x,
                x1=x,
                xref=xref,
                y0=0,
                y1=1,
                yref=f"{yref} domain",
                line=dict(color=color, dash=dash, width=width),
            )
        )
        if text:
            self.annotate(
                x=x,
                xref=xref,
                y=1.0 if label_top else 0.0,
                yref=f"{yref} domain",
                text=text,
                showarrow=False,
                xanchor="right" if label_left else "left",
                yanchor="bottom",
                xshift=-4 if label_left else 4,
                font=dict(size=15, color=color),
                bgcolor=LIGHT.label_bg,
            )

    def vrect(self, x0, x1, xref, yref, color, text=None):
        self.shapes.append(
            dict(
                type="rect",
                x0=x0,
                x1=x1,
                xref=xref,
                y0=0,
                y1=1,
                yref=f"{yref} domain",
                fillcolor=color,
                line=dict(width=0),
                layer="below",
            )
        )
        if text:
            self.annotate(
                x=x0,
                xref=xref,
                y=1.0,
                yref=f"{yref} domain",
                text=text,
                showarrow=False,
                xanchor="right",
                yanchor="top",
                xshift=-4,
                font=dict(size=15, color=LIGHT.soft),
            )


def _tip_labels(tips: np.ndarray) -> list[str]:
    """``w<u>`` per class; classes whose arrows end at the same point share one label
    ("w0 = w2") on the first of them, the others get none."""
    labels = [""] * len(tips)
    seen: dict[tuple, int] = {}
    for u, tip in enumerate(tips):
        spot = tuple(np.round(tip, 6))
        if spot in seen:
            labels[seen[spot]] += f" = w{u}"
        else:
            seen[spot] = u
            labels[u] = f"w{u}"
    return labels


def _plane(fig, walk, step, col: int, layer: _Layer) -> None:
    inst = walk.instance
    lang = walk.lang
    W0 = np.asarray(inst.W, dtype=float)
    W1 = np.asarray(walk.W_after, dtype=float)
    x = np.asarray(inst.x, dtype=float)
    K = W0.shape[0]
    shown = W1 if step.stage == "after" else W0
    planar = (lambda W: (W[:, :2], W[:, 2])) if inst.bias else (lambda W: (W, None))
    pts = np.vstack([W0[:, :2], W1[:, :2], x[None, :2], [[0.0, 0.0]]])
    R = float(np.max(np.abs(pts))) * 1.15 + 0.3
    box = (-R, R, -R, R)
    Wp, b = planar(shown)
    for trace in region_traces(Wp, b, box, band=False):  # exact polygons, straight edges
        fig.add_trace(trace, row=1, col=col)
    xref, yref = ("x", "y") if col == 1 else (f"x{col}", f"y{col}")
    hl = set(step.highlight)

    def arrow(tip, color, width, dash=False, text=None):
        layer.annotate(
            x=tip[0],
            y=tip[1],
            ax=0,
            ay=0,
            xref=xref,
            yref=yref,
            axref=xref,
            ayref=yref,
            showarrow=True,
            arrowhead=2,
            arrowsize=1.2,
            arrowwidth=width,
            arrowcolor=color,
            opacity=0.45 if dash else 1.0,
            text="",
            standoff=0,
        )
        if text:
            # the label sits beyond the tip, along the arrow, so labels of arrows pointing
            # different ways never cover each other or the shafts; drawn after every arrow
            # (the example's too), so no shaft crosses a label
            norm = float(np.hypot(tip[0], tip[1])) or 1.0
            labels_last.append(
                dict(
                    x=tip[0],
                    y=tip[1],
                    xref=xref,
                    yref=yref,
                    text=text,
                    showarrow=False,
                    xshift=16 * tip[0] / norm,
                    yshift=16 * tip[1] / norm,
                    font=dict(color=color, size=16),
                    bgcolor=LIGHT.label_bg,
                )
            )

    labels_last: list[dict] = []
    tips = W1 if step.stage == "update" else shown
    labels = _tip_labels(tips[:, :2])
    for u in range(K):
        c = class_color(u)
        w = 3.5 if u in hl else 2.0
        if step.stage == "update":
            arrow(W0[u, :2], c, 1.5, dash=True)
            if np.any(W0[u] != W1[u]):
                fig.add_trace(
                    dict(
                        type="scatter",
                        x=[W0[u, 0], W1[u, 0]],
                        y=[W0[u, 1], W1[u, 1]],
                        mode="lines",
                        line=dict(color=c, dash="dot", width=2),
                        showlegend=False,
                        hoverinfo="skip",
                    ),
                    row=1,
                    col=col,
                )
            arrow(W1[u, :2], c, w, text=labels[u])
        else:
            arrow(shown[u, :2], c, w, text=labels[u])
    arrow(x[:2], EXAMPLE_COLOR, 2.5)
    for label in labels_last:
        layer.annotate(**label)
    fig.add_trace(
        dict(
            type="scatter",
            x=[x[0]],
            y=[x[1]],
            mode="markers+text",
            marker=dict(symbol="star", size=16, color=EXAMPLE_COLOR),
            text=["x"],  # its class is marked "(y)" on the class axis
            # the label on the side away from the origin, clear of the arrow's shaft
            textposition="top center" if x[1] >= 0 else "bottom center",
            cliponaxis=False,
            textfont=dict(size=16, color=EXAMPLE_COLOR),
            showlegend=False,
            hoverinfo="skip",
        ),
        row=1,
        col=col,
    )
    feature1, feature2 = t("fig.feature1", lang), t("fig.feature2", lang)
    fig.update_xaxes(
        range=[-R, R], row=1, col=col, zeroline=True, title_text=feature1, constrain="domain"
    )
    fig.update_yaxes(
        range=[-R, R],
        row=1,
        col=col,
        zeroline=True,
        title_text=feature2,
        scaleanchor=xref,
        scaleratio=1,
        constrain="domain",
    )


def _classes_axis(K: int, y: int, order=None) -> list[str]:
    idx = list(order) if order is not None else list(range(K))
    return [f"{u} (y)" if u == y else str(u) for u in idx]


@dataclass(frozen=True)
class _Panel:
    """The number-line panel a painter draws into: the figure, the sub-step, its column."""

    fig: FastFigure
    walk: object
    step: object
    col: int
    lang: str
    layer: _Layer

    @property
    def xref(self) -> str:
        return "x" if self.col == 1 else f"x{self.col}"

    @property
    def yref(self) -> str:
        return "y" if self.col == 1 else f"y{self.col}"

    def add(self, trace: dict) -> None:
        self.fig.add_trace(trace, row=1, col=self.col)


def _score_band(p: _Panel, s: np.ndarray) -> None:
    """The band ``[s_y - 1, s_y]`` a wrong class must stay left of (margin >= 1)."""
    y = p.walk.instance.y
    color = rgba(class_color(y), 0.15)
    p.layer.vrect(s[y] - 1, s[y], p.xref, p.yref, color, t("fig.band", p.lang))


def _paint_scores(p: _Panel) -> str:
    """Sub-steps "scores" and "passive": each class's score, the highlighted ones larger."""
    K, y = p.walk.instance.W.shape[0], p.walk.instance.y
    s0, hl = np.asarray(p.walk.spa.scores_before), set(p.step.highlight)
    _score_band(p, s0)
    p.add(
        dict(
            type="scatter",
            x=s0,
            y=_classes_axis(K, y),
            mode="markers",
            showlegend=False,
            marker=dict(
                size=[18 if u in hl else 13 for u in range(K)],
                color=[class_color(u) for u in range(K)],
                line=dict(width=[3 if u in hl else 1 for u in range(K)], color=LIGHT.edge),
            ),
        )
    )
    p.fig.update_xaxes(title_text=t("fig.scores", p.lang), row=1, col=p.col)
    return t("fig.scores", p.lang)


def _paint_moves(p: _Panel) -> str:
    """Sub-steps "update" and "after": the scores before (open) and after, an arrow for each
    class that moved; the band around the score of y before ("update") or after."""
    K, y, tr = p.walk.instance.W.shape[0], p.walk.instance.y, p.walk.spa
    labels = _classes_axis(K, y)
    s0, s1 = np.asarray(tr.scores_before), np.asarray(tr.scores_after)
    _score_band(p, s1 if p.step.key == "after" else s0)
    for u in range(K):
        if s0[u] != s1[u]:
            p.layer.annotate(
                x=s1[u],
                y=labels[u],
                ax=s0[u],
                ay=labels[u],
                xref=p.xref,
                yref=p.yref,
                axref=p.xref,
                ayref=p.yref,
                arrowhead=2,
                arrowwidth=2,
                arrowcolor=class_color(u),
                showarrow=True,
                text="",
            )
    p.add(
        dict(
            type="scatter",
            x=s0,
            y=labels,
            mode="markers",
            name=t("fig.before", p.lang),
            marker=dict(size=13, symbol="circle-open", color=LIGHT.muted, line=dict(width=2)),
        )
    )
    p.add(
        dict(
            type="scatter",
            x=s1,
            y=labels,
            mode="markers",
            name=t("fig.after", p.lang),
            marker=dict(
                size=15,
                color=[class_color(u) for u in range(K)],
                line=dict(width=1, color=LIGHT.edge),
            ),
        )
    )
    p.fig.update_xaxes(title_text=t("fig.scores", p.lang), row=1, col=p.col)
    return t("fig.scores", p.lang)


def _paint_margins(p: _Panel) -> str:
    """Sub-step "margins": each wrong class's margin against the line m = 1."""
    K, y, hl = p.walk.instance.W.shape[0], p.walk.instance.y, set(p.step.highlight)
    wrong = [u for u in range(K) if u != y]
    p.add(
        dict(
            type="bar",
            x=np.asarray(p.walk.spa.margins)[wrong],
            y=_classes_axis(K, y, wrong),
            orientation="h",
            marker=dict(
                color=[class_color(u) for u in wrong],
                line=dict(width=[3 if u in hl else 0 for u in wrong], color=LIGHT.edge),
            ),
            showlegend=False,
        )
    )
    p.layer.vline(1.0, p.xref, p.yref, "m = 1")
    p.fig.update_xaxes(title_text=t("fig.margins", p.lang), row=1, col=p.col)
    return t("fig.margins", p.lang)


def _q_bars(p: _Panel) -> tuple[list, list, list, list]:
    """The classes of the Q bars in their order (by rank from "sorted" on), their labels,
    colours (a "test" greys the classes not admitted, "tau" those outside the support) and
    outline widths (the highlighted ones)."""
    K, y, tr = p.walk.instance.W.shape[0], p.walk.instance.y, p.walk.spa
    key, hl = p.step.key, set(p.step.highlight)
    if key == "Q":
        idx = [u for u in range(K) if u != y]
    else:
        idx = list(tr.order) + [u for u in range(K) if u != y and u not in tr.order]
    table = p.step.table.set_index("class")
    colors, lines = [], []
    for u in idx:
        c = class_color(u)
        if key == "test":
            adm = table.loc[_classes_axis(K, y, [u])[0], "admitted"]
            c = c if adm == "✓" else (LIGHT.pale if adm == "" else rgba(c, 0.35))
        if key == "tau" and u not in tr.support:
            c = LIGHT.pale
        colors.append(c)
        lines.append(3 if u in hl else 0)
    return idx, _classes_axis(K, y, idx), colors, lines


def _paint_tau(p: _Panel) -> str:
    """Sub-step "tau": each Q split at theta, the part above it (tau) stacked and labelled."""
    tr, Q = p.walk.spa, np.asarray(p.walk.spa.Q)
    idx, labels, colors, lines = _q_bars(p)
    theta = tr.theta
    base = [min(max(Q[u], 0.0), theta) if u in tr.support else Q[u] for u in idx]
    top = [Q[u] - theta if u in tr.support else 0.0 for u in idx]
    p.add(
        dict(
            type="bar",
            x=base,
            y=labels,
            orientation="h",
            name="θ",
            marker=dict(color=[rgba(class_color(u), 0.25) for u in idx]),
        )
    )
    p.add(
        dict(
            type="bar",
            x=top,
            y=labels,
            orientation="h",
            name="τ = Q − θ",
            marker=dict(color=colors, line=dict(width=lines, color=LIGHT.edge)),
            text=[f"τ={v:.3g}" if v > 0 else "" for v in top],
            textposition="outside",
            cliponaxis=False,
            textfont=dict(size=15),
        )
    )
    p.fig.update_layout(barmode="stack")
    right = max([b + h for b, h in zip(base, top)] + [theta, 0.0])
    left = min(base + [0.0])
    span = right - left + 1e-9
    # θ's label above the bars (at the foot of the line it sat on the lowest bar)
    p.layer.vline(theta, p.xref, p.yref, f"θ = {theta:.3g}", label_left=theta > left + span / 2,
                  label_top=True)  # fmt: skip
    p.fig.update_xaxes(
        title_text=t("fig.tau", p.lang),
        row=1,
        col=p.col,
        range=[left - 0.05 * span, right + 0.35 * span],  # room for "τ=..." outside
    )
    p.fig.update_yaxes(autorange="reversed", row=1, col=p.col)  # rank 1 on top
    return t("fig.tau", p.lang)


def _paint_q(p: _Panel) -> str:
    """Sub-steps "Q", "sorted", "test", "cap", "nocap": the Q bars (with the threshold of the
    support-class test on "test")."""
    tr, Q = p.walk.spa, np.asarray(p.walk.spa.Q)
    idx, labels, colors, lines = _q_bars(p)
    p.add(
        dict(
            type="bar",
            x=[Q[u] for u in idx],
            y=labels,
            orientation="h",
            showlegend=False,
            marker=dict(color=colors, line=dict(width=lines, color=LIGHT.edge)),
            text=[f"{Q[u]:.3g}" for u in idx],
            textposition="outside",
            cliponaxis=False,
            textfont=dict(size=15),
        )
    )
    top = max([float(Q[u]) for u in idx if np.isfinite(Q[u])] + [0.0])
    low = min([float(Q[u]) for u in idx if np.isfinite(Q[u])] + [0.0])
    middle = (top + low) / 2
    p.layer.vline(0.0, p.xref, p.yref, dash="solid")
    if p.step.key == "test":
        row = next(r for r in tr.tests if r.k == p.step.k and r.phase == p.step.phase)
        if np.isfinite(row.threshold):
            p.layer.vline(
                row.threshold,
                p.xref,
                p.yref,
                f"{t('fig.threshold', p.lang)} {row.threshold:.3g}",
                color=LIGHT.alert,
                width=2,
                label_left=row.threshold > middle,
            )
    p.fig.update_xaxes(
        title_text=t("fig.Q", p.lang),
        row=1,
        col=p.col,
        range=[low - 0.05 * (top - low + 1e-9), top + 0.25 * (top - low + 1e-9)],
    )
    p.fig.update_yaxes(autorange="reversed", row=1, col=p.col)  # rank 1 on top
    return t("fig.Q", p.lang)


# each sub-step kind's painter (the others, "Q" ... "nocap", draw the Q bars)
_PAINTERS = {
    "scores": _paint_scores,
    "passive": _paint_scores,
    "update": _paint_moves,
    "after": _paint_moves,
    "margins": _paint_margins,
    "tau": _paint_tau,
}


def _numberline(fig, walk, step, col: int, lang: str, layer: _Layer) -> str:
    """Draw the number line of ``step`` (scores, margins, Q or tau) into column ``col``;
    returns its axis title."""
    painter = _PAINTERS.get(step.key, _paint_q)
    return painter(_Panel(fig, walk, step, col, lang, layer))


def spa_step_figure(walk, index: int, height: int = 480) -> go.Figure:
    """The geometry of sub-step ``index`` of a walkthrough: the plane (when x is 2-D, or 2-D
    plus the bias feature) and the number line of the current quantity."""
    lang = walk.lang
    step = walk.steps[int(index)]
    d = walk.instance.W.shape[1]
    has_plane = d == 2 or (walk.instance.bias and d == 3)
    cols = 2 if has_plane else 1
    fig = FastFigure(
        cols=cols,
        widths=[1.35, 1.0] if has_plane else None,  # the square plane is width-bound
        spacing=0.14,
        titles=[t("fig.plane", lang), " "] if has_plane else [" "],
    )
    layer = _Layer()
    if has_plane:
        _plane(fig, walk, step, 1, layer)
    title = _numberline(fig, walk, step, cols, lang, layer)
    del title  # the number line says what it shows in its axis title
    fig.layout["annotations"] += layer.annotations
    fig.layout["shapes"] = layer.shapes
    fig.update_yaxes(col=cols, title_text=t("ui.class", lang), type="category")
    fig.update_layout(legend=dict(orientation="h", x=1.0, xanchor="right", y=1.0, yanchor="bottom"))
    out = style(fig.figure(), height=height)
    out.update_layout(
        legend=dict(x=1.0, xanchor="right", y=1.06, yanchor="bottom"), margin=dict(t=50, r=30)
    )
    return out


def cap_figure(walk) -> go.Figure:
    """Each tau_u and their sum T against C (log scale), the hard step's T dashed and the
    current C marked; for SPA-I the region where the cap binds is shaded."""
    lang = walk.lang
    tab = walk.cap_table
    fig = go.Figure()
    if tab.empty:
        return style(fig, height=360)
    y = walk.instance.y
    for col in [c for c in tab.columns if c.startswith("tau_")]:
        u = int(col.split("_")[1])
        fig.add_trace(
            dict(
                type="scatter",
                x=tab["C"],
                y=tab[col],
                mode="lines",
                name=f"τ<sub>{u}</sub>",  # plotly draws the subscript
                line=dict(color=class_color(u), width=2),
            )
        )
    fig.add_trace(
        dict(
            type="scatter",
            x=tab["C"],
            y=tab["T"],
            mode="lines",
            name="T = Σ τ",
            line=dict(color=LIGHT.text, width=3),
        )
    )
    fig.add_trace(
        dict(
            type="scatter",
            x=tab["C"],
            y=tab["T_hard"],
            mode="lines",
            name="T (SPA)",
            line=dict(color=LIGHT.text, width=1.5, dash="dash"),
        )
    )
    if walk.variant == "I" and tab["cap_binds"].any():
        lo, c_edge = float(tab["C"].min()), float(tab.loc[tab["cap_binds"], "C"].max())
        fig.add_vrect(x0=lo, x1=c_edge, fillcolor=LIGHT.alert_fill, line_width=0)
        fig.add_annotation(  # inside the shaded region, halfway up: clear of C's label on top
            x=float(np.log10(np.sqrt(lo * c_edge))),  # log axis: annotation x is log10(C)
            y=0.55,
            yref="paper",
            text="Σ τ = C",
            showarrow=False,
            font=dict(size=15, color=LIGHT.alert_text),
            bgcolor=LIGHT.label_bg,
        )
    fig.add_vline(x=walk.C, line_color=LIGHT.alert, line_width=2)
    fig.add_annotation(  # above the plotting area, so no curve runs through it
        x=float(np.log10(walk.C)),
        y=1.0,
        yref="paper",
        yanchor="bottom",
        text=f"C = {walk.C:.3g}",
        showarrow=False,
        font=dict(size=15, color=LIGHT.alert),
    )
    fig.update_xaxes(type="log", title_text=t("fig.C", lang))
    fig.update_yaxes(title_text=t("fig.tau_axis", lang), rangemode="tozero")
    del y
    # titled by what it plots: the page's tab and the lesson already say "how C shapes the step"
    out = style(fig, height=420, title=t("spa.cap_fig_title", lang), legend_below=True)
    # the legend wraps to three rows in a narrow column: keep it clear of the axis title "C"
    out.update_layout(legend=dict(y=-0.3), margin=dict(b=125))
    return out


def pa_vs_spa_figure(walk) -> go.Figure:
    """Scores before, after PA's step and after SPA's step, per class."""
    lang = walk.lang
    inst = walk.instance
    K, y = inst.W.shape[0], inst.y
    tab = walk.pa_table
    labels = _classes_axis(K, y)
    fig = go.Figure()
    sy = float(tab["SPA: s_u after"].iloc[y])
    fig.add_vrect(x0=sy - 1, x1=sy, fillcolor=rgba(class_color(y), 0.12), line_width=0)
    series = [
        ("s_u", t("fig.before", lang), "circle-open", LIGHT.muted),
        ("PA: s_u after", "PA", "x", "#4292C6"),
        ("SPA: s_u after", "SPA", "diamond", "#006D2C"),
    ]
    for col, name, symbol, color in series:
        fig.add_trace(
            dict(
                type="scatter",
                x=tab[col],
                y=labels,
                mode="markers",
                name=name,
                marker=dict(symbol=symbol, size=14, color=color, line=dict(width=2, color=color)),
            )
        )
    fig.update_xaxes(title_text=t("fig.scores", lang))
    fig.update_yaxes(title_text=t("ui.class", lang), type="category")
    return style(fig, height=340)  # the box around it is titled
