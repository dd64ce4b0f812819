"""Every figure of :mod:`olearn.viz` works outside the app: built on small data, written with
``fig.write_html``, the file holds the figure; an animation carries its frames and a play
control, and those frames are the ones the app's player plays.  The app's HTML download of
an animation is self-contained (plotly.js inlined, nothing fetched) with the same frames."""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
from plotly.utils import PlotlyJSONEncoder

import olearn.viz
from olearn.teaching.settings import PlaygroundRun

# one Playground setting, as the app's cached stream_views takes it
RUN = PlaygroundRun(("perceptron", "arow"), "blobs", 24, 3, 0.0, 0.5, seed=1, test_fraction=0.25)


def _stream():
    return RUN.stream()


def _cs():
    from olearn.teaching.cs_walk import cs_walk

    return cs_walk(n_samples=24, C=0.5)


def _spa():
    from olearn.teaching.spa_walk import scenario, spa_walkthrough

    return spa_walkthrough(scenario("three-rivals"), "I")


def _compare():
    from olearn.teaching.compare import compare, dataset_from

    data = dataset_from("toy-blobs")
    return compare(data, ("perceptron", "pa"), (1.0,), folds=2, max_samples=60)


def _pcvm():
    from olearn.teaching.pcvm_walk import pcvm_walk

    return pcvm_walk(n_samples=30)


def _sgd():
    from olearn.teaching.sgd_walk import sgd_compare

    return sgd_compare(epochs=1, n_samples=120)


def _cw():
    from olearn.teaching.cw_walk import cw_update

    return cw_update()


def _noise():
    from olearn.teaching.cw_walk import noise_experiment

    return noise_experiment(passes=1, algorithms=("perceptron", "arow"), max_samples=100)


def _pairs():  # paper vs ours, as numeric_pairs gives them
    return pd.DataFrame(
        dict(
            dataset=["a", "a", "b"],
            algorithm=["pa", "spa", "pa"],
            paper=[1.0, 2, 3],
            ours=[1.1, 2, 2.9],
        )
    )


def _home():
    from olearn.teaching.home import family_map

    return family_map("en")


# "module.builder" -> how to call it on small data; a new public builder without an entry
# here fails test_every_builder_is_covered
BUILDERS = {
    "compare.error_figure": lambda f: f(_compare()),
    "compare.curves_figure": lambda f: f(_compare()),
    "compare.time_figure": lambda f: f(_compare()),
    "cs_svm.cs_figure": lambda f: f(_cs(), 0),
    "cs_svm.cs_animation": lambda f: f(_cs()),
    "home.family_map_figure": lambda f: f(*_home()),
    "reproduce.paper_vs_ours_figure": lambda f: f(_pairs()),
    "spa.spa_step_figure": lambda f: f(_spa(), 0),
    "spa.cap_figure": lambda f: f(_spa()),
    "spa.pa_vs_spa_figure": lambda f: f(_spa()),
    "stream.planes_animation": lambda f: f(_stream()),
    "stream.curves_animation": lambda f: f(_stream()),
    "stream.weight_space_animation": lambda f: f(_stream()),
    "stream.placement_figure": lambda f: f(((0.5, 1.0, 0),)),
    "walks.cw_figure": lambda f: f(_cw()),
    "walks.cw_input_figure": lambda f: f(_cw()),
    "walks.noise_figure": lambda f: f(_noise()),
    "walks.pcvm_figure": lambda f: f(_pcvm(), 0),
    "walks.pcvm_history_figure": lambda f: f(_pcvm(), 0),
    "walks.sgd_figures": lambda f: f(_sgd()),
    "walks.sgd_rates_figure": lambda f: f(_sgd()),
}
ANIMATIONS = {name for name in BUILDERS if name.endswith("_animation")}


def public_builders() -> set[str]:
    """Every public function of an ``olearn.viz`` module whose return annotation names a
    plotly Figure (the ``*_parts`` of the player return a figure *and* frames: not a
    builder a user calls; a function whose first argument is ``fig`` changes a figure it is
    given: ``style``, ``with_frames``)."""
    found = set()
    for info in pkgutil.iter_modules(olearn.viz.__path__):
        module = importlib.import_module(f"olearn.viz.{info.name}")
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if name.startswith("_") or fn.__module__ != module.__name__:
                continue
            sig = inspect.signature(fn)
            returns, first = str(sig.return_annotation), next(iter(sig.parameters), "")
            if "Figure" in returns and "list[dict]" not in returns and first != "fig":
                found.add(f"{info.name}.{name}")
    return found


