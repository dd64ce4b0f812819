"""Hypothesis fuzzing of every registry estimator's boundary; run in a child process by
``tests/test_fuzz_estimators.py`` (a crash there is a failure, not a dead test run).

Every case must end in a correct result (predictions among ``classes_``, scores finite where
the input is) or a documented exception: ``ValueError`` (bad values, shapes, labels, malformed
sparse structure, overflowing norms, bad hyper-parameters; scikit-learn's
``InvalidParameterError`` is one) or ``TypeError`` (an input of the wrong type).  Prints the
outcome counts as JSON on its last line.

Run by hand: ``python -m tests.fuzz_estimators 400``.
"""

from __future__ import annotations

import json
import sys
import warnings
from collections import Counter

import numpy as np
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from olearn import registry

KEYS = [k for k in registry.keys() if k != "pcvm-chen"]  # one PCVM is enough (slow-ish EM)
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


def main() -> None:
    examples = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 300
    settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
        database=None,
    )(fuzz)()
    if "-v" in sys.argv:
        for reason, count in REASONS.most_common(15):
            print(f"{count:5d}  {reason}")
    print(json.dumps(dict(OUTCOMES)))


if __name__ == "__main__":
    main()
