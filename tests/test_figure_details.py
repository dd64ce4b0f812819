"""The figure details a class noticed (issue 31, item 8), each checked on the figure built."""

from __future__ import annotations

import json

import numpy as np

from olearn.teaching.settings import default_playground
from olearn.viz.stream import count_ticks, curves_parts, planes_parts


def _run():
    return default_playground().stream()


def test_the_mistake_curves_end_at_the_last_example_with_whole_number_ticks():
    run = _run()
    fig, _ = curves_parts(run, "en", 420, 20)
    assert tuple(fig.layout.xaxis.range) == (0, run.n)  # 150, not 200
    y = fig.layout.yaxis
    assert y.tickmode == "linear" and y.tick0 == 0 and float(y.dtick).is_integer()
    assert all(a.x == run.n for a in fig.layout.annotations)  # the labels at the end...
    assert fig.layout.margin.r >= 9 * max(map(len, run.names))  # ...in the margin
    for top in (0.5, 1.08, 3, 14, 37, 150, 1234):
        step = count_ticks(top)["dtick"]
        assert isinstance(step, int) and step >= 1 and top / step <= 6


def test_the_2d_panels_narrow_rather_than_stretch_their_range():
    run = _run()
    fig, _ = planes_parts(run, "en", True, 640, 20, "sig")
    layout = json.loads(fig.to_json())["layout"]
    for name, axis in layout.items():
        if name.startswith(("xaxis", "yaxis")):
            assert axis.get("constrain") == "domain", name
    counts = [t for t in fig.data if t.mode == "text"]
    assert counts and all(t.textposition == "top left" for t in counts)  # above the panel


def test_spa_figures_subscripts_theta_label_and_labels_on_top():
    from olearn.teaching.spa_walk import scenario, spa_walkthrough
    from olearn.viz.spa import cap_figure, spa_step_figure

    walk = spa_walkthrough(scenario("three-rivals", C=0.1), "I", 0.1)
    names = [t.name for t in cap_figure(walk).data if t.name]
    assert not any("τ_" in n for n in names) and any("<sub>" in n for n in names)
    tau = next(i for i, s in enumerate(walk.steps) if s.key == "tau")
    fig = spa_step_figure(walk, tau)
    theta = [a for a in fig.layout.annotations if a.text and a.text.startswith("θ =")]
    assert theta and all(a.y == 1.0 and a.yanchor == "bottom" for a in theta)
    update = len(walk.steps) - 1
    notes = list(spa_step_figure(walk, update).layout.annotations)
    labels = [i for i, a in enumerate(notes) if a.text and a.text.startswith("w")]
    plane = notes[labels[0]].xref  # the weights' panel
    arrows = [i for i, a in enumerate(notes) if a.showarrow and a.xref == plane]
    assert labels and arrows and min(labels) > max(arrows)  # drawn after its every arrow


def test_the_noise_plot_separates_its_low_lines_on_a_log_axis():
    import pandas as pd

    from olearn.viz.walks import noise_figure

    table = pd.DataFrame(
        {
            "key": ["cw", "arow", "scw1", "nherd"],
            "algorithm": ["CW", "AROW", "SCW-I", "NHERD"],
            "pass": [1, 1, 1, 1],
            "error %": [53.0, 8.0, 7.8, 8.1],
        }
    )
    fig = noise_figure(table, "en")
    assert fig.layout.yaxis.type == "log"
    low, high = fig.layout.yaxis.range
    assert low < np.log10(7.8) and high > np.log10(53.0)