def test_every_builder_is_covered():
    assert public_builders() == set(BUILDERS)


def _figures(out) -> list[go.Figure]:
    return list(out) if isinstance(out, tuple) else [out]


def _embedded(html_text: str) -> list[dict]:
    """The figures a page written by plotly holds: ``Plotly.newPlot(id, data, layout, config)``
    and, for an animation, ``Plotly.addFrames(id, frames)``; or those of olearn's animation
    page (``window.olearnAnimation = {"charts": [{"id", "figure"}], ...}``), parsed back."""
    decoder = json.JSONDecoder()
    if (at := html_text.find("window.olearnAnimation = ")) >= 0:
        page, _ = decoder.raw_decode(html_text, at + len("window.olearnAnimation = "))
        return [
            {"frames": [], **{k: c["figure"].get(k) for k in ("data", "layout", "frames")}}
            for c in page["charts"]
        ]
    figs = []
    for m in re.finditer(r'Plotly\.newPlot\(\s*"[^"]+",\s*', html_text):
        data, end = decoder.raw_decode(html_text, m.end())
        start = re.compile(r"\s*,\s*").match(html_text, end).end()
        layout, _ = decoder.raw_decode(html_text, start)
        figs.append({"data": data, "layout": layout, "frames": []})
    for i, m in enumerate(re.finditer(r"""Plotly\.addFrames\(\s*['"][^'"]+['"],\s*""", html_text)):
        figs[i]["frames"], _ = decoder.raw_decode(html_text, m.end())
    return figs


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_builder_writes_a_working_html(name, tmp_path):
    module, function = name.split(".")
    out = BUILDERS[name](getattr(importlib.import_module(f"olearn.viz.{module}"), function))
    assert out is not None, name
    for i, fig in enumerate(_figures(out)):
        assert isinstance(fig, go.Figure)
        path = tmp_path / f"{i}.html"
        fig.write_html(path, include_plotlyjs=False)
        (page,) = _embedded(path.read_text(encoding="utf-8"))
        assert len(page["data"]) == len(fig.data) > 0
        assert json.dumps(page["data"][0].get("type", "scatter")) == json.dumps(
            fig.data[0].type or "scatter"
        )
        if name in ANIMATIONS:
            names = [f["name"] for f in page["frames"]]
            assert len(names) > 2 and names == [f.name for f in fig.frames]
            buttons = page["layout"]["updatemenus"][0]["buttons"]
            assert [b["method"] for b in buttons] == ["animate", "animate"]
            steps = page["layout"]["sliders"][0]["steps"]
            assert [s["args"][0] for s in steps] == [[n] for n in names]
        else:
            assert not page["frames"]


def _frame_data(frames) -> list[list[dict]]:
    """Each frame's trace updates as JSON, without the ``type`` plotly.py adds (every trace
    of these figures is a scatter: the type changes nothing)."""
    out = []
    for frame in frames:
        frame = frame.to_plotly_json() if isinstance(frame, go.Frame) else frame
        data = json.loads(json.dumps(frame["data"], cls=PlotlyJSONEncoder))
        assert all(d.pop("type", "scatter") == "scatter" for d in data)
        out.append(data)
    return out


def test_stream_animations_play_the_frames_of_the_app():
    """The frames the Playground's player gets (through the app's own cached builder) are
    those of the figures :func:`planes_animation` and :func:`curves_animation` return."""
    from olearn.app.cached import stream_views
    from olearn.viz.stream import curves_animation, planes_animation, weight_space_animation

    views = stream_views(RUN, "en", True, (500, 300), 0)
    run = _stream()
    assert run.n == views["n"]
    public = {
        "planes": planes_animation(run, "en", True, 500),
        "curves": curves_animation(run, "en", 300),
        "weights": weight_space_animation(run, "en", 420),
    }
    for name, fig in public.items():
        played = (  # the player's planes and weights travel packed (the browser tests unpack)
            views["unpacked"]()[name] if name != "curves" else json.loads(views["frames"][name])
        )
        assert len(played) == run.n + 1
        assert [f.name for f in fig.frames] == [f["name"] for f in played]
        assert _frame_data(fig.frames) == _frame_data(played)
        assert [list(f.traces) for f in fig.frames] == [f["traces"] for f in played]


