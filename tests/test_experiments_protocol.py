"""Seed 000's protocol: folds, tuning fold, choice of C, end-to-end runs, determinism, curves."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, train_test_split
from sklearn.preprocessing import normalize

from olearn import datasets
from olearn.experiments.baselines import learner
from olearn.experiments.curves import cumulative_rate, curve_task, learning_curves, stream_order
from olearn.experiments.engine import Execution
from olearn.experiments.protocol import (
    DataRef,
    ProtocolConfig,
    choose,
    evaluate,
    fit_checkpoints,
    fold_indices,
    fold_seed,
    param_grid,
    prepared,
    run_protocol,
    split,
    tuning_fold,
)

SMALL = {
    "folds": 3,
    "max_samples": 240,
    "epochs": (1, 2),
    "c_grid": (0.01, 1.0),
    "batch_c_grid": (0.1, 10.0),
}


@pytest.fixture(scope="module")
def digits():
    return datasets.load("digits")


# --- folds and the tuning fold ------------------------------------------------------------
@pytest.mark.parametrize("folds,seed,stratified", [(10, 0, True), (3, 5, True), (4, 1, False)])
def test_folds_partition_the_data(folds, seed, stratified):
    y = np.random.default_rng(seed).integers(0, 4, size=203)
    parts = fold_indices(y, folds, seed, stratified)
    assert len(parts) == folds
    tests = np.concatenate([te for _, te in parts])
    assert np.array_equal(np.sort(tests), np.arange(len(y)))  # disjoint and covering
    for train, test in parts:
        assert np.array_equal(np.union1d(train, test), np.arange(len(y)))
        assert np.intersect1d(train, test).size == 0
    if stratified:  # per class, fold sizes differ by at most one
        for label in np.unique(y):
            counts = [int(np.sum(y[te] == label)) for _, te in parts]
            assert max(counts) - min(counts) <= 1


def test_folds_are_seeded():
    y = np.repeat(np.arange(3), 30)
    a, b, c = (fold_indices(y, 5, s) for s in (0, 0, 1))
    assert all(np.array_equal(x[1], z[1]) for x, z in zip(a, b))
    assert not all(np.array_equal(x[1], z[1]) for x, z in zip(a, c))


def test_fold_errors():
    with pytest.raises(ValueError, match="per class"):
        fold_indices(np.array([0] * 10 + [1] * 2), 3, 0)
    with pytest.raises(ValueError, match="folds must be"):
        fold_indices(np.arange(5) % 2, 1, 0)


def test_tuning_fold_is_seeded_and_uniformish():
    draws = [tuning_fold(10, s) for s in range(200)]
    assert draws == [tuning_fold(10, s) for s in range(200)]
    assert set(draws) == set(range(10))


def test_choose_is_argmin_with_ties_to_the_first():
    rows = [
        {"error": 5.0, "params": "a"},
        {"error": 3.0, "params": "b"},
        {"error": 3.0, "params": "c"},
        {"error": 4.0, "params": "d"},
    ]
    assert choose(rows)["params"] == "b"
    with pytest.raises(ValueError):
        choose([])


def test_param_grid_overrides():
    assert param_grid(learner("spa2"), ProtocolConfig(c_grid=(2, 3))) == [{"C": 2.0}, {"C": 3.0}]
    assert param_grid(learner("maxent"), ProtocolConfig(c_grid=(2,))) != [{"C": 2.0}]
    assert param_grid(learner("maxent"), ProtocolConfig(batch_c_grid=(7,))) == [{"C": 7.0}]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"folds": 1},
        {"epochs": 0},
        {"tuning": "outer"},
        {"scale": "zscore"},
        {"c_grid": (0.0, 1.0)},
        {"c_grid": ()},
        {"inner_folds": 1},
        {"epochs": (1, 0)},
        {"grid_on_every_fold": "some"},
        {"svm": "libsvm"},
        {"max_samples": 3},
    ],
)
def test_config_validation(kwargs):
    with pytest.raises(ValueError):
        ProtocolConfig(**kwargs)


# --- end to end -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def small_run(digits):
    config = ProtocolConfig(**SMALL, svm="liblinear")
    calls = []
    result = run_protocol(
        [digits],
        ["perceptron", "spa2", "maxent"],
        config,
        Execution(progress=lambda d, t, m: calls.append((d, t))),
    )
    return result, config, calls


def _outer(result):
    return result.runs[result.runs["inner"] == -1]


def test_chosen_C_is_the_argmin_of_the_tuning_fold_errors_per_epochs(small_run):
    result, config, _ = small_run
    for key in ("spa2", "maxent"):
        for epochs in config.epochs:
            rows = result.tuning[
                (result.tuning["key"] == key) & (result.tuning["epochs"] == epochs)
            ]
            assert len(rows) == 2 and (rows["fold"] == config.tuning_fold).all()
            best = rows.iloc[int(np.argmin(rows["error"].to_numpy()))]  # argmin: first on ties
            summary = result.summary.set_index(["key", "epochs"]).loc[(key, epochs)]
            assert summary["params"] == best["params"]
            assert rows["chosen"].sum() == 1
            assert rows.loc[rows["chosen"], "params"].item() == summary["params"]


def test_every_fold_is_evaluated_at_the_chosen_C_and_the_means_follow(small_run):
    result, config, _ = small_run
    outer = _outer(result)
    for row in result.summary.itertuples():
        mine = outer[(outer["key"] == row.key) & (outer["epochs"] == row.epochs)]
        mine = mine[mine["params"] == row.params]
        assert sorted(mine["fold"]) == list(range(config.folds))
        assert row.error == pytest.approx(mine["error"].mean())
        assert row.error_std == pytest.approx(mine["error"].std(ddof=1))
        other = mine[mine["fold"] != config.tuning_fold]["error"].mean()
        assert row.error_other_folds == pytest.approx(other)
    # the online learner saw every grid point on every fold; the batch one only on the tuning fold
    spa2 = outer[outer["key"] == "spa2"]
    assert len(spa2) == 2 * config.folds * len(config.epochs)
    maxent = outer[(outer["key"] == "maxent") & (outer["fold"] != config.tuning_fold)]
    assert maxent["params"].nunique() == 1


def test_tuning_fold_spread_recomputed_by_hand(small_run):
    """For each fold as the tuning fold: its argmin C, then that C's mean over all folds."""
    result, config, _ = small_run
    outer = _outer(result)
    for epochs in config.epochs:
        mine = outer[(outer["key"] == "spa2") & (outer["epochs"] == epochs)]
        means = []
        for t in range(config.folds):
            on_t = mine[mine["fold"] == t].sort_values("grid_index")
            pick = on_t["grid_index"].iloc[int(np.argmin(on_t["error"].to_numpy()))]
            means.append(mine[mine["grid_index"] == pick]["error"].mean())
        summary = result.summary.set_index(["key", "epochs"]).loc[("spa2", epochs)]
        assert summary["tuning_fold_spread"] == pytest.approx(max(means) - min(means))
    maxent = result.summary[result.summary["key"] == "maxent"]
    assert maxent["tuning_fold_spread"].isna().all()  # not every grid point on every fold


