"""``fit``'s scikit-learn options (tol, n_iter_no_change, early_stopping, validation_fraction,
verbose, warm_start, coef_init / intercept_init) on every estimator with an epoch loop, from the
registry.  References are built independently: the epoch-by-epoch states come from separate
``fit(epochs=k)`` runs (the same permutations), the loss and accuracy from numpy on the
per-class rows of ``get_state``, the split from scikit-learn's ``StratifiedShuffleSplit``, and
the stopping rule is scikit-learn's, written out here."""

import math
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import StratifiedShuffleSplit
from sklearn.utils._param_validation import InvalidParameterError

from olearn import registry
from olearn.estimators.base import OnlineClassifier

LOOPED = [
    k for k in registry.keys() if issubclass(registry.get(k).estimator_class, OnlineClassifier)
]
ONLINE = registry.keys(online=True)


def data(K=3, n=150, d=6, seed=0, noise=1.5):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    X = rng.normal(size=(K, d))[y] * 1.5 + noise * rng.normal(size=(n, d))
    return X, y


def make(key, **kw):
    return registry.get(key).make(random_state=3, **kw)


def reference_hinge(est, X, y):
    """Mean multiclass hinge of the model, from its public state (numpy, not olearn)."""
    state = est.get_state()
    if "coef" in state:  # per-class rows (and intercept weights)
        b = est.intercept_scaling * state.get("intercept_weight", 0.0)
        S = X @ state["coef"].T + b
    else:  # SGD-SVM (one-vs-rest, K > 2): its scores are its decision_function
        S = est.decision_function(X)
    total = 0.0
    for s, label in zip(S, y):
        rival = max(v for r, v in enumerate(s) if r != label)
        total += max(0.0, 1.0 - (s[label] - rival))
    return total / len(y)


def expected_epochs(values, tol, patience, higher_is_better):
    """scikit-learn's no-improvement count (``_sgd_fast.pyx.tp``), as it reads there."""
    best, bad = (-math.inf if higher_is_better else math.inf), 0
    for epoch, value in enumerate(values, start=1):
        if higher_is_better:
            bad = bad + 1 if value < best + tol else 0
            best = max(best, value)
        else:
            bad = bad + 1 if value > best - tol else 0
            best = min(best, value)
        if bad >= patience:
            return epoch
    return len(values)


