"""Playground: up to four online learners on the same 2-D stream, played in the browser."""

import streamlit as st

from olearn import registry
from olearn.app import page_path
from olearn.app.cached import PLAYGROUND_HEIGHTS, PLAYGROUND_T, stream_predict, stream_views
from olearn.app.components.player import chart_key, player
from olearn.app.downloads import animation_button, stream_html
from olearn.app.frame import require_frame
from olearn.app.hypers import hyper_options, view_hypers
from olearn.app.ui import (
    Controls,
    as_text,
    figure_height,
    figure_theme,
    fill,
    guard,
    lang,
    painted,
    plot,
    projector,
    stage,
    stage_box,
    swatch_css,
    tr,
)
from olearn.teaching.hand_over_url import instance_to_url
from olearn.teaching.settings import PlaygroundRun, default_playground
from olearn.teaching.stream import (
    KINDS,
    MAX_CLASSES,
    check_points,
    points_from_text,
    points_to_text,
)
from olearn.viz.palette import CLASS_COLORS
from olearn.viz.stream import placement_figure

require_frame()  # (a page run alone by Streamlit's legacy mode runs the frame)

L = lang()
ui = Controls("play")
ONLINE = registry.keys(view="playground")
D = default_playground()  # the arrival's setting (prepared when the server starts)
C_VALUES = hyper_options(view_hypers("playground")["C"])  # the registry's range of C
TEST_SHARES = [0.0, 0.1, 0.2, 0.3, 0.5]
SPEEDS = (2, 5, 10, 20, 30, 60)
DEFAULT_POINTS = "-2,1,0;-1.5,2,0;2,1.5,1;1.5,2.5,1;0,-2,2;0.5,-2.5,2;-1,0.5,0;1,0.2,1"
N_PLACE_CLASSES = MAX_CLASSES  # classes a click can place (each button shows its colour)
DELETE = "delete"
CHARTS = {name: chart_key(f"play.{name}") for name in ("planes", "curves", "weights")}


def linked_points() -> tuple:
    """The URL's placed points (``?pts=``), or the example points with a note saying why the
    link's were not used (malformed, too many, or beyond ``±MAX_COORD``)."""
    try:
        return points_from_text(st.query_params.get("pts", DEFAULT_POINTS))
    except ValueError as err:
        st.info(tr("ui.bad_points", message=as_text(err)), icon=":material/info:")
        return points_from_text(DEFAULT_POINTS)


def placed_points_editor() -> tuple:
    """The points a user places: click to add (class buttons) or delete, Clear, a table."""
    if "play.pts" not in st.session_state:
        st.session_state["play.pts"] = list(linked_points())
        st.session_state["play.pts_version"] = 0
    version = st.session_state["play.pts_version"]

    def changed(points):
        st.session_state["play.pts"] = points
        st.session_state["play.pts_version"] += 1
        ui.set("t", len(points))  # show what the learners made of every point

    e1, e2 = st.columns([3, 2])
    with e1:
        st.html(swatch_css("play.place_class", CLASS_COLORS[:N_PLACE_CLASSES]))
        mode = st.segmented_control(
            tr("play.place_mode"),
            [*range(N_PLACE_CLASSES), DELETE],
            default=0,
            key="play.place_class",
            format_func=lambda c: (
                ":material/delete: " + tr("play.delete") if c == DELETE else str(c)
            ),
        )
        event = plot(
            placement_figure(tuple(st.session_state["play.pts"]), L),
            key=f"play.place.{version}",
            on_select="rerun",
            selection_mode="points",
        )
        st.caption(tr("play.place_title"))
        clicked = event.selection.points if event else []
        if clicked:
            hit = clicked[0]
            points = list(st.session_state["play.pts"])
            if mode == DELETE:
                if hit.get("curve_number") == 1:  # trace 1 holds the placed points
                    del points[int(hit["point_index"])]
            elif hit.get("curve_number") == 0:  # trace 0 is the grid of clickable spots
                points.append((float(hit["x"]), float(hit["y"]), int(mode or 0)))
            changed(points)
            st.rerun()
    with e2:
        if st.button(tr("play.clear"), icon=":material/delete_sweep:", key="play.clear"):
            changed([])
            st.rerun()
        rows = [{"x1": a, "x2": b, "class": c} for a, b, c in st.session_state["play.pts"]]
        table = st.data_editor(
            rows,
            num_rows="dynamic",
            key=f"play.points_table.{version}",
            height=260,
            column_config={
                "class": st.column_config.NumberColumn(
                    min_value=0, max_value=MAX_CLASSES - 1, step=1
                )
            },
        )
        rows = [
            (float(r["x1"]), float(r["x2"]), int(r["class"]))
            for r in table
            if None not in (r.get("x1"), r.get("x2"), r.get("class"))
        ]
        kept = []
        for row in rows:  # a typed 1e308 would reach plotly's axes (a JavaScript error)
            try:
                check_points([row])
                kept.append(row)
            except ValueError as err:
                st.info(tr("play.row_refused", message=as_text(err)), icon=":material/info:")
        st.session_state["play.pts"] = kept
        st.caption(tr("play.points"))
    points = tuple(st.session_state["play.pts"])
    ui.values["pts"] = points_to_text(points)
    return points


