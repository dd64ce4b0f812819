"""What the pages show is computed by olearn.teaching: checked here against independent
references (quadprog for the closed forms, the numba kernel behind the estimators for the
playground's snapshots) and for internal consistency of the step-through."""

from __future__ import annotations

import numpy as np
import pytest

from olearn.core.spa import spa_step
from olearn.estimators import PAClassifier, PerceptronClassifier, SPAClassifier
from olearn.teaching.instances import Instance, random_instance
from olearn.teaching.qp import qp_step
from olearn.teaching.settings import CwWalk, PlaygroundRun
from olearn.teaching.spa_walk import SCENARIOS, scenario, spa_walkthrough
from olearn.teaching.stream import run_stream


@pytest.mark.parametrize("variant", [None, "I", "II"])
@pytest.mark.parametrize("seed", range(40))
def test_closed_form_matches_the_qp_solver(variant, seed):
    rng = np.random.default_rng(seed)
    K, d = int(rng.integers(3, 7)), int(rng.integers(1, 5))
    W, x, y = rng.normal(size=(K, d)) * 2, rng.normal(size=d), int(rng.integers(K))
    C = float(10 ** rng.uniform(-2, 1))
    W1, tr = spa_step(W, x, y, variant, C)
    ans = qp_step(W, x, y, variant, C)
    np.testing.assert_allclose(tr.tau, ans.tau, atol=1e-7 * (1 + np.max(ans.tau)))
    np.testing.assert_allclose(W1 - W, ans.delta, atol=1e-7 * (1 + np.max(np.abs(ans.delta))))


def test_qp_referee_would_catch_a_wrong_step():
    """The printed SPA-I of the seed is not the minimiser: the referee disagrees with it."""
    from olearn.core.spa import spa_printed_step
    from olearn.teaching.instances import find_printed_discrepancy

    inst = find_printed_discrepancy("I", seed=1)
    printed = spa_printed_step(inst.W, inst.x, inst.y, "I", inst.C)[1]
    assert np.max(np.abs(printed.tau - qp_step(inst.W, inst.x, inst.y, "I", inst.C).tau)) > 1e-6


@pytest.mark.parametrize("name", [s for s in SCENARIOS if s != "playground"])
@pytest.mark.parametrize("variant", [None, "I", "II"])
def test_walkthrough_follows_the_trace(name, variant):
    inst = scenario(name, seed=2, C=0.5)
    walk = spa_walkthrough(inst, variant, 0.5, "en")
    keys = [s.key for s in walk.steps]
    if walk.spa.reason != "aggressive":
        assert keys == ["scores", "margins", "passive"]
        return
    assert keys[:4] == ["scores", "margins", "Q", "sorted"]
    assert keys[-3:] == ["tau", "update", "after"]
    assert keys.count("test") == len(walk.spa.tests)
    assert walk.qp_max_diff < 1e-7
    # the last sub-step's table holds the new scores, and they are those of W_after x
    after = walk.steps[-1].table["s_u_after"].to_numpy()
    np.testing.assert_allclose(after, walk.W_after @ inst.x)
    # the japanese walkthrough has the same structure and other words
    ja = spa_walkthrough(inst, variant, 0.5, "ja")
    assert [s.key for s in ja.steps] == keys and ja.steps[0].text != walk.steps[0].text


def test_pa_failure_scenario_shows_the_failure_and_the_fix():
    walk = spa_walkthrough(scenario("pa-failure"), None, 1.0, "en")
    assert "still misclassified" in walk.pa_text
    assert walk.spa.correct_after


def test_printed_scenarios_differ_from_the_derived_step():
    for variant in ("I", "II"):
        walk = spa_walkthrough(scenario(f"printed-{variant}", C=0.3), variant, 0.3, "en")
        assert walk.printed_differs
        table = walk.printed_table
        assert (table["τ derived"] - table["τ printed"]).abs().max() > 1e-6


def test_cap_table_shows_where_SPA_I_caps():
    inst = random_instance(K=4, seed=5)
    walk = spa_walkthrough(inst, "I", 0.01, "en")
    tab = walk.cap_table
    T_hard = spa_step(inst.W, inst.x, inst.y)[1].tau_sum
    # SPA-I: T = min(C, T_hard) (the cap); checked row by row
    np.testing.assert_allclose(tab["T"], np.minimum(tab["C"], T_hard), rtol=1e-9)
    assert tab["cap_binds"].to_numpy().tolist() == (tab["C"] < T_hard).tolist()


