"""Hypothesis fuzzing of every registry estimator's boundary; run in a child process by
``tests/test_fuzz_estimators.py`` (a crash there is a failure, not a dead test run).

Every case must end in a correct result (predictions among ``classes_``, scores finite where
the input is) or a documented exception: ``ValueError`` (bad values, shapes, labels, malformed
sparse structure, overflowing norms, bad hyper-parameters; scikit-learn's
``InvalidParameterError`` is one) or ``TypeError`` (an input of the wrong type).  Prints the
outcome counts as JSON on its last line.

A second suite, :func:`fuzz_set_params` (issue 22.1), drives every registry estimator through a
random stream of ``partial_fit`` (``fit`` for the batch estimators), ``set_params`` of any of
its parameters (values drawn from its ``_parameter_constraints``, sometimes outside them) and
``predict``: each call ends correctly or in a documented exception, a refused call leaves the
model as it was, and nothing writes out of bounds (a glibc abort kills the child process: a
failure of ``tests/test_fuzz_estimators.py``, not of the test run).

Run by hand: ``python -m tests.fuzz_estimators 400 [STREAMS]`` (``-v`` lists the refusals).
"""

from __future__ import annotations

import json
import sys
import warnings
from collections import Counter
from numbers import Integral

import numpy as np
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.utils._param_validation import Interval, StrOptions

from olearn import registry

KEYS = [k for k in registry.keys() if k != "pcvm-chen"]  # one PCVM is enough (slow-ish EM)
ALL_KEYS = registry.keys()
DOCUMENTED = (ValueError, TypeError)
OUTCOMES: Counter = Counter()
REASONS: Counter = Counter()  # the refusals' messages, for `python -m tests.fuzz_estimators N -v`

SPECIAL = [0.0, np.nan, np.inf, -np.inf, 1e200, -1e160, 1e-300, 5e-324]


@st.composite
def matrices(draw):
    n = draw(st.integers(0, 8))
    d = draw(st.integers(0, 5))
    X = np.array(draw(st.lists(st.floats(-3, 3), min_size=n * d, max_size=n * d)), dtype=float)
    X = X.reshape(n, d)
    if n * d and draw(st.integers(0, 2)) == 0:  # one in three: one hostile value
        X.flat[draw(st.integers(0, n * d - 1))] = draw(st.sampled_from(SPECIAL))
    kind = draw(st.sampled_from(["dense", "int", "bool", "f32", "csr", "csc", "coo", "bad-csr"]))
    if kind == "int":
        return np.nan_to_num(X, posinf=9, neginf=-9).clip(-9, 9).astype(np.int64)
    if kind == "bool":
        return X > 0
    if kind == "f32":
        with np.errstate(over="ignore"):
            return X.astype(np.float32)
    if kind in ("csr", "csc", "coo"):
        return sp.csr_matrix(X).asformat(kind)
    if kind == "bad-csr" and n and d:
        nnz = draw(st.integers(0, n * d))
        indices = np.array(draw(st.lists(st.integers(-2, d + 2), min_size=nnz, max_size=nnz)))
        indptr = np.sort(
            np.array(draw(st.lists(st.integers(0, nnz), min_size=n - 1, max_size=n - 1)))
        )
        indptr = np.r_[0, indptr, nnz].astype(np.int64)
        if draw(st.booleans()):  # a non-monotone indptr that still starts at 0, ends at nnz
            indptr[1:-1] = indptr[1:-1][::-1].copy()
        return sp.csr_matrix((np.ones(nnz), indices.astype(np.int32), indptr), shape=(n, d))
    return X


label_kinds = {
    "int": st.integers(0, 3),
    "bigint": st.sampled_from([2**53, 2**53 + 1, 2**63 - 1]),
    "float": st.sampled_from([0.0, 0.5, 1.0, np.nan]),
    "str": st.sampled_from(["a", "b", "0", "1"]),
    "bool": st.booleans(),
    "mixed": st.sampled_from([0, "a", 1.5, None]),
}


@st.composite
def labels(draw, n):
    kind = draw(st.sampled_from(sorted(label_kinds)))
    size = n if draw(st.integers(0, 9)) else draw(st.integers(0, n + 2))  # sometimes wrong
    y = draw(st.lists(label_kinds[kind], min_size=size, max_size=size))
    return np.array(y, dtype=object if kind == "mixed" else None)


def check_result(est, X2) -> str:
    predicted = est.predict(X2)
    assert set(np.asarray(predicted).tolist()) <= set(est.classes_.tolist())
    return "ok"


@given(st.data())
def fuzz(data):
    key = data.draw(st.sampled_from(KEYS))
    X = data.draw(matrices())
    if data.draw(st.booleans()):  # half the cases: plausible labels, so the input decides
        y = np.arange(X.shape[0]) % data.draw(st.integers(2, 4))
    else:
        y = data.draw(labels(X.shape[0]))
    X2 = X if data.draw(st.booleans()) else data.draw(matrices())
    op = data.draw(st.sampled_from(["fit", "partial_fit", "partial_fit_classes"]))
    spec = registry.get(key)
    if op != "fit" and not spec.online:
        op = "fit"
    kwargs = {"max_iter": 50} if key == "pcvm" else {}
    est = spec.make(**kwargs)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if op == "fit":
                est.fit(X, y)
            elif op == "partial_fit":
                est.partial_fit(X, y)
            else:
                est.partial_fit(X, y, classes=np.unique(y) if y.dtype != object else [0, 1])
            outcome = check_result(est, X2)
    except DOCUMENTED as err:
        outcome = type(err).__name__
        REASONS[str(err)[:60]] += 1
    OUTCOMES[f"{op} -> {outcome}"] += 1