def test_cs_animation_plays_the_frames_of_the_app():
    from olearn.app.cached import cs_player_views
    from olearn.viz.cs_svm import cs_animation

    views = cs_player_views("blobs", 24, 3, 0.5, 0, "en")
    fig = cs_animation(_cs())
    played = json.loads(views["frames"])
    assert _frame_data(fig.frames) == _frame_data(played)
    labels = [step.label for step in fig.layout.sliders[0].steps]
    assert labels == [str(k) for k in views["ks"]]


def test_animation_starts_where_the_figure_is():
    """A figure drawn at t0 has its slider at t0 and its first trace where frame t0 puts it."""
    from olearn.viz.stream import curves_animation

    run = _stream()
    fig = curves_animation(run, t0=7)
    assert fig.layout.sliders[0].active == 7
    moving = fig.frames[7].traces[0]
    assert list(fig.data[moving].x) == list(fig.frames[7].data[0].x)


def test_play_controls_fit_under_the_plot():
    """The controls add room under the plot and sit below the plot area (negative paper y),
    so the plot keeps its size and nothing overlaps the axes."""
    from olearn.viz.animate import CONTROLS_PX
    from olearn.viz.stream import curves_parts

    run = _stream()
    still, frames = curves_parts(run, height=300)
    from olearn.viz.animate import with_frames

    fig = with_frames(still, frames)
    assert fig.layout.height == 300 + CONTROLS_PX
    assert fig.layout.margin.b == still.layout.margin.b + CONTROLS_PX
    assert fig.layout.sliders[0].y < 0 and fig.layout.updatemenus[0].y < 0


def _self_contained(text: str) -> None:
    assert "<script src=" not in text.replace(" ", "").lower().replace("'", '"')
    # the library itself, inlined; plotly.js 3.0 (plotly 6.0) holds an https address of its own
    # (the map traces' icons, never drawn here): the check reads the rest of the file
    library = re.search(r"<script>/\*\*\s*\* plotly\.js v\d+\.\d+.*?</script>", text, re.S)
    assert library
    ours = text[: library.start()] + text[library.end() :]
    assert "Plotly.newPlot" in ours  # the page's own script is in what is checked
    assert not re.search(r"""src\s*=\s*["']https?://""", ours)
    assert len(text) > 1_000_000


def test_playground_download_is_self_contained_with_the_apps_frames():
    from olearn.app.cached import stream_views
    from olearn.app.downloads import stream_html

    views = stream_views(RUN, "ja", True, (500, 300), 5)
    text = stream_html(views, "プレイグラウンド")
    _self_contained(text)
    figs = _embedded(text)
    assert len(figs) == 3  # planes (with the play control), curves, weight space
    for fig, name in zip(figs, ("planes", "curves", "weights")):
        played = views["unpacked"]()[name] if name != "curves" else views["frames"][name]
        assert fig["frames"] == (played if name != "curves" else json.loads(played))
    assert figs[0]["layout"]["sliders"][0]["active"] == 5
    assert "updatemenus" not in figs[1]["layout"]
    assert "plotly_animatingframe" in text  # the curves follow the planes' frame
    assert "<meta charset='utf-8'>" in text and "プレイグラウンド" in text


def test_cs_download_is_self_contained_with_the_apps_frames():
    from olearn.app.cached import cs_player_views
    from olearn.app.downloads import cs_html

    views = cs_player_views("blobs", 24, 3, 0.5, 0, "en")
    text = cs_html(views)
    _self_contained(text)
    (fig,) = _embedded(text)
    assert fig["frames"] == json.loads(views["frames"])
    labels = [s["label"] for s in fig["layout"]["sliders"][0]["steps"]]
    assert labels == [str(k) for k in views["ks"]]  # as the page counts the sub-problems


def test_every_chart_config_downloads_png_named_after_its_chart():
    from olearn.app.downloads import chart_config

    keys = ["cmp.err", "play-planes", None]
    names = [chart_config(k)["toImageButtonOptions"] for k in keys]
    assert [n["filename"] for n in names] == ["olearn-cmp-err", "olearn-play-planes", "olearn"]
    assert all(n["format"] == "png" and n["scale"] == 2 for n in names)
    assert np.all([chart_config(k)["displaylogo"] is False for k in keys])
