"""Figures of the playground, animated in the browser: one Plotly frame per t (frame names
``"0".."n"``), built once per setting.

- :func:`planes_animation`: each learner's plane (exact decision regions, boundaries and
  margin band as polygons, the points seen so far, the mistakes crossed, the next example).
- :func:`curves_animation`: cumulative mistakes and the test error, a moving t marker.
- :func:`weight_space_animation`: for confidence-weighted learners, each class mean with its
  1-sigma covariance ellipse.

Each returns a figure carrying its frames and a play control (:mod:`olearn.viz.animate`):
``fig.show()`` or ``fig.write_html(path)`` plays it.  The ``*_parts`` builders return what
:mod:`olearn.app.components.player` plays client-side instead: the figure at ``t0`` without
frames, and the frames as plain dicts (no plotly.py validation, which costs seconds for 400 frames).

Only scatter traces are used (the frames animate without a full redraw) and figures are
built from plain dicts (no per-trace validation).  Which points are drawn (seen so far,
mistakes so far) is a per-point opacity (base64 uint8 arrays in the figure).

The planes' frames travel *packed* for the player (``planes_parts(..., packed=True)``):
each distinct set of region polygons once (a passive step reuses its learner's regions), a
frame's region trace naming it (``{"shape": i}``), and the opacities as ``{"upto": t}`` (the
points before t) or ``{"upto": t, "mask": m}`` (those of them where learner m erred, its
mistakes sent once).  The player unpacks them in the browser into the very frames
``packed=False`` gives (``player.js``: ``unpack``; ``tests/test_browser_player.py`` compares
the two): a 4-learner n = 400 run's planes frames fall from 3.2 MB to 0.6 MB.  The weight
space's frames send each ellipse as its parameters (``_ellipse_frame``; 1.16 MB to 0.21 MB).
"""

from __future__ import annotations

import base64

import numpy as np
import plotly.graph_objects as go

from olearn.teaching.strings import t as tt
from olearn.viz.animate import with_frames
from olearn.viz.common import region_traces, style
from olearn.viz.palette import EXAMPLE_COLOR, algorithm_color, algorithm_dash, class_color, rgba
from olearn.viz.theme import LIGHT


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
        ((0, 0.48), (0.535, 0.965)),
        ((0.52, 1), (0.535, 0.965)),
        ((0, 0.48), (0, 0.43)),
        ((0.52, 1), (0, 0.43)),
    ]
    return cells[:n]


def _u1(values) -> dict:
    """A uint8 array in plotly's typed-array form (base64): 1 byte per point per frame.

    >>> _u1([1, 0, 1])
    {'dtype': 'u1', 'bdata': 'AQAB'}
    """
    arr = np.ascontiguousarray(np.asarray(values, dtype=np.uint8))
    return {"dtype": "u1", "bdata": base64.b64encode(arr.tobytes()).decode("ascii")}


SEEN_SIZE = 10  # px: the points seen so far
MISTAKE_SIZE = 13  # px: the crosses on mistakes
STAR_SIZE = 22  # px: the example about to arrive


class _Pack:
    """What packed frames share: the distinct region polygons and the learners' mistakes."""

    def __init__(self):
        self.shapes: list[list] = []  # [x, y] of each distinct region trace
        self.masks: list[dict] = []  # each learner's mistakes (uint8, base64)

    def shape(self, trace: dict) -> dict:
        self.shapes.append([trace["x"], trace["y"]])
        return {"shape": len(self.shapes) - 1}