def learners_view(run: PlaygroundRun, band: bool, predict: bool) -> None:
    """The learners on the stream: the figures, the player, the hand-over to the SPA page.

    ``predict``: each example is first a question (will each learner get it right? where will
    its boundary go?), the curves after t behind a curtain; Step reveals it (``?reveal=``)."""
    n_total = run.length
    # t and the speed are set in the browser by the player below (no widget here): the URL
    # gives them on arrival, the player's last report after that
    t = int(
        ui.state(
            "t", min(PLAYGROUND_T, n_total), lambda v: isinstance(v, int) and 0 <= v <= n_total
        )
    )
    fps = int(ui.state("fps", 10, lambda v: v in SPEEDS))
    revealed = ui.state("reveal", 0, lambda v: v in (0, 1))
    if not predict:
        ui.values.pop("reveal")
    heights = (figure_height(PLAYGROUND_HEIGHTS[0], 520), figure_height(PLAYGROUND_HEIGHTS[1], 360))
    # the figures are drawn at the t where this setting was first shown (its "anchor"), so
    # a report from the player (a new t) reruns the page without changing any figure
    anchor = (run, L, bool(band), heights)
    if st.session_state.get("play.anchor", (None,))[0] != anchor:
        st.session_state["play.anchor"] = (anchor, t)
    t0 = st.session_state["play.anchor"][1]
    views = stream_views(run, L, bool(band), heights, t0)
    asked = stream_predict(run, L, bool(band), heights, t0) if predict else None

    left, right = stage((3, 2))
    with left, stage_box("planes"):
        plot(views["planes"], key=CHARTS["planes"], **fill())
    with right, stage_box("player"):
        frames = views["frames"]  # (in the page's theme)
        names = ["planes", "curves", *(["weights"] if views["weights"] is not None else [])]
        charts = dict(zip([CHARTS[k] for k in names], painted([frames[k] for k in names])))
        labels = {k: tr(f"play.{k}") for k in ("play", "pause", "step", "back", "rewind", "fps")}
        labels["keys"] = tr("keys.step" if predict else "keys.player") if projector() else ""
        labels["reveal"] = tr("predict.reveal")
        pos = player(
            "play.player",
            charts,
            views["n"],
            t,
            f"{views['sig']}:{figure_theme().name}",
            views["notes"],
            labels=labels,
            fps=fps,
            speeds=SPEEDS,
            meta=views["sig"],
            predict=None if asked is None else {k: asked[k] for k in ("questions", "answers")},
            revealed=bool(revealed),
        )
        if pos is not None:  # the lecturer stopped: keep that frame (and speed) for the URL
            t = int(min(max(int(pos.get("t", t)), 0), n_total))
            ui.set("t", t)
            if predict and "revealed" in pos:
                revealed = int(bool(pos["revealed"]))
                ui.set("reveal", revealed)
            if pos.get("fps") in SPEEDS:
                ui.set("fps", int(pos["fps"]))
                fps = int(pos["fps"])
        curves = views["curves"] if asked is None else asked["curves"]  # (the future hidden)
        plot(curves, key=CHARTS["curves"], **fill())
        if not projector():  # (there, the player shows the keys)
            st.caption(tr("play.keys_hint"))
    if not ui.all_hidden:  # (below the stage in projector mode)
        with right if not projector() else st.container():
            animation_button(
                (tr("ui.download_html"), tr("ui.download_html.help")),
                lambda: stream_html(views, tr("play.title")),
                "olearn-playground.html",
                "play.download",
            )
    ui.values["t"] = t
    ui.values["fps"] = fps
    if predict:
        ui.values["reveal"] = revealed
    if views["weights"] is not None:
        plot(views["weights"], key=CHARTS["weights"])
        st.caption(tr("play.cw_hint_ellipses"))
    if not ui.all_hidden:
        with st.expander(tr("play.to_spa"), icon=":material/search_insights:"):
            learner = st.selectbox(
                tr("play.spa_learner"),
                run.keys,
                key="play.spa_learner",
                format_func=lambda k: registry.get(k).name,
            )
            at = int(min(t, n_total - 1))
            hand_over = run.hand_over(learner, at)
            st.page_link(
                page_path("spa"),
                label=tr("play.open_link", name=registry.get(learner).name, t=at),
                icon=":material/open_in_new:",
                query_params={**instance_to_url(hand_over), "lang": L},
            )


