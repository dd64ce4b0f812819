"""Figures of the Compare page: errors with the paper's value, online mistake-rate curves,
training times.  Each learner in its registry colour AND dash, curves labelled at their right
end, text 16 px dark, bar axes from zero, parameters as readable text.

Parameters read as a lecturer writes them (:func:`olearn.teaching.compare.params_text`).
"""

from __future__ import annotations

import plotly.graph_objects as go

from olearn.teaching.compare import params_text
from olearn.teaching.strings import num, t
from olearn.viz.palette import algorithm_color, algorithm_dash
from olearn.viz.theme import LIGHT
from olearn.viz.walks import end_labels, style


def _hover(tab) -> list[str]:
    params = tab["params"] if "params" in tab else [""] * len(tab)
    return [
        f"{a}: {num(e)} %" + (f"<br>{params_text(p)}" if params_text(p) else "")
        for a, e, p in zip(tab["algorithm"], tab["error %"], params)
    ]


def error_figure(cmp, lang: str = "en", height: int = 400) -> go.Figure:
    tab = cmp.table
    fig = go.Figure(
        go.Bar(
            x=tab["algorithm"],
            y=tab["error %"],
            error_y=dict(type="data", array=tab["std"], color=LIGHT.soft, thickness=1.5),
            marker_color=[algorithm_color(k) for k in tab["key"]],
            name=t("cmp.ours", lang),
            hovertext=_hover(tab),
            hoverinfo="text",
        )
    )
    if "paper %" in tab:
        fig.add_trace(
            go.Scatter(
                x=tab["algorithm"],
                y=tab["paper %"],
                mode="markers",
                name=t("cmp.paper", lang),
                marker=dict(symbol="line-ew-open", size=34, line=dict(width=4, color=LIGHT.text)),
            )
        )
    top = float(max(tab["error %"].max() + tab["std"].fillna(0).max(), 0))
    if "paper %" in tab:
        top = max(top, float(tab["paper %"].max()))
    fig.update_yaxes(title_text=t("cmp.error_axis", lang), range=[0, 1.1 * top or 1.0])
    # each value under its name (on the bar it would collide with the error bar's whisker)
    fig.update_xaxes(
        tickmode="array",
        tickvals=list(tab["algorithm"]),
        ticktext=[f"{a}<br><b>{num(e, 3)} %</b>" for a, e in zip(tab["algorithm"], tab["error %"])],
    )
    style(fig, height=height, title=t("cmp.errors", lang, dataset=cmp.dataset))
    fig.update_layout(margin=dict(t=90))
    return fig


def curves_figure(cmp, lang: str = "en", height: int = 400) -> go.Figure:
    fig = go.Figure()
    ends = []
    for key, part in cmp.curves.groupby("key", sort=False):
        name, color = str(part["algorithm"].iloc[0]), algorithm_color(key)
        fig.add_trace(
            go.Scatter(
                x=part["t"],
                y=part["rate"],
                mode="lines",
                name=name,
                line=dict(color=color, width=3, dash=algorithm_dash(key)),
                showlegend=False,
            )
        )
        ends.append((name, float(part["rate"].iloc[-1]), color))
    top = float(cmp.curves["rate"].max()) * 1.05 if len(cmp.curves) else 1.0
    fig.update_xaxes(title_text=t("cmp.t_axis", lang), rangemode="tozero")
    fig.update_yaxes(title_text=t("cmp.rate_axis", lang), range=[0, top or 1.0])
    style(fig, height=height, title=t("cmp.curves", lang))
    fig.update_layout(margin=dict(t=60, r=140, b=60))
    if ends:
        end_labels(fig, ends, height_px=height - 60 - 60)
    return fig


def time_figure(cmp, lang: str = "en", height: int = 360) -> go.Figure:
    """Training time per fold on a linear axis from zero (a bar's length is the time); the
    exact value is written on each bar, so the short ones stay readable."""
    tab = cmp.table
    fig = go.Figure(
        go.Bar(
            x=tab["algorithm"],
            y=tab["train time (s)"],
            marker_color=[algorithm_color(k) for k in tab["key"]],
            text=[num(v, 3) for v in tab["train time (s)"]],
            textposition="outside",
            textfont=dict(size=16, color=LIGHT.text),
            cliponaxis=False,
        )
    )
    top = float(tab["train time (s)"].max()) if len(tab) else 1.0
    fig.update_yaxes(title_text=t("sgd.seconds", lang), range=[0, 1.18 * top or 1.0])
    style(fig, height=height, title=t("cmp.times", lang))
    fig.update_layout(margin=dict(t=70))
    return fig