def _plane_traces(run, key: str, t: int, panel: dict, lang: str, memo: dict):
    """Every trace of one learner's panel at time t (scatter only, so frames animate without
    a full redraw): K regions, the band, the boundaries, points seen, mistakes, the next
    example, the count.  ``memo`` reuses the regions of an unchanged W (passive steps);
    ``panel`` holds the box, band, axes and, for packed frames, the :class:`_Pack` and this
    learner's mask number (see the module's docstring)."""
    W = run.W[key][t]
    sig = W.tobytes()
    pack = panel.get("pack")
    if sig not in memo:
        Wp, b = (W[:, :2], W[:, 2]) if run.bias else (W, None)
        box, band, xa, ya = panel["box"], panel["band"], panel["xa"], panel["ya"]
        regions = region_traces(Wp, b, box, band=band, xaxis=xa, yaxis=ya)
        memo[sig] = [pack.shape(tr) if pack else tr for tr in regions]
    if pack:
        traces = [dict(tr) for tr in memo[sig]]
    else:
        traces = [dict(x=tr["x"], y=tr["y"]) for tr in memo[sig]]
    traces[0]["meta"] = t  # the player reads which frame a chart shows from data[0].meta
    if pack:
        seen = {"upto": t}  # opacity 1 for the points seen so far
        wrong = {"upto": t, "mask": panel["mask"]}  # ... and for the mistakes so far
    else:
        seen = np.zeros(run.n, dtype=np.uint8)
        seen[:t] = 1
        wrong = np.zeros(run.n, dtype=np.uint8)
        wrong[:t] = run.mistakes[key][:t]
        seen, wrong = _u1(seen), _u1(wrong)
    nxt = ([run.X[t, 0]], [run.X[t, 1]]) if t < run.n else ([], [])
    color = [class_color(int(run.y[t]))] if t < run.n else EXAMPLE_COLOR
    count = int(run.mistakes[key][:t].sum())
    traces += [
        dict(marker=dict(opacity=seen)),
        dict(marker=dict(opacity=wrong)),
        dict(
            x=[round(float(v), 4) for v in nxt[0]],
            y=[round(float(v), 4) for v in nxt[1]],
            marker=dict(color=color),
        ),
        dict(text=[f"{count} / {t} {tt('play.mistakes', lang)}"]),
    ]
    return traces


def _static_plane_traces(run, xa: str, ya: str, box: tuple) -> list[dict]:
    """The constant parts of the last four traces (positions, colours, symbols)."""
    common = dict(type="scatter", showlegend=False, xaxis=xa, yaxis=ya)
    return [
        dict(
            common,
            x=run.X[:, 0].round(4).tolist(),
            y=run.X[:, 1].round(4).tolist(),
            mode="markers",
            hoverinfo="skip",
            marker=dict(
                size=SEEN_SIZE,
                color=[class_color(int(c)) for c in run.y],
                line=dict(width=1, color=LIGHT.edge),
            ),
        ),
        dict(
            common,
            x=run.X[:, 0].round(4).tolist(),
            y=run.X[:, 1].round(4).tolist(),
            mode="markers",
            hoverinfo="skip",
            marker=dict(size=MISTAKE_SIZE, symbol="x-thin", line=dict(width=2.5, color=LIGHT.text)),
        ),
        dict(
            common,
            mode="markers",
            hoverinfo="skip",
            marker=dict(size=STAR_SIZE, symbol="star", line=dict(width=2, color=EXAMPLE_COLOR)),
        ),
        dict(
            common,
            x=[float(box[1])],
            y=[float(box[3])],
            mode="text",
            # above the panel's top-right corner, outside the plot: no boundary crosses it
            textposition="top left",
            textfont=dict(size=16, color=LIGHT.text),
            cliponaxis=False,
            hoverinfo="skip",
        ),
    ]


def _merge(static: dict, update: dict) -> dict:
    out = dict(static)
    for k, v in update.items():
        out[k] = {**out[k], **v} if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def planes_animation(
    run, lang: str = "en", band: bool = True, height: int = 560, t0: int = 0
) -> go.Figure:
    """Every learner's plane over the stream ``run`` (:func:`olearn.teaching.stream.run_stream`),
    one frame per t, with a play control: the figure of :func:`planes_parts` that plays by
    itself."""
    return with_frames(*planes_parts(run, lang, band, height, t0))


