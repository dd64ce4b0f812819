"""Paper against ours, one point per table cell: on the diagonal when they agree."""

from __future__ import annotations

import plotly.graph_objects as go

from olearn.teaching.strings import t
from olearn.viz.common import style
from olearn.viz.palette import class_color
from olearn.viz.theme import LIGHT


def paper_vs_ours_figure(pairs, lang: str = "en") -> go.Figure:
    fig = go.Figure()
    if len(pairs):
        lo = float(min(pairs["paper"].min(), pairs["ours"].min()))
        hi = float(max(pairs["paper"].max(), pairs["ours"].max()))
        pad = 0.05 * (hi - lo or 1.0)
        fig.add_trace(
            go.Scatter(
                x=[lo - pad, hi + pad],
                y=[lo - pad, hi + pad],
                mode="lines",
                line=dict(color=LIGHT.faint, dash="dash"),
                showlegend=False,
                hoverinfo="skip",
            )
        )
        group = "dataset" if "dataset" in pairs else None
        for i, (name, part) in enumerate(pairs.groupby(group) if group else [("", pairs)]):
            label = part["algorithm"].astype(str) if "algorithm" in part else None
            if "measure" in part:
                label = label + " · " + part["measure"].astype(str)
            few = len(pairs) <= 12  # label the points only when they cannot pile up
            fig.add_trace(
                go.Scatter(
                    x=part["paper"],
                    y=part["ours"],
                    mode="markers+text" if few else "markers",
                    text=label if few else None,
                    hovertext=label,
                    textposition="top center",
                    name=str(name),
                    marker=dict(size=11, color=class_color(i)),
                )
            )
    fig.update_xaxes(title_text=t("rep.paper_axis", lang))
    fig.update_yaxes(title_text=t("rep.ours_axis", lang))
    return style(fig, height=420, title=t("rep.scatter", lang))
