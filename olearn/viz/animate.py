"""Animated figures that play by themselves: frames attached and a play control (Play / Pause
buttons and a slider), so ``fig.show()``, Jupyter, VS Code and ``fig.write_html()`` play them
with no olearn code in the browser.

The app does not use these figures: its player (:mod:`olearn.app.components.player`) takes the
figure without frames and the frames as plain dicts (the ``*_parts`` builders), because attaching
frames to a ``plotly.graph_objects.Figure`` validates every one (~1.5 s for the Playground's
400 frames).  :func:`animation_html` writes the same parts as a self-contained HTML file
without that cost (the app's download).

>>> import plotly.graph_objects as go
>>> base = go.Figure(go.Scatter(x=[0], y=[0]))
>>> frames = [dict(name=str(t), data=[dict(x=[t], y=[t])], traces=[0]) for t in range(3)]
>>> fig = with_frames(base, frames)
>>> [f.name for f in fig.frames], fig.layout.sliders[0].active, len(fig.layout.updatemenus)
(['0', '1', '2'], 0, 1)
>>> len(base.frames)  # the figure given is left as it was
0
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence

import plotly.graph_objects as go
import plotly.io as pio
from plotly.offline import get_plotlyjs

from olearn.viz.assets import asset
from olearn.viz.theme import LIGHT

CONTROLS_PX = 95  # px added under the plot for the Play / Pause buttons and the slider
_STILL = {
    "mode": "immediate",
    "frame": {"duration": 0, "redraw": False},
    "transition": {"duration": 0},
}


def play_controls(
    names: Sequence[str],
    labels: Sequence[str] | None = None,
    fps: float = 10,
    prefix: str = "t = ",
    active: int = 0,
    y: float = -0.15,
) -> dict:
    """Layout entries (``updatemenus`` and ``sliders``) that play frames ``names`` at ``fps``
    frames a second: a Play and a Pause button and, beside them, a slider whose current
    value reads ``prefix + labels[i]`` (``labels`` default to the names); their tops at
    ``y`` (in the plot's "paper" units: negative is under the plot)."""
    labels = list(names) if labels is None else [str(v) for v in labels]
    playing = {**_STILL, "frame": {"duration": round(1000 / fps), "redraw": False}}
    buttons = [
        dict(label="▶", method="animate", args=[None, {**playing, "fromcurrent": True}]),
        dict(label="❚❚", method="animate", args=[[None], _STILL]),
    ]
    steps = [
        dict(method="animate", label=label, args=[[name], _STILL])
        for name, label in zip(names, labels)
    ]
    return dict(
        updatemenus=[
            dict(
                type="buttons",
                direction="left",
                showactive=False,
                buttons=buttons,
                x=0,
                xanchor="left",
                y=y,
                yanchor="top",
                pad=dict(t=30, l=0),  # level with the slider's rail
                font=dict(size=16),
            )
        ],
        sliders=[
            dict(
                active=int(active),
                steps=steps,
                x=0.14,
                len=0.86,
                y=y,
                yanchor="top",
                pad=dict(t=0, b=0),
                ticklen=0,
                minorticklen=0,
                font=dict(color="rgba(0,0,0,0)"),  # one label per frame would overlap
                currentvalue=dict(prefix=prefix, font=dict(size=16, color=LIGHT.text)),
                transition=dict(duration=0),
            )
        ],
    )


def _room(layout: dict) -> tuple[dict, float]:
    """``layout``'s height and bottom margin grown by :data:`CONTROLS_PX`, so the plot area
    keeps its size, and the controls' top in paper units (just under the old margin)."""
    margin = dict(layout.get("margin") or {})
    height = layout.get("height") or 450
    top, bottom = margin.get("t", 100), margin.get("b", 80)
    margin["b"] = bottom + CONTROLS_PX
    plot_px = max(height - top - bottom, 50)
    return dict(height=height + CONTROLS_PX, margin=margin), -(bottom + 4) / plot_px


def _start(frames: Sequence[dict], fig_dict: dict) -> int:
    """The index of the frame the figure shows (its first trace's ``meta`` when the builder
    set it, else 0)."""
    data = fig_dict.get("data") or [{}]
    meta = data[0].get("meta")
    names = [str(f["name"]) for f in frames]
    return names.index(str(meta)) if str(meta) in names else 0


def animated_dict(
    fig: go.Figure | dict,
    frames: Sequence[dict],
    labels: Sequence[str] | None = None,
    fps: float = 10,
    prefix: str = "t = ",
    controls: bool = True,
) -> dict:
    """``fig`` as a plain dict with ``frames`` and (unless ``controls`` is false) the play
    control; no validation, so it is fast."""
    out = json.loads(pio.to_json(fig, validate=False))
    out["frames"] = [dict(f) for f in frames]
    layout = out.setdefault("layout", {})
    # the app's white look (see olearn.viz.common.style) outside Streamlit's theme: figures
    # built unvalidated for speed carry plotly's grey default template
    layout["template"] = pio.templates["plotly_white"].to_plotly_json()
    if controls:
        names = [str(f["name"]) for f in frames]
        room, y = _room(layout)
        layout.update(room)
        layout.update(play_controls(names, labels, fps, prefix, _start(frames, out), y))
    return out


def with_frames(
    fig: go.Figure,
    frames: Sequence[dict],
    labels: Sequence[str] | None = None,
    fps: float = 10,
    prefix: str = "t = ",
) -> go.Figure:
    """A new figure: ``fig`` with ``frames`` attached and a play control under the plot."""
    out = animated_dict(fig, frames, labels, fps, prefix)
    return go.Figure(out, _validate=False)


def animation_html(
    lead: dict,
    followers: Sequence[dict] = (),
    title: str = "olearn",
    config: dict | None = None,
) -> str:
    """One self-contained HTML page (plotly.js inlined: it plays offline) with the animated
    figure ``lead`` (a dict from :func:`animated_dict`) and, under it, ``followers`` (dicts
    from ``animated_dict(..., controls=False)``: frames of the same names); the lead's Play
    and slider move them all to the same frame, and Play goes on from the frame shown."""
    config = {"displaylogo": False, **(config or {})}
    charts = [{"id": f"olearn-{i}", "figure": fig} for i, fig in enumerate([lead, *followers])]
    divs = "".join(f'<div id="{c["id"]}"></div>\n' for c in charts)
    # plotly.py's encoder (numpy arrays as typed arrays); "</" cannot close the script early
    data = pio.to_json({"charts": charts, "config": config}, validate=False).replace("</", "<\\/")
    return (
        "<!DOCTYPE html>\n<html>\n<head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title>\n"
        f"<script>{get_plotlyjs()}</script></head>\n<body>\n{divs}"
        f"<script>window.olearnAnimation = {data};\n"
        + asset("animation_sync.js")
        + "</script>\n</body>\n</html>\n"
    )