def test_an_eval_error_matches_a_direct_scikit_learn_computation(small_run, digits):
    """Rebuild one fold by hand (subsample, unit rows, StratifiedKFold) and refit Maxent."""
    result, config, _ = small_run
    idx = np.arange(len(digits.y))
    keep, _ = train_test_split(
        idx, train_size=config.max_samples, random_state=config.seed, stratify=digits.y
    )
    keep = np.sort(keep)
    X, y = normalize(digits.X[keep]), digits.y[keep]
    splits = list(StratifiedKFold(config.folds, shuffle=True, random_state=config.seed).split(X, y))
    summary = result.summary.set_index(["key", "epochs"])
    C = json.loads(summary.loc[("maxent", config.max_epochs), "params"])["C"]
    outer = _outer(result)
    for fold, (train, test) in enumerate(splits):
        clf = LogisticRegression(C=C, max_iter=1000, fit_intercept=config.fit_intercept)
        clf.fit(X[train], y[train])
        expected = 100 * np.mean(clf.predict(X[test]) != y[test])
        ours = outer[(outer["key"] == "maxent") & (outer["fold"] == fold)]
        ours = ours[(ours["params"] == json.dumps({"C": C})) & (ours["epochs"] == 1)]
        assert ours["error"].item() == pytest.approx(expected)
        assert ours["n_test"].item() == len(test)


def test_the_epoch_1_row_is_the_one_epoch_model(digits):
    """Reading epoch 1 and 3 from one run equals two separate fits with epochs=1 and 3."""
    config = ProtocolConfig(folds=3, max_samples=240, epochs=(1, 3), c_grid=(0.1,))
    rows = evaluate(data=digits, algorithm="spa1", params={"C": 0.1}, fold=1, config=config)
    X, y = prepared(digits, config)
    train, test = split(y, config, 1)
    for row in rows:
        est = learner("spa1").make(
            C=0.1, epochs=row["epochs"], random_state=fold_seed(config.seed, 1)
        )
        est.set_params(fit_intercept=False).fit(X[train], y[train])
        assert row["error"] == pytest.approx(100 * np.mean(est.predict(X[test]) != y[test]))
    assert [r["epochs"] for r in rows] == [1, 3]