@pytest.mark.parametrize(
    "key, est",
    [
        ("perceptron", PerceptronClassifier()),
        ("pa1", PAClassifier(variant="I", C=0.3)),
        ("spa", SPAClassifier()),
        ("spa2", SPAClassifier(variant="II", C=0.3)),
    ],
)
@pytest.mark.parametrize("bias", [True, False])
def test_stream_snapshots_equal_the_kernel(key, est, bias):
    """The playground replays the readable rules; the estimators run the numba kernel: every
    snapshot and every progressive mistake must agree."""
    run = run_stream((key,), "blobs", n_samples=60, n_classes=4, seed=3, C=0.3, bias=bias)
    est.set_params(fit_intercept=bias)
    classes = np.arange(run.K)
    for t in (1, 7, 30, 60):
        clf = type(est)(**est.get_params())
        mistakes = clf.learn_stream(run.X[:t], run.y[:t], classes=classes)
        W = np.hstack([clf.coef_, clf.intercept_[:, None]]) if bias else clf.coef_
        np.testing.assert_allclose(run.W[key][t], W, atol=1e-9)
        np.testing.assert_array_equal(run.mistakes[key][:t], mistakes)


def test_stream_cw_family_keeps_covariances_that_shrink():
    run = run_stream(("arow", "scw1"), "separable", n_samples=50, seed=1)
    for key in ("arow", "scw1"):
        S = run.Sigma[key]
        assert S.shape == (51, 3, 3)
        assert np.all(np.linalg.eigvalsh(S[-1]) > 0)
        assert np.trace(S[-1]) < np.trace(S[0])


def test_instance_at_is_the_state_before_example_t():
    setting = PlaygroundRun(("spa",), "blobs", 50, 3, seed=4)
    inst = setting.hand_over("spa", 10).instance()
    run = run_stream(("spa",), "blobs", 50, 3, seed=4)
    np.testing.assert_array_equal(inst.W, run.W["spa"][10])
    np.testing.assert_array_equal(inst.x, [*run.X[10], 1.0])
    W1 = spa_step(inst.W, inst.x, inst.y)[0]
    np.testing.assert_allclose(W1, run.W["spa"][11])


def test_bad_inputs_get_clear_errors():
    with pytest.raises(ValueError, match="two different classes"):
        run_stream(("spa",), points=((0, 0, 1), (1, 1, 1)))
    with pytest.raises(ValueError, match="between 1 and 4"):
        run_stream(("spa", "pa", "pa1", "pa2", "perceptron"))
    with pytest.raises(ValueError, match="unknown scenario"):
        scenario("nope")
    with pytest.raises(ValueError):
        spa_walkthrough(Instance(np.zeros((3, 2)), np.array([np.nan, 1.0]), 0))


# --- the CW / Crammer-Singer / PCVM / SGD walks and their figures ----------------------------


@pytest.mark.parametrize("rule", ["cw", "arow", "scw1", "scw2"])
def test_cw_next_update_replays_the_same_stream(rule):
    """Each Next shows the next example with a loss, and its state before is exactly the state
    the rule reaches by learning the stream up to there (replayed here independently)."""
    from olearn import registry
    from olearn.teaching.cw_walk import cw_update

    setting = CwWalk.of(rule, seed=2)
    first = cw_update(setting, warmup=0)
    second = cw_update(setting, warmup=first.next_t)
    assert second.index == first.next_index > first.index  # Next lands on it exactly
    assert second.trace.reason == "aggressive"
    np.testing.assert_allclose(second.path[-2], second.trace.mu_before)
    state, step = first.before, registry.get(rule).readable("full").step
    for i in range(first.index, second.index):  # replay the examples in between
        state, _ = step(state, first.X[i], int(first.Y[i]))
    np.testing.assert_allclose(state[0], second.trace.mu_before, atol=1e-12)
    np.testing.assert_allclose(state[1], second.trace.Sigma_before, atol=1e-12)


def test_cw_stream_runs_out_of_updates_cleanly():
    from olearn.teaching.cw_walk import cw_update

    last = cw_update(CwWalk.of("cw"), warmup=79)
    assert last.index == 79
    if last.exhausted:
        assert last.trace.reason != "aggressive"


