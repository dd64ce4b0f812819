"""The estimators' boundary against hostile input (issue 12, estimator side): one regression
test per defect the fuzzing pass found, each of which failed before its fix.

Malformed sparse matrices once crashed the process (a kernel read out of bounds), so those
cases run in a child process: a segfault there is a failure here, not a dead test run.
"""

import subprocess
import sys
import textwrap

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import NotFittedError

from olearn import registry

ONLINE = [registry.get(k) for k in registry.keys(online=True)]
ALL = registry.ALGORITHMS


def run_isolated(code: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter (the repository on its path)."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=600
    )


def malformed(kind: str) -> sp.csr_matrix:
    """A 3 x 4 CSR matrix built from raw arrays that scipy accepts without a full check."""
    indptr, indices, data = np.array([0, 2, 3, 4]), np.array([0, 3, 1, 2]), np.ones(4)
    if kind == "index_too_large":
        indices = np.array([0, 40, 1, 2])
    elif kind == "index_equal_to_width":
        indices = np.array([0, 4, 1, 2])  # would train the intercept row silently
    elif kind == "negative_index":
        indices = np.array([0, -3, 1, 2])
    elif kind == "indptr_decreasing":
        indptr = np.array([0, 3, 2, 4])
    return sp.csr_matrix((data, indices, indptr), shape=(3, 4))


@pytest.mark.parametrize(
    "kind", ["index_too_large", "index_equal_to_width", "negative_index", "indptr_decreasing"]
)
def test_malformed_csr_is_a_value_error_not_a_crash(kind):
    keys = [spec.key for spec in ALL]
    proc = run_isolated(f"""
        import numpy as np
        from olearn import registry
        from tests.test_estimator_boundary import malformed
        X, y = malformed({kind!r}), np.array([0, 1, 0])
        good = np.eye(3, 4)
        for key in {keys!r}:
            est = registry.get(key).make()
            try:
                est.fit(X, y)
                print("NO ERROR", key)
            except ValueError as err:
                assert "malformed sparse matrix" in str(err), (key, err)
            fitted = registry.get(key).make().fit(good, y)
            try:
                fitted.predict(X)
                print("NO ERROR predict", key)
            except ValueError as err:
                assert "malformed sparse matrix" in str(err), (key, err)
        print("done")
    """)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "NO ERROR" not in proc.stdout and "done" in proc.stdout


@pytest.mark.parametrize("spec", ONLINE, ids=lambda s: s.key)
def test_a_failed_first_partial_fit_leaves_the_estimator_usable(spec):
    X = np.eye(3)
    est = spec.make()
    with pytest.raises(ValueError, match="NaN"):
        est.partial_fit(np.where(X > 0, np.nan, X), [0, 1, 0])
    assert not hasattr(est, "classes_")
    est.partial_fit(X, [0, 0, 0], classes=[0, 1])
    assert est.classes_.tolist() == [0, 1]


@pytest.mark.parametrize("spec", ONLINE, ids=lambda s: s.key)
def test_a_failed_refit_leaves_no_stale_state(spec):
    est = spec.make().fit(np.eye(3), [0, 1, 2])
    with pytest.raises(ValueError):
        est.fit(np.eye(5), [1, 1, 1, 1, 1])  # one class: the refit fails after reading X
    with pytest.raises(NotFittedError):
        est.predict(np.eye(5))  # not an IndexError from weights of the old width


@pytest.mark.parametrize("spec", ONLINE, ids=lambda s: s.key)
@pytest.mark.parametrize("param", ["fit_intercept", "shuffle"])
def test_strings_are_not_booleans(spec, param):
    with pytest.raises(ValueError, match=f"'{param}' parameter"):
        spec.make(**{param: "no"}).fit(np.eye(3), [0, 1, 2])


@pytest.mark.parametrize("spec", ONLINE, ids=lambda s: s.key)
def test_overflowing_norms_ask_to_scale(spec):
    X = np.array([[1e160, 0.0], [0.0, 1.0], [1.0, 1.0]])
    with pytest.raises(ValueError, match="scale the features"):
        spec.make().fit(X, [0, 1, 0])
    spec.make().fit(X / 1e160, [0, 1, 0])  # scaled, the same data is fine


def test_large_integer_labels_stay_distinct():
    X = np.eye(4)
    for y in (
        np.array([10**19, 10**19 + 1] * 2, dtype=np.uint64),
        np.array([2**53, 2**53 + 1] * 2, dtype=np.int64),  # equal as float64
    ):
        est = registry.get("spa").make(epochs=20).fit(X, y)
        assert est.classes_.tolist() == sorted(set(y.tolist()))
        assert est.predict(X).tolist() == y.tolist()


def test_label_type_mismatch_is_explained():
    est = registry.get("pa1").make().fit(np.eye(3), np.array(["0", "1", "2"]))
    with pytest.raises(ValueError, match=r"labels 0, 1, 2 .*of type str"):
        est.partial_fit(np.eye(3), np.array([0, 1, 2]))
