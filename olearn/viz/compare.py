"""Figures of the Compare page: errors with the paper's value, online mistake-rate curves,
training times; each algorithm in its app-wide colour."""

from __future__ import annotations

import plotly.graph_objects as go

from olearn.teaching.strings import t
from olearn.viz.common import style
from olearn.viz.palette import algorithm_color


def error_figure(cmp, lang: str = "en") -> go.Figure:
    tab = cmp.table
    fig = go.Figure(
        go.Bar(
            x=tab["algorithm"],
            y=tab["error %"],
            error_y=dict(type="data", array=tab["std"]),
            marker_color=[algorithm_color(k) for k in tab["key"]],
            name=t("cmp.ours", lang),
            text=[f"{v:.2f}" for v in tab["error %"]],
            textposition="outside",
        )
    )
    if "paper %" in tab:
        fig.add_trace(
            go.Scatter(
                x=tab["algorithm"],
                y=tab["paper %"],
                mode="markers",
                name=t("cmp.paper", lang),
                marker=dict(symbol="line-ew-open", size=30, line=dict(width=3, color="#C00000")),
            )
        )
    fig.update_yaxes(title_text=t("cmp.error_axis", lang), rangemode="tozero")
    return style(fig, height=380, title=t("cmp.errors", lang, dataset=cmp.dataset))


def curves_figure(cmp, lang: str = "en") -> go.Figure:
    fig = go.Figure()
    for key, part in cmp.curves.groupby("key", sort=False):
        fig.add_trace(
            go.Scatter(
                x=part["t"],
                y=part["rate"],
                mode="lines",
                name=str(part["algorithm"].iloc[0]),
                line=dict(color=algorithm_color(key), width=2.5),
            )
        )
    fig.update_xaxes(title_text=t("cmp.t_axis", lang))
    fig.update_yaxes(title_text=t("cmp.rate_axis", lang), rangemode="tozero")
    return style(fig, height=380, title=t("cmp.curves", lang))


def time_figure(cmp, lang: str = "en") -> go.Figure:
    tab = cmp.table
    fig = go.Figure(
        go.Bar(
            x=tab["algorithm"],
            y=tab["train time (s)"],
            marker_color=[algorithm_color(k) for k in tab["key"]],
            text=[f"{v:.3g}" for v in tab["train time (s)"]],
            textposition="outside",
        )
    )
    fig.update_yaxes(title_text=t("cmp.time_axis", lang), type="log")
    return style(fig, height=340, title=t("cmp.times", lang))
