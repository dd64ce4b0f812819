"""A read-only X runs the kernels compiled for a writeable one (olearn.kernels.sparse's
``with_intercept``: every row block is read-only, one row's included): numba types a
read-only array apart from a writeable one, and a memmap, a store's chunk or scikit-learn's
read-only check used to compile each kernel again, twice over (read-only data with writeable
indices; both read-only).  The blocks' numba types are compared (whatever the process compiled
before), and the dispatchers' signatures counted before and after a fit (a new one would be a
compile).  The models are equal to the last bit."""

from __future__ import annotations

import numba
import numpy as np
import pytest
import scipy.sparse as sp

from olearn.estimators import AROWClassifier, PAClassifier, SPAClassifier
from olearn.kernels import additive, cw
from olearn.kernels.sparse import csr_rows, with_intercept


def _read_only(X, which=("indptr", "indices", "data")):
    Y = X.copy()
    for name in which:
        getattr(Y, name).flags.writeable = False
    return Y


def _data():
    X = sp.random(60, 8, density=0.5, format="csr", random_state=1)
    return X, np.arange(60) % 3


@pytest.mark.parametrize(
    "make, kernel",
    [
        (lambda: PAClassifier(variant="I", random_state=0), additive._general_pass),
        (lambda: SPAClassifier(random_state=0), additive._general_pass),
        (lambda: AROWClassifier(random_state=0), cw._general_pass),
    ],
)
@pytest.mark.parametrize("which", [("data",), ("indices", "data"), ("indptr", "indices", "data")])
def test_a_read_only_x_compiles_nothing_new_and_learns_the_same_model(make, kernel, which):
    X, y = _data()
    for scaling in (0.0, 1.0):
        blocks = csr_rows(_read_only(X, which), intercept_scaling=scaling)
        assert numba.typeof(blocks) == numba.typeof(csr_rows(X, intercept_scaling=scaling))
    writeable = make().fit(X, y)
    known = set(kernel.signatures)
    read_only = make().fit(_read_only(X, which), y)
    assert set(kernel.signatures) == known
    assert np.array_equal(read_only.coef_, writeable.coef_)
    assert np.array_equal(read_only.intercept_, writeable.intercept_)


def test_the_blocks_are_read_only_views_and_the_callers_arrays_keep_their_flags():
    X, _ = _data()
    for scaling in (0.0, 1.0):
        rows = csr_rows(X, intercept_scaling=scaling)
        assert all(not part.flags.writeable for block in rows for part in block)
    assert X.data.flags.writeable and X.indices.flags.writeable
    assert np.shares_memory(csr_rows(X)[0][2], X.data)  # a view, not a copy


def test_one_row_is_of_the_batches_type_and_learn_one_compiles_nothing_new():
    """River's learn_one (one row, arrays olearn builds) runs the kernel a fit compiled (AROW:
    no plain-Python path for small rows)."""
    from olearn.river import Classifier

    X, y = _data()
    main = (np.array([0, 2], dtype=np.int64), np.array([1, 3], dtype=np.int32), np.ones(2))
    assert numba.typeof(with_intercept(main, 8, 1.0)) == numba.typeof(csr_rows(X, False, 1.0))
    assert main[1].flags.writeable  # (a view is read-only, the caller's array is not)
    model = Classifier("arow", classes=[0, 1, 2])
    names = [f"x{j}" for j in range(8)]
    model.learn_one(dict.fromkeys(names, 1.0), 0)  # (every name met: later rows are known)
    AROWClassifier(random_state=0).fit(X, y)
    known = set(cw._general_pass.signatures)
    for i in range(5):
        model.learn_one({n: float(X[i, j]) for j, n in enumerate(names)}, int(y[i]))
    assert set(cw._general_pass.signatures) == known