# --- set_params at random points of a stream -----------------------------------------------

# values tried for a bounded number (kept where the constraint admits them), plus a few the
# constraint refuses; epochs / max_iter stay small so a stream costs milliseconds
_NUMBERS = [5e-324, 1e-300, 1e-8, 1e-3, 0.1, 0.5, 0.75, 0.99, 1.0, 2.0, 7.0, 1e3, 1e12, 1e300]
_INTEGERS = [1, 2, 3]
_OUTSIDE = [-1.0, 0.0, np.nan, np.inf, "x"]


def _values(constraints: list) -> list:
    """Candidate values of one parameter from its scikit-learn constraint list."""
    values: list = []
    for c in constraints:
        if c == "boolean":
            values += [False, True]
        elif c == "random_state":
            values += [0, 1]
        elif c is None:
            values.append(None)
        elif isinstance(c, StrOptions):
            values += sorted(c.options)
        elif isinstance(c, Interval):
            pool = _INTEGERS if c.type is Integral else _NUMBERS
            values += [v for v in pool if c.is_satisfied_by(v)]
    return values


@st.composite
def parameter_changes(draw, est):
    params = sorted(type(est)._parameter_constraints)
    name = draw(st.sampled_from(params))
    values = _values(type(est)._parameter_constraints[name])
    if not values or draw(st.integers(0, 9)) == 0:  # one in ten: a value outside
        values = values + _OUTSIDE
    return {name: draw(st.sampled_from(values))}


def _snapshot(est):
    try:
        return np.asarray(est.decision_function(STREAM_X))
    except Exception:
        return None


def _learn(est, spec, X, y) -> None:
    if hasattr(est, "partial_fit"):
        est.partial_fit(X, y, classes=[0, 1, 2] if spec.estimator != "PCVMClassifier" else None)
    else:
        est.fit(X, y)


_rng = np.random.default_rng(0)
STREAM_X = np.vstack([_rng.normal(size=(24, 3)) + np.repeat(np.eye(3), 8, axis=0), np.zeros(3)])
STREAM_Y = np.r_[np.repeat([0, 1, 2], 8), 0]


@given(st.data())
def fuzz_set_params(data):
    key = data.draw(st.sampled_from(ALL_KEYS))
    spec = registry.get(key)
    binary = spec.estimator == "PCVMClassifier"
    est = spec.make(**({"max_iter": 20} if key.startswith("pcvm") else {}))
    actions = ["learn"]  # a stream: learn, then set_params at random points, each followed
    for _ in range(data.draw(st.integers(1, 4))):  # by some learning or a prediction
        actions += ["set_params"] + data.draw(
            st.lists(st.sampled_from(["learn", "predict"]), min_size=1, max_size=2)
        )
    for action in actions:
        if action == "set_params":
            est.set_params(**data.draw(parameter_changes(est)))
            OUTCOMES[f"stream set_params ({spec.estimator})"] += 1
            continue
        lo = data.draw(st.integers(0, 20))
        rows = slice(lo, lo + data.draw(st.integers(2, 8)))
        X, y = STREAM_X[rows], STREAM_Y[rows]
        if binary:
            X, y = STREAM_X[:16], STREAM_Y[:16]  # two classes
        fitted = hasattr(est, "classes_")
        before = _snapshot(est) if fitted else None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if action == "learn":
                    _learn(est, spec, X, y)
                    if not np.isfinite(est.decision_function(STREAM_X)).all():
                        # finite weights unless a hyper-parameter drove them to overflow;
                        # the item 6 test owns that property
                        outcome = "learn -> non-finite scores"
                    else:
                        outcome = "learn -> ok"
                else:
                    outcome = f"predict -> {check_result(est, STREAM_X)}"
        except DOCUMENTED as err:
            message = str(err)
            refused = "built for" in message
            outcome = f"{action} -> {'refused: state parameter' if refused else type(err).__name__}"
            REASONS[message[:60]] += 1
            if refused or (action == "learn" and fitted and hasattr(est, "partial_fit")):
                # a refused partial_fit / predict keeps the model (a failed fit forgets it)
                assert hasattr(est, "classes_"), message
                est_params = est.get_params()
                if refused and before is not None:
                    engine = getattr(est, "engine_", None)
                    built = dict(engine.params if engine is not None else est._built_for)
                    est.set_params(**{k: v for k, v in built.items() if k in est_params})
                    after = _snapshot(est)
                    assert after is None or np.array_equal(after, before, equal_nan=True)
            elif action == "learn" and not hasattr(est, "partial_fit"):
                assert not hasattr(est, "classes_"), "a failed fit left a model behind"
        OUTCOMES[f"stream {outcome}"] += 1


def _run(test, examples: int) -> None:
    settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
        database=None,
    )(test)()


def main() -> None:
    numbers = [int(a) for a in sys.argv[1:] if a.isdigit()]
    examples = numbers[0] if numbers else 300
    if examples:
        _run(fuzz, examples)
    _run(fuzz_set_params, numbers[1] if len(numbers) > 1 else examples)
    if "-v" in sys.argv:
        for reason, count in REASONS.most_common(15):
            print(f"{count:5d}  {reason}")
    print(json.dumps(dict(OUTCOMES)))


if __name__ == "__main__":
    main()
