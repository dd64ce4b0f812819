"""The Crammer-Singer page's figure: the decomposition one sub-problem at a time (seed 003),
drawn once and played in the browser by :mod:`olearn.app.components.player` (frames of the moving
traces, a note per frame); :func:`cs_animation` is the same figure playing by itself."""

from __future__ import annotations

import html

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from olearn.teaching.strings import num, t
from olearn.viz.animate import with_frames
from olearn.viz.common import style
from olearn.viz.palette import algorithm_color, class_color, rgba
from olearn.viz.theme import LIGHT
from olearn.viz.walks import INK, _box, _closed, end_labels, region_polygons


def _cs_frames(walk) -> list[int]:
    """The steps a Play shows: every sub-problem that changed W (at most 240, spread)."""
    changed = walk.changed if len(walk.changed) else np.arange(len(walk.steps))
    if len(changed) > 240:
        changed = changed[np.linspace(0, len(changed) - 1, 240).round().astype(int)]
    return [int(s) for s in changed]


def _cs_dynamic(walk, s: int, box, K: int, sw) -> list[dict]:
    """The traces that move from one sub-problem to the next: K regions, K confident cores,
    the circled example, the marker on the objective curves."""
    W = walk.W[s + 1]
    out = []
    for offset in (0.0, 1.0):
        for poly in region_polygons(W[:, :2], W[:, 2], box, offset):
            px, py = _closed(poly)
            out.append(dict(x=px, y=py))
    p = walk.steps[s].p
    out.append(dict(x=[walk.X[p, 0]], y=[walk.X[p, 1]]))
    sweep = int(walk.step_sweep[s])
    row = sw[sw["sweep"] == sweep]
    out.append(dict(x=[sweep, sweep], y=[float(row["dual"].iloc[0]), float(row["primal"].iloc[0])]))
    return out