def planes_parts(
    run,
    lang: str = "en",
    band: bool = True,
    height: int = 560,
    t0: int = 0,
    sig: str = "",
    *,
    packed: bool = False,
) -> tuple[go.Figure, list[dict] | dict]:
    """Every learner's plane: the figure at ``t0`` and one frame per t = 0..n (plain JSON-able
    dicts named ``"0".."n"``, handed to the player, not to plotly.py, whose frame validation
    costs seconds), drawn with exact polygons and scatter traces only, so the browser
    animates it without a redraw.  ``sig`` goes to ``layout.meta`` (the player waits for a
    figure carrying its signature); each frame's traces carry ``meta = t``.

    ``packed``: the frames as ``{"frames", "shapes", "masks", "n"}`` for the player (see the
    module's docstring), else the list of frames."""
    t0 = int(min(max(t0, 0), run.n))
    box = _box(run.X)
    data, layout = [], {"annotations": [], "meta": sig}
    per_frame: list[list] = [[] for _ in range(run.n + 1)]
    cells = _domains(len(run.keys))
    pack = _Pack() if packed else None
    for i, key in enumerate(run.keys):
        xa, ya = _axes(i)
        static = [None] * (run.K + 2) + _static_plane_traces(run, xa, ya, box)
        memo: dict = {}
        panel = dict(box=box, band=band, xa=xa, ya=ya, pack=pack)
        if pack:
            panel["mask"] = len(pack.masks)
            pack.masks.append(_u1(run.mistakes[key][: run.n]))
        for t in range(run.n + 1):
            per_frame[t] += _plane_traces(run, key, t, panel, lang, memo)
        if pack:  # the figure itself is plain (the frame at t0, unpacked)
            first = _plane_traces(run, key, t0, dict(panel, pack=None), lang, {})
        else:
            first = per_frame[t0][-len(static) :]
        full = region_traces(
            *(
                (run.W[key][t0][:, :2], run.W[key][t0][:, 2])
                if run.bias
                else (run.W[key][t0], None)
            ),
            box,
            band=band,
            xaxis=xa,
            yaxis=ya,
        )
        static[: len(full)] = full
        data += [_merge(st, f) for st, f in zip(static, first)]
        (dx, dy) = cells[i]
        suffix = "" if i == 0 else str(i + 1)
        bottom = dy[0] < 0.1 or len(run.keys) <= 2
        left = dx[0] < 0.1
        layout[f"xaxis{suffix}"] = dict(
            domain=dx,
            range=box[:2],
            anchor=ya,
            showgrid=False,
            zeroline=False,
            constrain="domain",  # equal scales by a narrower panel, never a longer range
            showticklabels=bottom,  # the rows share their range: ticks once, at the bottom
            title=dict(text=tt("play.axis1", lang) if bottom else ""),
        )
        layout[f"yaxis{suffix}"] = dict(
            domain=dy,
            range=box[2:],
            anchor=xa,
            showgrid=False,
            zeroline=False,
            scaleanchor=xa,
            constrain="domain",  # (a longer range left most of a tall panel empty)
            showticklabels=left,
            title=dict(text=tt("play.axis2", lang) if left else ""),
        )
        spec_color, spec_dash = algorithm_color(key), algorithm_dash(key)
        layout["annotations"].append(
            dict(
                text=f"<span style='color:{spec_color}'>━━</span> <b>{run.names[i]}</b>",
                x=dx[0],
                y=dy[1],
                xref="paper",
                yref="paper",
                xanchor="left",
                yanchor="bottom",
                showarrow=False,
                font=dict(size=17, color=LIGHT.text),
                hovertext=spec_dash,
            )
        )
    indices = list(range(len(data)))
    frames = [dict(name=str(t), data=per_frame[t], traces=indices) for t in range(run.n + 1)]
    fig = go.Figure(data=data, layout=layout, _validate=False)
    fig = style(fig, height=height)
    fig.update_layout(margin=dict(l=55, r=10, t=30, b=45), dragmode=False)
    if pack:
        return fig, dict(frames=frames, shapes=pack.shapes, masks=pack.masks, n=run.n)
    return fig, frames