with guard():
    ui.header(tr("play.title"), tr("play.intro"))
    with ui.panel():
        c1, c2, c3, c4, c5, c6 = ui.columns([2, 1.2, 1, 1, 1, 1.3], vertical_alignment="bottom")
        kind = ui.select(
            "kind",
            tr("play.kind"),
            (*KINDS, "placed"),
            D.kind,
            where=c1,
            format_func=lambda k: tr(f"play.kind.{k}"),
        )
        placing = kind == "placed"
        n = ui.select_slider(
            "n", tr("play.n"), [20, 50, 100, 150, 200, 300, 400], D.n, where=c2, disabled=placing
        )
        K = ui.slider(
            "K", tr("play.K"), 2, 6, D.K, where=c3, disabled=kind in ("xor", "moons", "placed")
        )
        noise = ui.select_slider(
            "noise",
            tr("play.noise"),
            [0.0, 0.05, 0.1, 0.2, 0.3],
            D.noise,
            where=c4,
            disabled=placing,
        )
        test = ui.select_slider(
            "test",
            tr("play.test"),
            TEST_SHARES,
            D.test_fraction,
            where=c5,
            disabled=placing,
            help=tr("play.test_help"),
        )
        seed = ui.number(
            "seed", tr("ui.seed"), 0, 10_000, D.seed, where=c6, step=1, disabled=placing
        )
        # the two switches share a column, one above the other, so no label is cut short
        d1, d2, d3, d5 = ui.columns([3, 1.4, 1.5, 1.5], vertical_alignment="bottom")
        keys = ui.multiselect(
            "algos",
            tr("play.algos"),
            ONLINE,
            D.keys,
            where=d1,
            max_selections=4,
            format_func=lambda k: registry.get(k).name,
        )
        C = ui.select_slider("C", tr("play.C"), C_VALUES, D.C, where=d2)
        bias = ui.toggle("bias", tr("play.bias"), D.bias, where=d3)
        band = ui.toggle("band", tr("play.band"), True, where=d3)
        predict = ui.toggle(
            "predict", tr("predict.label"), False, where=d5, help=tr("predict.help")
        )
        d5.button(
            tr("play.regenerate"),
            icon=":material/casino:",
            key="play.regenerate",
            on_click=lambda: ui.set("seed", (int(ui.get("seed", 0)) + 1) % 10_001),
            disabled=placing,
            width="stretch",
        )
        points = None
        if placing and not ui.is_hidden("pts"):
            st.caption(tr("play.place_disabled"))
            points = placed_points_editor()
        elif placing:
            points = linked_points()
            ui.values["pts"] = points_to_text(points)
    if not keys:
        st.info(tr("play.need_algo"))
    elif placing and len({c for _, _, c in points}) < 2:
        st.info(tr("play.need_points"))
    else:
        placing = kind == "placed"
        run = PlaygroundRun(
            tuple(keys),
            "blobs" if placing else kind,
            n,
            K,
            noise,
            D.margin,
            seed=seed,
            C=C,
            bias=bias,
            points=points,
            test_fraction=0.0 if placing else test,
        )
        learners_view(run, band, predict)
    ui.sync()