def cs_figure(walk, s: int, lang: str = "en", height: int = 430) -> go.Figure:
    """The decomposition after sub-problem ``s``: left the argmax regions (exact polygons;
    the lighter strip is the margin band) with its example circled, right the primal and dual
    objectives per sweep against LIBLINEAR's optimum, the current sweep marked.  Its first
    :func:`n_dynamic` traces are the ones :func:`cs_frames` moves."""
    X, y = walk.X, walk.y
    K = walk.W.shape[1]
    box = _box(X)
    sw = walk.sweeps
    fig = make_subplots(rows=1, cols=2, column_widths=[0.56, 0.44], horizontal_spacing=0.16)
    top, bottom = 30, 60
    plot_px = height - top - bottom
    # dynamic traces first (indices 0 .. 2K+1), in the order of _cs_dynamic
    dyn = _cs_dynamic(walk, s, box, K, sw)
    # the regions (edged), then their confident cores (darker, no edge)
    looks = [(0.14, dict(color=LIGHT.axis, width=1.5)), (0.32, dict(width=0))]
    for layer, (alpha, line) in enumerate(looks):
        for k in range(K):
            fig.add_trace(
                go.Scatter(
                    **dyn[layer * K + k],
                    mode="lines",
                    fill="toself",
                    fillcolor=rgba(class_color(k), alpha),
                    line=line,
                    hoverinfo="skip",
                    showlegend=False,
                ),
                row=1,
                col=1,
            )
    fig.add_trace(
        go.Scatter(
            **dyn[2 * K],
            mode="markers",
            showlegend=False,
            marker=dict(size=28, symbol="circle-open", color=INK, line=dict(width=4, color=INK)),
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Scatter(
            **dyn[2 * K + 1],
            mode="lines+markers",
            showlegend=False,
            line=dict(color=INK, width=2),
            marker=dict(size=12, color=INK, symbol="diamond"),
            name=t("cs.now", lang),
        ),
        row=1,
        col=2,
    )
    fig.add_trace(
        go.Scatter(
            x=X[:, 0],
            y=X[:, 1],
            mode="markers",
            showlegend=False,
            marker=dict(
                size=11, color=[class_color(k) for k in y], line=dict(width=1, color=LIGHT.edge)
            ),
        ),
        row=1,
        col=1,
    )
    curves = [
        (t("cs.primal", lang), sw["primal"], algorithm_color("cs-svm"), "solid"),
        (t("cs.dual", lang), sw["dual"], "#117733", "dash"),
    ]
    for name, values, color, dash in curves:
        fig.add_trace(
            go.Scatter(
                x=sw["sweep"],
                y=values,
                mode="lines+markers",
                name=name,
                showlegend=False,
                line=dict(color=color, width=3, dash=dash),
                marker=dict(size=7, color=color),
            ),
            row=1,
            col=2,
        )
    ref = walk.liblinear_primal
    fig.add_trace(
        go.Scatter(
            x=[sw["sweep"].min(), sw["sweep"].max()],
            y=[ref, ref],
            mode="lines",
            showlegend=False,
            name=t("cs.liblinear", lang),
            line=dict(color="#CC3311", width=2, dash="dot"),
        ),
        row=1,
        col=2,
    )
    top = float(max(sw["primal"].max(), ref))
    fig.update_xaxes(
        range=[box[0], box[1]], title_text=t("cs.x1", lang), constrain="domain", row=1, col=1
    )
    fig.update_yaxes(
        range=[box[2], box[3]],
        title_text=t("cs.x2", lang),
        scaleanchor="x",
        constrain="domain",
        row=1,
        col=1,
    )
    fig.update_xaxes(title_text=t("cs.sweep", lang), row=1, col=2)
    fig.update_yaxes(title_text=t("cs.objective", lang), range=[0, 1.08 * top], row=1, col=2)
    end_labels(
        fig,
        [
            (t("cs.primal", lang), float(sw["primal"].iloc[-1]), curves[0][2]),
            (t("cs.liblinear_end", lang), ref, "#CC3311"),
            (t("cs.dual", lang), float(sw["dual"].iloc[-1]), curves[1][2]),
        ],
        height_px=plot_px,
        xaxis="x2",
        yaxis="y2",
    )

    style(fig, height=height)
    fig.update_layout(margin=dict(l=60, r=120, t=top, b=bottom), showlegend=False)
    return fig


def n_dynamic(walk) -> int:
    """How many of :func:`cs_figure`'s traces move from one sub-problem to the next."""
    return 2 * walk.W.shape[1] + 2


def cs_frames(walk, lang: str = "en") -> tuple[list[int], list[dict], list[str]]:
    """What the in-browser player (:mod:`olearn.app.components.player`) plays: the sub-problems
    shown (every one that changed W, at most 240), one frame each (the moving traces as plain
    dicts, ``data[0].meta`` = the frame's index), and one note each (HTML: the sub-problem's
    title and its numbers in words), so the text beside the figure follows every frame."""
    steps = _cs_frames(walk)
    box, K = _box(walk.X), walk.W.shape[1]
    moving = list(range(n_dynamic(walk)))
    frames, notes = [], []
    for i, step in enumerate(steps):
        data = _cs_dynamic(walk, step, box, K, walk.sweeps)
        data[0]["meta"] = i
        frames.append(dict(name=str(i), data=data, traces=moving))
        notes.append(cs_note(walk, step, lang))
    return steps, frames, notes


def cs_animation(walk, lang: str = "en", height: int = 430) -> go.Figure:
    """The decomposition of ``walk`` (:func:`olearn.teaching.cs_walk.cs_walk`) played from its
    first shown sub-problem to its last: :func:`cs_figure` with the frames of
    :func:`cs_frames` and a play control; the slider reads each frame's number among the
    sub-problems that changed W (as the page and :func:`cs_note` count them)."""
    steps, frames, _ = cs_frames(walk, lang)
    fig = cs_figure(walk, steps[0], lang, height)
    fig.data[0].meta = 0
    ks = np.searchsorted(walk.changed, steps) + 1
    return with_frames(fig, frames, labels=[str(k) for k in ks], fps=5, prefix="# ")


def cs_note(walk, step: int, lang: str = "en") -> str:
    """Sub-problem ``step`` in words (HTML for the player's note)."""
    st = walk.steps[step]
    k = int(np.searchsorted(walk.changed, step)) + 1  # as the page counts (all changes)
    title = t("cs.frame_title", lang, k=k, p=st.p, y=st.y, sweep=int(walk.step_sweep[step]))
    thetas = (
        " → ".join(num(v, 3) for v in st.fixed_point.thetas) if st.fixed_point is not None else "—"
    )
    text = t(
        "cs.step_text",
        lang,
        p=st.p,
        y=st.y,
        A=num(st.A),
        v=num(st.violation, 3),
        thetas=thetas,
        S="{" + ", ".join(map(str, st.support_classes)) + "}",
    )
    return f"<b>{html.escape(title)}</b><br>{html.escape(text)}"
