"""The per-sample door's plain-Python path (olearn.estimators.engine.small) against the compiled
one: River's ``learn_one`` / ``predict_one`` / ``predict_proba_one`` on small dicts make the
same model, bit for bit, and the same predictions, whichever path a sample takes.

Each stream is learned twice: as River's adapter does it (the plain-Python path where it
applies) and with the engine's ``learn_small`` / ``small_scores`` switched off (every sample
through ``learn_one``'s compiled kernel).  The streams cover what the path must get right:
unsorted columns (names in a new order), zeros, ints, an intercept, 2 and 5 classes, C small
enough to clip, a class and names joining mid-stream, bools and numpy numbers (the compiled
path's conversion), rows past ``SMALL_WORK``.  A spy counts the samples the plain path took,
so no comparison passes by never taking it.
"""

from __future__ import annotations

import numpy as np
import pytest

from olearn.estimators.engine import small
from olearn.estimators.engine.linear import AdditiveEngine, LinearEngine
from olearn.kernels.codes import PA_MISTAKES
from olearn.river import Classifier

pytestmark = pytest.mark.kernel_equality

RULES = ["perceptron", "pa", "pa1", "pa2"]


def _stream(seed: int, n_classes: int, n: int = 300) -> list[tuple[dict, object]]:
    """Dicts over 12 names, 1-8 features each, in shuffled order, with zeros and ints; the
    last class and the last names appear only after sample 100; a few bools, numpy floats
    and one row of 250 features (past SMALL_WORK)."""
    rng = np.random.default_rng(seed)
    names = [f"f{j}" for j in range(12)]
    out = []
    for i in range(n):
        pool = names if i > 100 else names[:9]
        k = int(rng.integers(1, 9))
        picked = rng.choice(pool, size=k, replace=False)
        x = {}
        for name in picked:
            r = rng.random()
            if r < 0.1:
                x[str(name)] = 0.0
            elif r < 0.2:
                x[str(name)] = int(rng.integers(-3, 4))
            else:
                x[str(name)] = float(rng.normal() * 2.0)
        if i % 97 == 5:
            x["flag"] = True
        if i % 89 == 7:
            x[str(picked[0])] = np.float64(0.5)
        if i == 150:
            x = {f"wide{j}": 1.0 + j for j in range(250)}
        label = int(rng.integers(0, n_classes - 1 if i <= 100 else n_classes))
        out.append((x, label))
    return out


@pytest.fixture
def spy(monkeypatch):
    """Counts the samples ``learn_small`` learned."""
    taken = [0]
    real = AdditiveEngine.learn_small

    def counting(self, columns, values, label):
        done = real(self, columns, values, label)
        taken[0] += done
        return done

    monkeypatch.setattr(AdditiveEngine, "learn_small", counting)
    return taken


def _compiled_only(monkeypatch) -> None:
    monkeypatch.setattr(AdditiveEngine, "learn_small", lambda *a: False)
    monkeypatch.setattr(LinearEngine, "small_scores", lambda *a: None)


def _run(model: Classifier, stream) -> list:
    out = []
    for x, y in stream:
        out.append((model.predict_one(x), model.predict_proba_one(x)))
        model.learn_one(x, y)
    return out


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and np.array_equal(a.view(np.int64), b.view(np.int64))


@pytest.mark.parametrize("algorithm", RULES)
@pytest.mark.parametrize("n_classes", [2, 5])
@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("C", [1e-3, 1.0])
def test_the_plain_path_learns_and_predicts_as_the_kernel(
    algorithm, n_classes, fit_intercept, C, spy, monkeypatch
):
    stream = _stream(seed=n_classes + 10 * fit_intercept, n_classes=n_classes)
    params = {} if algorithm in ("perceptron", "pa") else {"C": C}
    plain = Classifier(algorithm, fit_intercept=fit_intercept, **params)
    seen_plain = _run(plain, stream)
    assert spy[0] > 150  # after the second class, nearly all samples take the plain path
    _compiled_only(monkeypatch)
    compiled = Classifier(algorithm, fit_intercept=fit_intercept, **params)
    seen_compiled = _run(compiled, stream)
    a, b = plain.estimator.engine_, compiled.estimator.engine_
    assert _same_bits(a.W, b.W)
    assert (a.t, a.n_updates) == (b.t, b.n_updates)
    assert a.n_updates > 20
    assert seen_plain == seen_compiled  # predictions and probabilities, exactly


def test_the_declared_binary_stream_takes_the_path_from_its_first_sample(spy, monkeypatch):
    stream = [(x, y % 2 == 1) for x, y in _stream(seed=3, n_classes=2)]
    plain = Classifier("pa1", classes=[False, True], C=0.5)
    _run(plain, stream)
    seen: set = set()
    kernel = 0  # the samples for the compiled path: new names, bools, numpy numbers, wide
    for x, _ in stream:
        odd = any(type(v) not in (float, int) for v in x.values()) or len(x) > small.SMALL_WORK
        kernel += bool(odd or not x.keys() <= seen)
        seen |= x.keys()
    assert kernel < 40 and spy[0] == len(stream) - kernel  # every other one, the first too
    _compiled_only(monkeypatch)
    compiled = Classifier("pa1", classes=[False, True], C=0.5)
    _run(compiled, stream)
    assert _same_bits(plain.estimator.engine_.W, compiled.estimator.engine_.W)


def test_the_mistakes_only_pa_steps_as_its_kernel():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 6))
    y = rng.integers(0, 3, 200)
    plain = AdditiveEngine.create(6, np.arange(3))
    plain.tune(code=PA_MISTAKES)
    compiled = plain.copy()
    taken = 0
    for row, label in zip(X, y):
        taken += plain.learn_small(range(6), row.tolist(), int(label))
        compiled.learn_one(np.arange(6, dtype=np.int32), row, int(label))
    assert taken == 200
    assert _same_bits(plain.W, compiled.W)
    assert plain.n_updates == compiled.n_updates > 0


@pytest.mark.parametrize(
    "value, message",
    [(float("nan"), "finite"), (float("inf"), "finite"), (1e200, "overflows"), ("a", "numeric")],
)
def test_a_refused_value_is_refused_by_the_door_and_changes_nothing(value, message):
    model = Classifier("pa1", classes=[0, 1])
    for x, y in _stream(seed=1, n_classes=2, n=50):
        model.learn_one(x, y)
    engine = model.estimator.engine_
    before = engine.W.copy(), engine.t, engine.n_updates
    with pytest.raises(ValueError, match=message):
        model.learn_one({"f0": 1.0, "f1": value}, 1)
    assert _same_bits(engine.W, before[0]) and (engine.t, engine.n_updates) == before[1:]


def test_the_small_row_is_the_csr_row():
    row, sqnorm, scores = small.small_row([5, 1, 3, 2], [2.0, 0.0, -1, 3.0], 6, 0.5)
    assert row == [(2, 3.0), (3, -1.0), (5, 2.0), (6, 0.5)] and scores is None
    assert sqnorm == ((3.0 * 3.0 + 1.0) + 4.0) + 0.25
    assert small.small_row([0], [float("nan")], 3, 0.0) is None
    assert small.small_row([0], [True], 3, 0.0) is None  # the door converts bools
    assert small.small_row([3], [1.0], 3, 0.0) is None  # outside the model's columns
    assert small.small_row([1, 1], [1.0, 2.0], 3, 0.0) is None  # the door sums repeats
    assert small.small_row([2, 0, 2], [1.0, 1.0, 2.0], 3, 0.0) is None