def _spread(values: list[float], gap: float) -> list[float]:
    """Label heights at least ``gap`` apart, as close as possible to ``values`` (direct labels
    at the end of lines that end near each other).

    >>> _spread([1.0, 1.1, 5.0], 0.5)
    [0.8, 1.3, 5.0]
    """
    order = np.argsort(values)
    placed = [float(values[i]) for i in order]
    for _ in range(len(placed)):
        for j in range(1, len(placed)):
            if placed[j] - placed[j - 1] < gap:
                mid = (placed[j] + placed[j - 1]) / 2
                placed[j - 1], placed[j] = mid - gap / 2, mid + gap / 2
    out = [0.0] * len(values)
    for rank, i in enumerate(order):
        out[i] = round(placed[rank], 6)
    return out


def count_ticks(top: float, most: int = 6) -> dict:
    """Axis settings for a count from 0 to ``top``: ticks at whole numbers only, a 1-2-5
    step giving at most ``most`` of them (plotly's own choice put ticks at 0.5 on a count).

    >>> count_ticks(1.08), count_ticks(14)["dtick"], count_ticks(130)["dtick"]
    ({'tickmode': 'linear', 'tick0': 0, 'dtick': 1}, 5, 50)
    """
    steps = (m * 10**e for e in range(12) for m in (1, 2, 5))
    step = next(s for s in steps if top / s <= most)
    return {"tickmode": "linear", "tick0": 0, "dtick": step}


def curves_animation(run, lang: str = "en", height: int = 300, t0: int = 0) -> go.Figure:
    """The mistake and test-error curves of :func:`curves_parts`, one frame per t, with a
    play control."""
    return with_frames(*curves_parts(run, lang, height, t0))


def curves_parts(
    run, lang: str = "en", height: int = 300, t0: int = 0, sig: str = ""
) -> tuple[go.Figure, list[dict]]:
    """Cumulative mistakes (top) and, with a test set, the test error (bottom) of every
    learner over the stream: one colour and dash per learner (its registry entry), each line
    labelled at its end, axes from zero.  Frames (``"0".."n"``) move only the t marker and
    the dots on the curves."""
    t0 = int(min(max(t0, 0), run.n))
    steps = np.arange(run.n + 1)
    has_test = bool(run.test_error)
    panels = [("y", "cum")] + ([("y2", "test")] if has_test else [])
    cum = {k: np.concatenate([[0], np.cumsum(run.mistakes[k])]) for k in run.keys}
    series = {"cum": cum, "test": run.test_error}
    data: list[dict] = []
    layout: dict = {"annotations": [], "meta": sig, "showlegend": False}
    moving: list[int] = []
    split = 0.56 if has_test else 0.0
    tops: dict[str, float] = {}
    plot_px = max(height - 60, 100)  # the plot area's height (margins t=10, b=50)
    for ya, what in panels:
        values = series[what]
        top = max(float(np.max(v)) for v in values.values()) or 1.0
        share = (1.0 - split) if ya == "y" else 0.44
        # direct labels at the line ends, at least 19 px apart
        ends = _spread([float(values[k][-1]) for k in run.keys], 19 / (share * plot_px) * top)
        ends = [e - min(0.0, min(ends)) for e in ends]  # no label below the axis' zero
        tops[ya] = max(top, max(ends)) * 1.08
        for i, k in enumerate(run.keys):
            data.append(
                dict(
                    type="scatter",
                    x=steps.tolist(),
                    y=values[k].round(4).tolist(),
                    mode="lines",
                    name=run.names[i],
                    line=dict(
                        color=algorithm_color(k),
                        dash=algorithm_dash(k),
                        width=4.0 - 0.6 * i,  # earlier learners wider: none hides another
                    ),
                    hoverinfo="x+y+name",
                    xaxis="x",
                    yaxis=ya,
                )
            )
            layout["annotations"].append(
                dict(
                    text=f"<b>{run.names[i]}</b>",
                    x=run.n,
                    y=ends[i],
                    xref="x",
                    yref=ya,
                    xanchor="left",
                    showarrow=False,
                    font=dict(size=16, color=algorithm_color(k)),
                )
            )
        moving.append(len(data))
        data.append(
            dict(
                meta=t0,
                type="scatter",
                mode="markers",
                x=[t0] * len(run.keys),
                y=[float(values[k][t0]) for k in run.keys],
                marker=dict(
                    size=11,
                    color=[algorithm_color(k) for k in run.keys],
                    line=dict(width=1.5, color=LIGHT.text),
                ),
                hoverinfo="skip",
                xaxis="x",
                yaxis=ya,
            )
        )
        moving.append(len(data))
        data.append(
            dict(
                type="scatter",
                mode="lines",
                x=[t0, t0],
                y=[0, top * 1.05],
                line=dict(color=LIGHT.alert, width=2),
                hoverinfo="skip",
                xaxis="x",
                yaxis=ya,
            )
        )
    # each panel's top (its cursor's height) is the same in every frame
    cursor_tops = {
        what: max(float(np.max(v)) for v in series[what].values()) or 1.0 for _, what in panels
    }
    frames = []
    for t in range(run.n + 1):
        fd = []
        for _, what in panels:
            values = series[what]
            fd.append(
                dict(x=[t] * len(run.keys), y=[float(values[k][t]) for k in run.keys], meta=t)
            )
            fd.append(dict(x=[t, t], y=[0, cursor_tops[what] * 1.05], meta=t))
        frames.append(dict(name=str(t), data=fd, traces=moving))
    # the axis ends at the stream's end; the direct labels sit in the right margin (~9 px a
    # character), not on an axis running past the last example
    label_px = 9 * max(len(name) for name in run.names) + 14
    layout["xaxis"] = dict(
        range=[0, run.n],
        title=dict(text=tt("play.t", lang)),
        anchor="y2" if has_test else "y",
        zeroline=False,
    )
    layout["yaxis"] = dict(
        domain=[split, 1.0],
        range=[0, tops["y"]],  # from zero
        title=dict(text=tt("play.count_axis", lang)),
        **count_ticks(tops["y"]),  # whole mistakes only
    )
    if has_test:
        layout["yaxis2"] = dict(
            domain=[0.0, 0.44],
            range=[0, tops["y2"]],
            title=dict(text=tt("play.test_error", lang)),
            tickformat=".0%",
        )
    data[0]["meta"] = t0
    fig = go.Figure(data=data, layout=layout, _validate=False)
    fig = style(fig, height=height)
    fig.update_layout(margin=dict(l=70, r=label_px, t=10, b=50), dragmode=False)
    return fig, frames