@pytest.mark.parametrize("seed", range(6))
def test_region_polygons_are_the_argmax_regions(seed):
    """Every sampled point inside class u's polygon has u as its argmax, and the polygons
    tile the box (their areas sum to the box's)."""
    from olearn.viz.walks import region_polygons

    rng = np.random.default_rng(seed)
    K = int(rng.integers(2, 6))
    W, b = rng.normal(size=(K, 2)), rng.normal(size=K)
    box = (-3.0, 3.0, -2.0, 2.0)
    polys = region_polygons(W, b, box)

    def area(p):
        if len(p) < 3:
            return 0.0
        x, y = p[:, 0], p[:, 1]
        return 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))

    assert sum(map(area, polys)) == pytest.approx(24.0, rel=1e-9)
    Z = np.column_stack([rng.uniform(-3, 3, 4000), rng.uniform(-2, 2, 4000)])
    best = np.argmax(Z @ W.T + b, axis=1)

    def strictly_inside(p, Z):  # a convex polygon: every edge's cross product, one sign
        edges = np.roll(p, -1, axis=0) - p
        cross = edges[:, 0] * (Z[:, None, 1] - p[:, 1]) - edges[:, 1] * (Z[:, None, 0] - p[:, 0])
        return np.all(cross > 1e-9, axis=1) | np.all(cross < -1e-9, axis=1)

    covered = np.zeros(len(Z), bool)
    for u, p in enumerate(polys):
        if len(p) >= 3:
            inside = strictly_inside(p, Z)
            assert np.all(best[inside] == u)
            covered |= inside
    assert covered.mean() > 0.99  # (points on an edge excepted)
    cores = region_polygons(W, b, box, offset=1.0)
    assert all(area(c) <= area(p) + 1e-12 for c, p in zip(cores, polys))


def test_cs_player_frames_are_the_figures_of_their_sub_problems():
    """Frame i of the player moves exactly the traces cs_figure draws at that sub-problem,
    and its note names that sub-problem."""
    from olearn.teaching.cs_walk import cs_walk
    from olearn.viz.cs_svm import cs_figure, cs_frames, n_dynamic

    walk = cs_walk(n_samples=30, C=0.5)
    steps, frames, notes = cs_frames(walk)
    assert steps == [int(s) for s in walk.changed][:240]
    assert len(frames) == len(notes) == len(steps)
    for i in (0, 4, len(steps) - 1):
        drawn = cs_figure(walk, steps[i])
        assert frames[i]["traces"] == list(range(n_dynamic(walk)))
        assert frames[i]["data"][0]["meta"] == i and frames[i]["name"] == str(i)
        for a, b in zip(drawn.data[: n_dynamic(walk)], frames[i]["data"]):
            np.testing.assert_allclose(np.asarray(a.x, float), np.asarray(b["x"], float))
            np.testing.assert_allclose(np.asarray(a.y, float), np.asarray(b["y"], float))
        p = walk.steps[steps[i]].p
        assert f"example {p} " in notes[i] and f"Sub-problem {i + 1}:" in notes[i]


def test_direct_labels_never_overlap():
    import plotly.graph_objects as go

    from olearn.viz.walks import LABEL_GAP, end_labels

    fig = go.Figure()
    fig.update_yaxes(range=[0, 10])
    end_labels(fig, [("a", 5.0, "#000"), ("b", 5.01, "#000"), ("c", 4.99, "#000")], 300)
    px = sorted(a.y / 10 * 300 + a.yshift for a in fig.layout.annotations)
    assert min(np.diff(px)) >= LABEL_GAP - 1e-9


def test_learners_get_distinct_colour_and_dash():
    from olearn.teaching.cw_walk import noise_experiment
    from olearn.viz.walks import noise_figure

    tab = noise_experiment(0.2, passes=1, max_samples=150)
    fig = noise_figure(tab)
    styles = [(tr.line.color, tr.line.dash) for tr in fig.data]
    assert len(set(c for c, _ in styles)) == len(styles)  # colour alone tells them apart
    family = [
        d for (_, d), k in zip(styles, tab["key"].unique()) if k in ("cw", "arow", "scw1", "scw2")
    ]
    assert len(set(family)) == 4  # CW / AROW / SCW: the dash alone tells them apart too
    assert {a.text.strip("</b>") for a in fig.layout.annotations} >= set(tab["algorithm"])


def test_pcvm_play_order_starts_dense_then_strides():
    from olearn.teaching.pcvm_walk import pcvm_walk

    walk = pcvm_walk(n_samples=40)
    order = walk.play_order()
    n = len(walk.history)
    assert order[: min(10, n)] == list(range(min(10, n)))
    assert order[-1] == n - 1 and order == sorted(set(order))


def test_cs_steps_know_their_sweep():
    """The steps of sweep k are the examples visited in that sweep: each example once."""
    from olearn.teaching.cs_walk import cs_walk

    walk = cs_walk(n_samples=30, C=0.5)
    n = len(walk.y)
    for k in np.unique(walk.step_sweep):
        ps = sorted(st.p for st, sw in zip(walk.steps, walk.step_sweep) if sw == k)
        assert ps == list(range(n))
    assert walk.step_sweep[-1] == len(walk.sweeps)
