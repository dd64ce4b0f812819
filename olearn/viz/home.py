"""The family map: algorithms as nodes (coloured as everywhere in the app), arrows for
"generalises" or "is one step of"."""

from __future__ import annotations

import plotly.graph_objects as go

from olearn.viz.common import style
from olearn.viz.palette import algorithm_color
from olearn.viz.theme import LIGHT


def family_map_figure(nodes, edges, title: str = "") -> go.Figure:
    pos = {r.key: (r.x, r.y) for r in nodes.itertuples()}
    fig = go.Figure()
    for e in edges.itertuples():
        (x0, y0), (x1, y1) = pos[e.src], pos[e.dst]
        fig.add_annotation(
            x=x1,
            y=y1,
            ax=x0,
            ay=y0,
            xref="x",
            yref="y",
            axref="x",
            ayref="y",
            showarrow=True,
            arrowhead=2,
            arrowwidth=1.5,
            arrowcolor=LIGHT.faint,
            standoff=14,
            startstandoff=14,
            text="",
        )
        if e.label:
            fig.add_annotation(
                x=(x0 + x1) / 2,
                y=(y0 + y1) / 2,
                text=e.label.replace("\n", "<br>"),  # long labels on two lines
                showarrow=False,
                font=dict(size=15, color=LIGHT.text),
                yshift=12 + 10 * e.label.count("\n"),
                bgcolor=LIGHT.label_bg,
            )
    fig.add_trace(
        go.Scatter(
            x=nodes["x"],
            y=nodes["y"],
            mode="markers+text",
            text=nodes["name"],
            textposition="bottom center",
            hovertext=nodes["reference"],
            hoverinfo="text",
            marker=dict(
                size=30,
                color=[algorithm_color(k) for k in nodes["key"]],
                line=dict(width=1.5, color=LIGHT.soft),
                symbol="circle",
            ),
            textfont=dict(size=16, color=LIGHT.text),
            showlegend=False,
        )
    )
    fig.update_xaxes(visible=False, range=[-0.8, 6.1])
    fig.update_yaxes(visible=False, range=[-1.2, 3.5])
    return style(fig, height=480, title=title)
