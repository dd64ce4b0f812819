"""Playground: up to four online learners on the same 2-D stream, rewindable to any t."""

import streamlit as st

from olearn import registry
from olearn.app import page_path
from olearn.app.cached import stream_figures
from olearn.app.ui import Controls, guard, lang, plot, tr
from olearn.viz.common import PLOTLY_CONFIG
from olearn.viz.stream import placement_figure

L = lang()
ui = Controls("play")
KINDS = ("blobs", "separable", "xor", "moons", "drift", "placed")
ONLINE = [k for k in registry.names(online=True)]
C_VALUES = [0.001, 0.01, 0.1, 0.3, 1.0, 3.0, 10.0, 100.0]
DEFAULT_POINTS = "-2,1,0;-1.5,2,0;2,1.5,1;1.5,2.5,1;0,-2,2;0.5,-2.5,2;-1,0.5,0;1,0.2,1"


def parse_points(text: str) -> tuple:
    rows = [r.split(",") for r in text.split(";") if r.strip()]
    return tuple((float(a), float(b), int(float(c))) for a, b, c in rows)


with guard():
    st.title(tr("play.title"))
    st.caption(tr("play.intro"))
    with st.container(border=True):
        c1, c2, c3, c4, c5 = st.columns([2, 1, 1, 1, 1])
        kind = ui.select(
            "kind",
            tr("play.kind"),
            KINDS,
            "blobs",
            where=c1,
            format_func=lambda k: tr(f"play.kind.{k}"),
        )
        n = ui.select_slider("n", tr("play.n"), [20, 50, 100, 150, 200, 300, 400], 150, where=c2)
        K = ui.slider(
            "K", tr("play.K"), 2, 6, 3, where=c3, disabled=kind in ("xor", "moons", "placed")
        )
        noise = ui.select_slider(
            "noise", tr("play.noise"), [0.0, 0.05, 0.1, 0.2, 0.3], 0.0, where=c4
        )
        seed = ui.number("seed", tr("ui.seed"), 0, 10_000, 0, where=c5, step=1)
        d1, d2, d3, d4 = st.columns([3, 1, 1, 1])
        keys = ui.multiselect(
            "algos",
            tr("play.algos"),
            ONLINE,
            ["perceptron", "pa", "spa"],
            where=d1,
            max_selections=4,
            format_func=lambda k: registry.get(k).name,
        )
        C = ui.select_slider("C", tr("play.C"), C_VALUES, 1.0, where=d2)
        bias = ui.toggle("bias", tr("play.bias"), True, where=d3)
        band = ui.toggle("band", tr("play.band"), True, where=d4)
        points = None
        if kind == "placed":
            raw = st.query_params.get("pts", DEFAULT_POINTS)
            if ui.is_hidden("pts"):
                points = parse_points(raw)
                ui.values["pts"] = raw
            else:
                if "play.pts" not in st.session_state:
                    st.session_state["play.pts"] = list(parse_points(raw))
                    st.session_state["play.pts_version"] = 0
                version = st.session_state["play.pts_version"]
                e1, e2 = st.columns([1, 2])
                with e1:
                    rows = [
                        {"x1": a, "x2": b, "class": c} for a, b, c in st.session_state["play.pts"]
                    ]
                    table = st.data_editor(
                        rows,
                        num_rows="dynamic",
                        key=f"play.points_table.{version}",
                        height=300,
                        column_config={
                            "class": st.column_config.NumberColumn(
                                min_value=0, max_value=11, step=1
                            )
                        },
                    )
                    st.session_state["play.pts"] = [
                        (float(r["x1"]), float(r["x2"]), int(r["class"]))
                        for r in table
                        if None not in (r.get("x1"), r.get("x2"), r.get("class"))
                    ]
                    st.caption(tr("play.points"))
                with e2:
                    place = st.segmented_control(
                        tr("play.place_class"), list(range(6)), default=0, key="play.place_class"
                    )
                    event = st.plotly_chart(
                        placement_figure(tuple(st.session_state["play.pts"]), L),
                        on_select="rerun",
                        selection_mode="points",
                        config=PLOTLY_CONFIG,
                        key=f"play.place.{version}",
                    )
                    st.caption(tr("play.place_title"))
                    clicked = event.selection.points if event else []
                    if clicked:  # a click on the grid adds a point of the chosen class
                        st.session_state["play.pts"].append(
                            (float(clicked[0]["x"]), float(clicked[0]["y"]), int(place or 0))
                        )
                        st.session_state["play.pts_version"] = version + 1
                        ui.set("t", len(st.session_state["play.pts"]))  # show it learnt
                        st.rerun()
                points = tuple(st.session_state["play.pts"])
                ui.values["pts"] = ";".join(f"{a:g},{b:g},{c}" for a, b, c in points)
    if not keys:
        st.info(tr("play.need_algo"))
        st.stop()
    args = (
        tuple(keys),
        "blobs" if kind == "placed" else kind,
        int(n),
        int(K),
        float(noise),
        0.5,
        int(seed),
        float(C),
        bool(bias),
        points,
    )
    n_total = len(points) if points else int(n)
    playing = st.session_state.get("play.playing", False)

    def clamp(v):
        return int(min(max(v, 0), n_total))

    def move(delta):
        ui.set("t", clamp(ui.get("t", 0) + delta))

    def set_playing(flag):
        st.session_state["play.playing"] = flag
        if flag and ui.get("t", 0) >= n_total:
            ui.set("t", 0)

    p1, p2, p3, p4, p5, _ = st.columns([1.3, 1.1, 1.1, 1.2, 1.4, 3], vertical_alignment="bottom")
    p1.button(
        tr("play.rewind"),
        icon=":material/first_page:",
        on_click=ui.set,
        args=("t", 0),
        key="play.rewind",
        width="stretch",
    )
    p2.button(
        tr("play.back"),
        icon=":material/chevron_left:",
        on_click=move,
        args=(-1,),
        key="play.back",
        width="stretch",
    )
    p3.button(
        tr("play.step"),
        icon=":material/chevron_right:",
        on_click=move,
        args=(1,),
        key="play.step",
        width="stretch",
    )
    if playing:
        p4.button(
            tr("play.pause"),
            icon=":material/pause:",
            on_click=set_playing,
            args=(False,),
            key="play.pause",
            width="stretch",
            type="primary",
        )
    else:
        p4.button(
            tr("play.play"),
            icon=":material/play_arrow:",
            on_click=set_playing,
            args=(True,),
            key="play.play",
            width="stretch",
            type="primary",
        )
    speed = ui.select(
        "speed", tr("play.speed"), [1, 2, 5, 10], 2, where=p5, format_func=lambda v: f"{v} / tick"
    )

    @st.fragment(run_every=0.6 if playing else None)
    def frame():
        with guard():  # a fragment's errors do not reach the page's guard
            if st.session_state.get("play.playing") and ui.get("t", 0) < n_total:
                ui.set("t", clamp(ui.get("t", 0) + int(speed)))
            t = ui.slider("t", tr("play.t"), 0, n_total, min(20, n_total))
            planes, curve, ellipses, _, _ = stream_figures(*args, int(t), L, bool(band))
            plot(planes, key="play.planes")
            left, right = st.columns(2)
            with left:
                plot(curve, key="play.curve")
            with right:
                if ellipses is not None:
                    plot(ellipses, key="play.ellipses")
                    st.caption(tr("play.cw_hint"))
            if st.session_state.get("play.playing") and t >= n_total:
                st.session_state["play.playing"] = False
                st.rerun(scope="app")

    stream_figures(*args, 0, L, bool(band))  # bad data fails here, in the page's guard
    frame()
    with st.expander(tr("play.to_spa")):
        s1, s2 = st.columns([2, 1], vertical_alignment="bottom")
        learner = s1.selectbox(
            tr("play.spa_learner"),
            keys,
            key="play.spa_learner",
            format_func=lambda k: registry.get(k).name,
        )

        def open_spa():
            st.session_state["playground.instance"] = (
                *args,
                learner,
                int(min(ui.get("t", 0), n_total - 1)),
            )
            st.session_state["spa.scenario"] = "playground"
            st.session_state["spa.step"] = 0

        if s2.button(tr("play.to_spa"), on_click=open_spa, key="play.open_spa"):
            st.switch_page(page_path("spa"))
    ui.sync()