@pytest.mark.parametrize("key", ["perceptron", "pa", "spa2", "arow", "scw1", "sgd-svm"])
def test_fit_checkpoints_equal_fit_exactly(digits, key):
    X, y = digits.X[:300], digits.y[:300]
    spec = learner(key)
    est = spec.make(random_state=7, epochs=4)
    seen = list(fit_checkpoints(est, X, y, (2, 4), online=True))
    direct = spec.make(random_state=7, epochs=4).fit(X, y)
    assert seen == [2, 4]
    np.testing.assert_array_equal(est.decision_function(X), direct.decision_function(X))


def test_progress_reaches_the_total(small_run):
    _, config, calls = small_run
    done = [d for d, _ in calls]
    # perceptron: 3 folds; spa2: 2 grid points x 3 folds; maxent: 2 on the tuning fold, then
    # its chosen C on the 2 other folds (one C per epochs; here the same C, so 2 fits)
    assert calls[-1] == (3 + 6 + 2 + 2, 3 + 6 + 2 + 2)
    assert done == sorted(done)


def test_nested_tuning_chooses_on_inner_folds_of_the_training_part_only(digits):
    config = ProtocolConfig(**SMALL, tuning="nested", inner_folds=2)
    result = run_protocol([digits], ["pa1"], config)
    X, y = prepared(digits, config)
    inner = result.runs[result.runs["inner"] >= 0]
    assert set(inner["inner"]) == {0, 1} and set(inner["fold"]) == set(range(config.folds))
    for fold in range(config.folds):
        train, test = split(y, config, fold)
        for k in range(config.inner_folds):
            a, b = split(y, config, fold, k)
            assert set(a) | set(b) == set(train) and not set(b) & set(test)
        rows = inner[(inner["fold"] == fold) & (inner["epochs"] == config.max_epochs)]
        means = rows.groupby("grid_index")["error"].mean()
        pick = int(np.argmin(means.to_numpy()))  # first on ties
        chosen = result.fold_errors.set_index(["fold", "epochs"]).loc[(fold, config.max_epochs)]
        assert chosen["params"] == json.dumps({"C": config.c_grid[pick]})
    summary = result.summary[result.summary["epochs"] == config.max_epochs].iloc[0]
    folds = result.fold_errors[result.fold_errors["epochs"] == config.max_epochs]
    assert summary["error"] == pytest.approx(folds["error"].mean())
    assert summary["error_nested"] == summary["error"]


def _strip(result):
    return result.runs.drop(columns=["train_time"]), result.summary.drop(columns=["train_time"])


def test_same_seed_same_table_serial_joblib_dask():
    distributed = pytest.importorskip("distributed")
    ref = DataRef("digits")  # loaded by name inside each worker
    config = ProtocolConfig(**SMALL)
    algos = ["pa1", "spa"]
    serial = _strip(run_protocol([ref], algos, config))
    again = _strip(run_protocol([ref], algos, config))
    joblib2 = _strip(run_protocol([ref], algos, config, Execution(jobs=2)))
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        with distributed.Client(cluster) as client:
            dask = _strip(
                run_protocol([ref], algos, config, Execution(backend="dask", scheduler=client))
            )
    for other in (again, joblib2, dask):
        pd.testing.assert_frame_equal(serial[0], other[0])
        pd.testing.assert_frame_equal(serial[1], other[1])
    other_seed = _strip(run_protocol([ref], algos, ProtocolConfig(**{**SMALL, "seed": 1})))
    assert not serial[0]["error"].equals(other_seed[0]["error"])


# --- learning curves ----------------------------------------------------------------------------
def test_curve_equals_a_predict_then_learn_loop(digits):
    """The curve from the kernel's recorded mistakes equals an independent loop of
    predict(x_t) followed by partial_fit(x_t) through the public API."""
    config = ProtocolConfig(max_samples=120, folds=3)
    out = curve_task(data=digits, algorithm="spa1", params={"C": 0.1}, config=config, points=500)

    X, y = prepared(digits, config)
    order = stream_order(len(y), config.seed)
    est = learner("spa1").make(C=0.1, fit_intercept=config.fit_intercept)
    wrong = []
    classes = np.unique(y)
    for i in order:
        # before any update the weights are zero: predict() would answer the lowest class
        guess = est.predict(X[i : i + 1])[0] if hasattr(est, "classes_") else classes[0]
        wrong.append(bool(guess != y[i]))
        est.partial_fit(X[i : i + 1], y[i : i + 1], classes=classes)
    expected = cumulative_rate(np.array(wrong))
    assert out["t"] == list(range(1, len(y) + 1))
    np.testing.assert_allclose(out["rate"], expected)
    assert out["mistakes"] == sum(wrong)


def test_learning_curves_cover_online_learners_only(digits):
    curves = learning_curves(
        [digits], ["pa", "maxent"], ProtocolConfig(max_samples=100, folds=3), points=7
    )
    assert set(curves["key"]) == {"pa"}
    assert curves["t"].iloc[-1] == 100 and len(curves) == 7
    assert ((curves["rate"] >= 0) & (curves["rate"] <= 100)).all()
