"""The Crammer-Singer SVM: the decomposition one sub-problem at a time, played in the browser,
against LIBLINEAR's optimum."""

import bisect

import streamlit as st

from olearn.app.cached import cs_figure_at, cs_page, cs_player_views
from olearn.app.components.player import chart_key, player
from olearn.app.downloads import animation_button, cs_html
from olearn.app.frame import require_frame
from olearn.app.hypers import hyper_options
from olearn.app.ui import (
    Controls,
    figure_theme,
    fill,
    guard,
    lang,
    painted,
    plot,
    projector,
    stage_box,
    tr,
)
from olearn.teaching.hypers import algorithm_hyper
from olearn.teaching.strings import num

require_frame()  # (a page run alone by Streamlit's legacy mode runs the frame)

L = lang()
ui = Controls("cs")
C_HYPER = algorithm_hyper("cs-svm", "C")  # the slider's range and default: the registry's
hide_all = "all" in ui.hidden
CHART = chart_key("cs.fig")
SPEEDS = (2, 5, 10, 20)

with guard():
    ui.header(tr("cs.title"), tr("cs.intro"))
    box = ui.settings(tr("walks.settings"))
    row = box.columns([2, 2, 1, 2, 1]) if box is not None else [None] * 5  # no empty box
    c1, c2, c3, c4, c5 = row
    kind = ui.select(
        "kind",
        tr("play.kind"),
        ["blobs", "separable", "drift"],
        "blobs",
        where=c1,
        format_func=lambda k: tr(f"play.kind.{k}"),
    )
    n = ui.select_slider("n", tr("play.n"), [20, 40, 60, 100, 150], 60, where=c2)
    K = ui.slider("K", tr("play.K"), 2, 5, 3, where=c3)
    C = ui.select_slider("C", "C", hyper_options(C_HYPER), C_HYPER.default, where=c4)
    seed = ui.number("seed", tr("ui.seed"), 0, 10_000, 0, where=c5, step=1)
    with st.spinner():
        walk = cs_page(kind, int(n), int(K), float(C), int(seed))
        views = cs_player_views(kind, int(n), int(K), float(C), int(seed), L)
    ks, n_changed = views["ks"], views["n_changed"]  # frame -> its number among the changes
    k = ui.state("s", 1, lambda v: isinstance(v, int) and 1 <= v <= n_changed)
    i = min(bisect.bisect_left(ks, k), len(ks) - 1)  # the first frame from sub-problem k on
    fps = int(ui.state("fps", 5, lambda v: v in SPEEDS))
    left, right = st.columns([2.7, 1], vertical_alignment="top")
    with right:
        labels = {key: tr(f"play.{key}") for key in ("play", "pause", "step", "back", "rewind")}
        labels["fps"] = tr("play.fps")
        labels["keys"] = tr("keys.player") if projector() else ""
        pos = player(
            "cs.player",
            {CHART: painted([views["frames"]])[0]},  # (in the page's theme)
            len(ks) - 1,
            i,
            f"{views['sig']}:{figure_theme().name}",
            views["notes"],
            labels=labels,
            fps=fps,
            speeds=SPEEDS,
            url="s",
            url_values=list(ks),
            meta=views["sig"],
        )
        if pos is not None:  # stopped: that sub-problem goes to the URL
            i = int(min(max(int(pos.get("t", i)), 0), len(ks) - 1))
            ui.adopt("s", ks[i])
            if pos.get("fps") in SPEEDS:
                fps = ui.adopt("fps", int(pos["fps"]))
        if not projector():  # (there, below the figure)
            st.caption(tr("cs.play_help"))
    if not hide_all:
        with right if not projector() else st.container():
            animation_button(
                (tr("ui.download_html"), tr("ui.download_html.help")),
                lambda: cs_html(views, tr("cs.title")),
                "olearn-cs-svm.html",
                "cs.download",
            )
    fig, table = cs_figure_at(kind, int(n), int(K), float(C), int(seed), i=i, lang=L)
    with left, stage_box("cs"):
        plot(fig, key=CHART, **fill())
    if projector():
        st.caption(tr("cs.play_help"))
    last = walk.sweeps.iloc[-1]
    st.info(
        tr(
            "cs.final",
            gap=f"{last['gap']:.2e}",
            sweeps=int(last["sweep"]),
            ours=num(last["primal"], 6),
            ref=num(walk.liblinear_primal, 6),
        )
    )
    st.markdown(f"#### {tr('cs.table_title', k=ks[i], n=n_changed)}")
    st.dataframe(table, hide_index=True)
    ui.sync()