CURTAIN = "olearn-curtain"  # the shape the player moves to t in predict mode (player.js)


def curtained(fig: go.Figure, t: int) -> go.Figure:
    """The learning curves for predict mode: what comes after ``t`` behind a curtain of the
    paper's colour (a shape named :data:`CURTAIN`, whose left edge the player moves with t),
    and a legend instead of the labels at the lines' ends (their heights tell the end)."""
    d = fig.to_plotly_json()
    layout = d["layout"]
    layout["annotations"] = [a for a in layout.get("annotations", ()) if a.get("xref") != "x"]
    curtain = dict(
        type="rect",
        name=CURTAIN,
        xref="x",
        yref="paper",
        x0=t + 0.5,
        x1=layout["xaxis"]["range"][1],
        y0=0,
        y1=1,
        fillcolor=LIGHT.paper,
        line=dict(width=0),
        layer="above",
    )
    layout["shapes"] = [*layout.get("shapes", ()), curtain]
    named: set = set()
    for trace in d["data"]:  # one legend entry per learner (the panels share the names)
        name = trace.get("name")
        trace["showlegend"] = bool(name) and name not in named
        named.add(name)
    layout["showlegend"] = True
    layout["legend"] = {**layout.get("legend", {}), "y": 1.0, "yanchor": "bottom"}
    layout["margin"] = {**layout.get("margin", {}), "t": 40}
    return go.Figure(d, _validate=False)


ELLIPSE_POINTS = 60  # points drawn on each 1-sigma ellipse