@pytest.mark.parametrize("key", LOOPED)
def test_tol_stops_on_the_training_hinge_as_sklearn_counts(key):
    X, y = data(seed=1)
    E = 12
    losses = [reference_hinge(make(key, epochs=k).fit(X, y), X, y) for k in range(1, E + 1)]
    tol = float(np.median(np.abs(np.diff(losses))))  # a tol that bites on this data
    expected = expected_epochs(losses, tol, 2, higher_is_better=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est = make(key, epochs=E, tol=tol, n_iter_no_change=2).fit(X, y)
    assert est.n_iter_ == expected
    plain = make(key, epochs=expected).fit(X, y)  # the same state as fit stopped there
    assert np.array_equal(est.coef_, plain.coef_) and est.t_ == plain.t_ == expected * len(y)


@pytest.mark.parametrize("key", LOOPED)
def test_defaults_change_nothing_and_verbose_only_prints(key, capsys):
    X, y = data(seed=2)
    plain = make(key).fit(X, y)
    loud = make(key, verbose=1).fit(X, y)
    assert np.array_equal(plain.coef_, loud.coef_) and plain.n_iter_ == loud.n_iter_
    out = capsys.readouterr().out.splitlines()
    epochs = [line for line in out if line.startswith("-- Epoch")]
    assert epochs == [f"-- Epoch {k}" for k in range(1, plain.n_iter_ + 1)]
    first = out[1]
    assert first.startswith("updates: ") and "avg. loss: " in first and ", T: 150," in first
    loss = float(first.split("avg. loss: ")[1].split(",")[0])
    assert loss == pytest.approx(reference_hinge(make(key, epochs=1).fit(X, y), X, y), abs=2e-6)


def test_tol_reached_prints_convergence_and_epochs_exhausted_warns(capsys):
    X, y = data(seed=4, noise=0.2)
    est = make("pa1", epochs=50, tol=1.0, n_iter_no_change=1, verbose=1).fit(X, y)
    assert est.n_iter_ == 2  # the first epoch always improves on +inf; the second cannot by 1
    assert "Convergence after 2 epochs" in capsys.readouterr().out
    with pytest.warns(ConvergenceWarning, match="epochs=3"):
        make("pa1", epochs=3, tol=-1.0).fit(X, y)  # a negative tol never counts "no change"


@pytest.mark.parametrize("key", ["perceptron", "spa1", "arow", "scw2", "sgd-svm"])
def test_early_stopping_holds_out_a_stratified_split_and_stops_on_its_accuracy(key):
    X, y = data(seed=5, n=200)
    fraction = 0.25
    train, held = next(
        StratifiedShuffleSplit(test_size=fraction, random_state=3).split(X, y)
    )  # the split scikit-learn's early stopping makes
    train, held = np.sort(train), np.sort(held)
    # tol=None: the fraction is held out (never trained on), nothing stops
    est = make(key, epochs=4, early_stopping=True, validation_fraction=fraction).fit(X, y)
    ref = make(key, epochs=4).fit(X[train], y[train])
    assert np.array_equal(est.coef_, ref.coef_) and est.t_ == 4 * len(train)
    # with tol: accuracy on the held-out rows, scikit-learn's count
    E = 10
    scores = [
        np.mean(make(key, epochs=k).fit(X[train], y[train]).predict(X[held]) == y[held])
        for k in range(1, E + 1)
    ]
    expected = expected_epochs(scores, 0.0, 2, higher_is_better=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        stopped = make(
            key, epochs=E, tol=0.0, n_iter_no_change=2, early_stopping=True,
            validation_fraction=fraction,
        ).fit(X, y)  # fmt: skip
    assert stopped.n_iter_ == expected


def test_early_stopping_on_too_few_samples_says_what_to_change():
    X, y = data(n=12)
    with pytest.raises(ValueError, match="validation_fraction"):
        make("pa", early_stopping=True, validation_fraction=0.05).fit(X, y)


@pytest.mark.parametrize("key", LOOPED)
def test_warm_start_continues_the_whole_state(key):
    X, y = data(seed=6)
    Xs = sp.csr_matrix(X)
    warm = make(key, epochs=1, shuffle=False).fit(Xs, y)
    warm.set_params(warm_start=True, epochs=2)
    warm.fit(Xs, y)
    ref = make(key, epochs=1, shuffle=False).fit(Xs, y)
    for _ in range(2):  # two more in-order passes, from the same state (covariance included)
        ref.partial_fit(Xs, y)
    for name, value in ref.get_state().items():
        if name != "n_iter":
            assert np.array_equal(np.asarray(warm.get_state()[name]), np.asarray(value)), name
    assert warm.n_iter_ == 2 and warm.t_ == 3 * len(y)
    cold = make(key, epochs=2, shuffle=False).fit(Xs, y)
    refit = warm.set_params(warm_start=False).fit(Xs, y)  # from zero again
    assert np.array_equal(refit.coef_, cold.coef_) and refit.t_ == 2 * len(y)


def test_warm_start_refuses_new_labels_and_new_widths():
    X, y = data()
    est = make("spa", warm_start=True).fit(X, y)
    with pytest.raises(ValueError, match="warm_start=True continues"):
        est.fit(X, np.where(y == 0, 7, y))
    est = make("spa", warm_start=True).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        est.fit(X[:, :3], y)


@pytest.mark.parametrize("key", ONLINE)
def test_coef_init_is_the_first_state(key):
    X, y = data(seed=7)
    rng = np.random.default_rng(0)
    W0, b0 = rng.normal(size=(3, X.shape[1])), rng.normal(size=3)
    est = make(key, epochs=1, shuffle=False, fit_intercept=True)
    est.fit(X, y, coef_init=W0, intercept_init=b0)
    ref = make(key, fit_intercept=True).partial_fit(X[:1], y[:1], classes=[0, 1, 2])
    state = ref.get_state()  # a fresh model's state with the initial rows put in
    zero = dict(state, coef=W0, intercept_weight=b0 / ref.intercept_scaling, t=0, n_updates=0)
    if "covariance" in state:  # the confidence-weighted family: the prior a I
        zero["covariance"] = np.full_like(state["covariance"], ref.a)
    ref = make(key, fit_intercept=True).set_state(zero).partial_fit(X, y)
    assert np.array_equal(est.coef_, ref.coef_) and np.array_equal(est.intercept_, ref.intercept_)


def test_binary_coef_init_is_the_difference_sklearn_takes():
    from olearn.estimators._fit_options import per_class_init

    X, y = data(K=2, seed=8)
    c = np.arange(6.0)[None, :] / 10
    # all-zero rows: every rule is passive (||x||^2 = 0), so the model is coef_init itself
    est = make("pa1", epochs=1).fit(np.zeros_like(X), y, coef_init=c)
    assert np.array_equal(est.get_state()["coef"], np.vstack([-c / 2, c / 2]))
    assert np.array_equal(est.coef_, c)
    for given in (c, c.ravel(), np.vstack([-c / 2, c / 2])):  # (1, d), (d,), per class
        again = make("pa1", epochs=1, shuffle=False).fit(X, y, coef_init=given)
        assert np.array_equal(again.coef_, make("pa1", epochs=1, shuffle=False).fit(
            X, y, coef_init=c).coef_)  # fmt: skip
    _, b = per_class_init(None, [0.3], 2, 6, "PAClassifier")
    assert b.tolist() == [-0.15, 0.15]


def test_init_and_options_are_checked():
    X, y = data()
    with pytest.raises(ValueError, match=r"coef_init has shape \(2, 6\), expected \(3, 6\)"):
        make("pa").fit(X, y, coef_init=np.zeros((2, 6)))
    with pytest.raises(ValueError, match="needs fit_intercept=True"):
        make("pa").fit(X, y, intercept_init=np.zeros(3))
    with pytest.raises(ValueError, match="NaN"):
        make("arow").fit(X, y, coef_init=np.full((3, 6), np.nan))
    with pytest.raises(ValueError, match="does not take coef_init"):
        make("sgd-svm").fit(X, y, coef_init=np.zeros((3, 6)))
    for bad in (
        {"tol": "low"},
        {"n_iter_no_change": 0},
        {"validation_fraction": 1.0},
        {"validation_fraction": 0.0},
        {"early_stopping": "yes"},
        {"warm_start": 1.5},
        {"verbose": -1},
    ):
        with pytest.raises(InvalidParameterError):
            make("cw", **bad).fit(X, y)