def _ellipse_frame(run, keys: list[str], t: int, packed: bool = False) -> list[dict]:
    """The weight-space traces at t: per learner and class, the ellipse and the mean.
    ``packed``: each ellipse as its parameters ``[cx, cy, semi-major, semi-minor, angle,
    points]``, drawn by the browser (``olearn/app/components/assets/geometry.js``), not as
    points."""
    from olearn.core.cw_geometry import covariance_ellipse, ellipse_points

    out = []
    for k in keys:
        W, S = run.W[k][int(t)], run.Sigma[k][int(t)]
        for u in range(run.K):
            e = covariance_ellipse(S, center=W[u, :2])
            if packed:
                c = [float(v) for v in e.center]
                par = [*c, e.semi_major, e.semi_minor, e.angle, ELLIPSE_POINTS]
                out.append(dict(ellipse=par, meta=int(t)))
            else:
                pts = ellipse_points(e, ELLIPSE_POINTS).round(4)
                out.append(dict(x=pts[:, 0].tolist(), y=pts[:, 1].tolist(), meta=int(t)))
            out.append(dict(x=[round(float(W[u, 0]), 4)], y=[round(float(W[u, 1]), 4)]))
    return out


def weight_space_animation(
    run, lang: str = "en", height: int = 420, t0: int = 0
) -> go.Figure | None:
    """The class means and their 1-sigma ellipses of :func:`weight_space_parts`, one frame
    per t, with a play control; None when no confidence-weighted learner runs."""
    parts = weight_space_parts(run, lang, height, t0)
    return None if parts is None else with_frames(*parts)


def weight_space_parts(
    run,
    lang: str = "en",
    height: int = 420,
    t0: int = 0,
    sig: str = "",
    *,
    packed: bool = False,
) -> tuple[go.Figure, list[dict] | dict] | None:
    """For confidence-weighted learners: each class mean mu_k (features 1, 2) with the 1-sigma
    ellipse of the shared covariance around it, one frame per t; None when no such learner
    runs.  Learners are told apart by their registry dash, classes by colour.

    ``packed``: the frames as ``{"frames", "shapes", "masks", "n"}`` for the player, each
    ellipse as its parameters (drawn in the browser; see :func:`_ellipse_frame`)."""
    keys = [k for k in run.keys if run.Sigma.get(k) is not None]
    if not keys:
        return None
    t0 = int(min(max(t0, 0), run.n))
    data = []
    for k in keys:
        i = run.keys.index(k)
        for u in range(run.K):
            data.append(
                dict(
                    type="scatter",
                    mode="lines",
                    line=dict(color=class_color(u), width=2.5, dash=algorithm_dash(k)),
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
                    mode="markers",
                    marker=dict(
                        size=12, color=class_color(u), line=dict(width=1.5, color=LIGHT.edge)
                    ),
                    showlegend=False,
                    hoverinfo="skip",
                )
            )
    every = [_ellipse_frame(run, keys, t) for t in range(run.n + 1)]
    for trace, upd in zip(data, every[t0]):
        trace.update(upd)
    if packed:
        every_sent = [_ellipse_frame(run, keys, t, packed=True) for t in range(run.n + 1)]
    else:
        every_sent = every
    frames = [
        dict(name=str(t), data=fd, traces=list(range(len(data)))) for t, fd in enumerate(every_sent)
    ]
    # fixed ranges holding every frame (an animation does not re-autorange)
    xs = np.concatenate([np.asarray(d["x"], float) for fd in every for d in fd])
    ys = np.concatenate([np.asarray(d["y"], float) for fd in every for d in fd])
    pad = 0.05 * max(float(np.ptp(xs)), float(np.ptp(ys)), 1e-9)
    w1 = "w · " + tt("play.axis1", lang)
    w2 = "w · " + tt("play.axis2", lang)
    layout = dict(
        meta=sig,
        xaxis=dict(title=dict(text=w1), zeroline=True, range=[xs.min() - pad, xs.max() + pad]),
        yaxis=dict(
            title=dict(text=w2),
            zeroline=True,
            scaleanchor="x",
            range=[ys.min() - pad, ys.max() + pad],
        ),
    )
    fig = go.Figure(data=data, layout=layout, _validate=False)
    fig = style(fig, height=height, title=tt("play.weight_space", lang))
    if packed:
        return fig, dict(frames=frames, shapes=[], masks=[], n=run.n)
    return fig, frames


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
                    line=dict(width=1, color=LIGHT.edge),
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
