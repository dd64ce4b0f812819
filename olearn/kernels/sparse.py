"""Sparse primitives shared by the kernels, and the CSR blocks every kernel reads."""

from __future__ import annotations

import functools
import math

import numpy as np
import scipy.sparse as sp

from olearn._jit import jit

# The widest feature count whose indices (and the intercept column's index, n_features) fit
# int32: kernels read int32 indices below it, int64 from it on (never a wrapped index).
INT32_FEATURES = int(np.iinfo(np.int32).max)


def index_dtype(n_features: int) -> type:
    """int32 for the indices of up to 2^31 - 1 features (half the memory traffic of int64 on
    text data), int64 beyond, where int32 would wrap (n_features itself is the intercept
    column's index)."""
    return np.int32 if int(n_features) <= INT32_FEATURES else np.int64


def csr_arrays(X, dense_view: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(indptr, indices, data)`` of X as CSR (int64, :func:`index_dtype`, float64); dense X
    is converted.

    Explicit zeros of a dense matrix are dropped, so a dense and a CSR copy of the same data
    give the same arrays.  A CSR input that is not canonical (unsorted or duplicate indices)
    is canonicalised on a copy: the caller's matrix is never modified.

    With ``dense_view=True``, a dense X with at least half non-zeros is not converted:
    ``data`` is X's values in row-major order (a view when X is C-contiguous float64) and
    ``indices`` repeats ``0..d-1``; converting costs more than the epoch itself on such data
    (USPS: 116 ms vs 2 ms).  Its zeros then stay as explicit entries; they add exact zeros to
    every score, norm and update, so a kernel that only sums ``x_j``-weighted terms learns
    the same model (up to the sign of zero); a kernel that counts non-zeros must not ask.

    Examples
    --------
    >>> indptr, indices, data = csr_arrays(np.array([[1.0, 0.0], [0.0, 2.0]]))
    >>> indptr.tolist(), indices.tolist(), data.tolist()
    ([0, 1, 2], [0, 1], [1.0, 2.0])
    >>> csr_arrays(np.array([[1.0, 0.0], [3.0, 2.0]]), dense_view=True)[1].tolist()
    [0, 1, 0, 1]
    """
    if dense_view and not sp.issparse(X):
        X = np.ascontiguousarray(X, dtype=np.float64)
        if X.ndim == 2 and X.size and 2 * np.count_nonzero(X) >= X.size:
            n, d = X.shape
            return (
                np.arange(0, n * d + 1, d, dtype=np.int64),
                np.tile(np.arange(d, dtype=index_dtype(d)), n),
                X.reshape(-1),
            )
    if sp.issparse(X):
        X = X.tocsr()
        if not X.has_canonical_format:
            X = X.copy()
            X.sum_duplicates()
    else:
        X = sp.csr_matrix(X, dtype=np.float64)
    return (
        np.ascontiguousarray(X.indptr, dtype=np.int64),
        np.ascontiguousarray(X.indices, dtype=index_dtype(X.shape[1])),
        np.ascontiguousarray(X.data, dtype=np.float64),
    )


def csr_rows(X, dense_view: bool = False, intercept_scaling: float = 0.0) -> tuple:
    """X's rows as the kernels read them: a tuple of two CSR blocks ``(indptr, indices,
    data)`` whose rows are concatenated.  Block 0 is X (:func:`csr_arrays`); with
    ``intercept_scaling = s > 0`` block 1 is the intercept, a constant column of value ``s``
    at index ``d`` (LIBLINEAR's meaning), appended here once for all epochs; without, block 1
    is empty (rows with and without an intercept are then of one numba type: each kernel is
    compiled once for both).

    The intercept is then a feature like any other for every kernel (no kernel branches on
    it), and appending it costs O(n), not the O(nnz) copy an ``hstack`` would: on the hashed
    ``sgd-balanced`` set (11 M non-zeros) that copy took about as long as an epoch.

    >>> rows = csr_rows(np.array([[1.0, 0.0], [0.0, 2.0]]), intercept_scaling=0.5)
    >>> [block[1].tolist() for block in rows], rows[1][2].tolist()
    ([[0, 1], [2, 2]], [0.5, 0.5])
    """
    return with_intercept(csr_arrays(X, dense_view), X.shape[1], intercept_scaling)


# Row primitives: ``rows`` is the tuple of CSR blocks of :func:`csr_rows`; row i is the
# concatenation of row i of every block.  Indices are read unsigned: no negative-index
# wraparound test (the estimators check every index at the boundary).


@jit
def row_scores(rows, i, W, scores):
    """``scores[u] = W[:, u] . x_i``; returns ``||x_i||^2``."""
    K = W.shape[1]
    for u in range(K):
        scores[u] = 0.0
    sqnorm = 0.0
    for b in range(len(rows)):  # X's block, then the intercept's
        indptr, indices, data = rows[b]
        for p in range(indptr[i], indptr[i + 1]):
            j = np.uintp(indices[p])
            v = data[p]
            sqnorm += v * v
            for u in range(K):
                scores[u] += W[j, u] * v
    return sqnorm


@jit
def row_dot(rows, i, w):
    """``(w . x_i, ||x_i||^2)`` for one weight vector ``w`` (the two-class paths)."""
    s = 0.0
    sqnorm = 0.0
    for b in range(len(rows)):  # X's block, then the intercept's
        indptr, indices, data = rows[b]
        for p in range(indptr[i], indptr[i + 1]):
            v = data[p]
            sqnorm += v * v
            s += w[np.uintp(indices[p])] * v
    return s, sqnorm


@jit
def row_axpy(rows, i, W, coef, active, n_active):
    """``W[:, u] += coef[u] * x_i`` for the ``n_active`` classes listed in ``active``."""
    for b in range(len(rows)):  # X's block, then the intercept's
        indptr, indices, data = rows[b]
        for p in range(indptr[i], indptr[i + 1]):
            j = np.uintp(indices[p])
            v = data[p]
            for a in range(n_active):
                u = active[a]
                W[j, u] += coef[u] * v


@jit
def row_axpy_all(rows, i, W, coef):
    """``W[:, u] += coef[u] * x_i`` for every class u, contiguously.

    For a step that moves most classes (SPA with many support classes): the caller keeps
    ``coef[u] = 0`` for the classes it does not move, which then get exact zeros added.
    """
    K = W.shape[1]
    for b in range(len(rows)):  # X's block, then the intercept's
        indptr, indices, data = rows[b]
        for p in range(indptr[i], indptr[i + 1]):
            j = np.uintp(indices[p])
            v = data[p]
            for u in range(K):
                W[j, u] += coef[u] * v


@jit
def row_axpy1(rows, i, w, c):
    """``w += c * x_i`` for one weight vector (the two-class paths)."""
    for b in range(len(rows)):  # X's block, then the intercept's
        indptr, indices, data = rows[b]
        for p in range(indptr[i], indptr[i + 1]):
            w[np.uintp(indices[p])] += c * data[p]


@jit
def row_nnz(rows, i):
    """Stored entries of row i (over all blocks)."""
    count = 0
    for b in range(len(rows)):  # X's block, then the intercept's
        indptr = rows[b][0]
        count += indptr[i + 1] - indptr[i]
    return count


# --- the two-class fast path: one selector for every family --------------------------------


@jit
def is_mirrored(W):
    """``W[:, 1] == -W[:, 0]`` exactly (two classes, as every additive or CW rule leaves them
    from zero: their two coefficients are opposite and IEEE negation is exact)."""
    for j in range(W.shape[0]):
        if W[j, 1] != -W[j, 0]:
            return False
    return True


@jit
def use_mirrored_path(rows, order, W):
    """True when a pass may keep one vector ``w = W[:, 0]`` for a two-class ``W``: the state
    is mirrored and the pass reads at least as many non-zeros as ``W`` has rows (the path
    copies ``w`` in and out, which would dominate a short pass)."""
    if W.shape[1] != 2:
        return False
    visited = 0
    for t in range(order.shape[0]):
        visited += row_nnz(rows, order[t])
    return visited >= W.shape[0] and is_mirrored(W)


@jit
def store_mirrored(W, w):
    """Write ``w`` back as ``W[:, 0] = w``, ``W[:, 1] = -w`` (without turning +0 into -0)."""
    for j in range(W.shape[0]):
        W[j, 0] = w[j]
        W[j, 1] = 0.0 - w[j]


# --- one-pass checks of the input (the estimators' boundary) --------------------------------


@jit
def index_problem(indptr, indices, minor):
    """0 if ``indptr`` is non-decreasing and every index lies in ``[0, minor)``; else 1 (a
    decreasing indptr) or 2 (an index out of range).  One branch-free pass over the indices
    (integer min/max reductions vectorise), no allocation."""
    for i in range(indptr.shape[0] - 1):
        if indptr[i + 1] < indptr[i]:
            return 1
    if indices.shape[0] == 0:
        return 0
    lo = indices[0]
    hi = indices[0]
    for p in range(indices.shape[0]):
        lo = min(lo, indices[p])
        hi = max(hi, indices[p])
    return 2 if lo < 0 or hi >= minor else 0


# What :func:`scan_csr` / :func:`csr_problem` found, by its code (0: nothing).
CSR_PROBLEMS = (
    "",
    "indptr does not start at 0",
    "indptr decreases",
    "indptr does not end at the number of stored values",
    "indices and data differ in length",
    "an index is out of range",
    "a value is NaN or infinite",
)
NOT_FINITE = 6  # the code of a NaN or infinite value (scan_dense's only problem)


@jit
def scan_csr(indptr, indices, data, n_features):
    """One pass over a CSR matrix's raw arrays, trusting nothing: ``(problem, largest, sorted)``.

    ``problem`` is 0 when ``(indptr, indices, data)`` is a CSR matrix of ``len(indptr) - 1``
    rows over ``n_features`` columns with finite values (``indptr`` starts at 0, never
    decreases and ends at ``len(data)``, ``indices`` is as long as ``data``, each index in
    ``[0, n_features)``), else the code of the first problem found (:data:`CSR_PROBLEMS`;
    nothing past a bad ``indptr`` entry is read).  ``largest`` is ``max_i ||x_i||^2`` (``inf``
    when a row's sum of squares overflows float64), ``sorted`` whether every row's indices
    strictly increase (scipy's canonical format: no duplicates).  The estimators' door and a
    store's read run it once before anything else reads the arrays (scipy's own
    ``check_format`` reads only the ends of ``indptr``, and its C code trusts the rest).

    >>> scan_csr(np.array([0, 2, 3]), np.array([0, 2, 1]), np.array([3.0, 4.0, 1.0]), 3)
    (0, 25.0, True)
    >>> print(CSR_PROBLEMS[scan_csr(np.array([0, 2, 1]), np.array([0, 1]), np.ones(2), 2)[0]])
    indptr decreases
    """
    nnz = data.shape[0]
    if indptr.shape[0] == 0 or indptr[0] != 0:
        return 1, 0.0, False
    n = indptr.shape[0] - 1
    if indices.shape[0] != nnz:
        return 4, 0.0, False
    largest = 0.0
    ordered = True
    for i in range(n):
        lo = indptr[i]
        hi = indptr[i + 1]
        if hi < lo or hi > nnz:  # past the end: it must decrease to end at nnz
            return 2, 0.0, False
        sq = 0.0
        for p in range(lo, hi):
            v = data[p]
            sq += v * v
        if not sq <= largest:  # larger, or not finite: a NaN / inf value, or an overflow
            if not np.isfinite(sq):
                for p in range(lo, hi):
                    if not np.isfinite(data[p]):
                        return NOT_FINITE, 0.0, False
            largest = sq
        if hi > lo:
            first = indices[lo]
            if first < 0 or first >= n_features:
                return 5, 0.0, False
            for p in range(lo + 1, hi):
                j = indices[p]
                if j < 0 or j >= n_features:
                    return 5, 0.0, False
                ordered &= j > indices[p - 1]
    if indptr[n] != nnz:
        return 3, 0.0, False
    return 0, largest, ordered


@jit
def csr_problem(indptr, indices, data, n_features):
    """The first problem :func:`scan_csr` finds (0: a well-formed CSR matrix, finite values).

    >>> csr_problem(np.array([0, 1, 2]), np.array([0, 1]), np.array([1.0, 2.0]), 2)
    0
    >>> print(CSR_PROBLEMS[csr_problem(np.array([0, 2]), np.array([0, 2]), np.ones(2), 2)])
    an index is out of range
    >>> print(CSR_PROBLEMS[csr_problem(np.array([0, 1]), np.array([0]), np.array([np.nan]), 2)])
    a value is NaN or infinite
    """
    return scan_csr(indptr, indices, data, n_features)[0]


# Rows per block of :func:`scan_dense`: its temporaries stay small (a block's norms, and its
# finiteness mask only when a norm is not finite).
SCAN_BLOCK = 4096


def scan_dense(X):
    """``(problem, largest)`` of a C-contiguous 2-D float64 array: :data:`NOT_FINITE` if a
    value is NaN or infinite (else 0) and ``max_i ||x_i||^2`` (``inf`` on overflow).

    numpy, not a compiled pass: a first ``fit`` on dense data then compiles only its rule's
    kernel (issue 32).  ``largest`` bounds the door's range checks only (no model reads it);
    numpy may sum a row in another order than :func:`scan_csr`, so the two can differ in the
    last bits.

    >>> scan_dense(np.array([[3.0, 4.0], [1.0, 0.0]]))
    (0, 25.0)
    >>> scan_dense(np.array([[1.0, np.nan]]))[0] == NOT_FINITE
    True
    """
    largest = 0.0
    for start in range(0, X.shape[0], SCAN_BLOCK):
        block = X[start : start + SCAN_BLOCK]
        with np.errstate(over="ignore", invalid="ignore"):
            top = float(np.einsum("ij,ij->i", block, block).max())
        if not top <= largest:  # larger, or not finite: a NaN / inf value, or an overflow
            if not math.isfinite(top) and not np.isfinite(block).all():
                return NOT_FINITE, 0.0
            largest = top
    return 0, largest


def check_sparse_structure(X) -> None:
    """Raise ValueError unless a CSR/CSC/BSR matrix is well formed (O(nnz)).

    scipy does not check index ranges when a matrix is built from raw arrays; a kernel that
    trusted them would read or write out of bounds (an index equal to n_features would even
    train the intercept row silently), and scipy's own conversions would crash.  Run it before
    anything converts or indexes a sparse input that did not come through :func:`scan_csr`.
    """
    if not (sp.issparse(X) and X.format in ("csr", "csc", "bsr")):
        return
    try:
        X.check_format(full_check=False)  # lengths, dtypes, indptr's ends: O(1) to O(n)
        if X.format == "bsr":
            X.check_format(full_check=True)
            return
        problem = index_problem(X.indptr, X.indices, X.shape[1 if X.format == "csr" else 0])
    except (ValueError, TypeError, IndexError) as err:
        raise ValueError(f"malformed sparse matrix ({X.format}): {err}") from None
    if problem:
        what = ("indptr must be non-decreasing", "an index is out of range")[problem - 1]
        raise ValueError(f"malformed sparse matrix ({X.format}): {what}")


def rows_from_csr(indptr, indices, data, n_features: int, intercept_scaling: float) -> tuple:
    """The kernels' CSR blocks (:func:`csr_rows`) from checked, canonical raw arrays: X's block
    in the kernels' dtypes (copies only where a dtype differs), then the intercept column's."""
    main = (
        np.ascontiguousarray(indptr, dtype=np.int64),
        np.ascontiguousarray(indices, dtype=index_dtype(n_features)),
        np.ascontiguousarray(data, dtype=np.float64),
    )
    return with_intercept(main, n_features, intercept_scaling)


def with_intercept(main: tuple, n_features: int, intercept_scaling: float) -> tuple:
    """``(main, column)``: X's block and the intercept column's (:func:`csr_rows`), an empty
    block without an intercept (``intercept_scaling <= 0``).

    Every block is read-only (X's through views: the caller's arrays keep their flags).  Rows
    are read, never written, and numba types a read-only array apart from a writeable one: a
    read-only X (a memmap, a store's chunk, scikit-learn's read-only check, a Dask partition)
    compiled every kernel again, twice (read-only data with writeable indices; both
    read-only).  One type for every X, one row (River's ``learn_one``) included."""
    s = float(intercept_scaling)
    main = (_read_only(main[0]), _read_only(main[1]), _read_only(main[2]))
    n = main[0].shape[0] - 1
    if n == 1:  # one row (River's learn_one): the same block every time
        return (main, _one_row_column(n_features, main[1].dtype.str, s))
    if s <= 0.0:
        column = (np.zeros(n + 1, dtype=np.int64), main[1][:0], main[2][:0])
    else:
        column = (
            np.arange(n + 1, dtype=np.int64),
            np.full(n, n_features, dtype=main[1].dtype),  # numba: the blocks share one type
            np.full(n, s, dtype=np.float64),
        )
    for part in column:  # numba iterates a tuple of blocks of one type only
        part.setflags(write=False)
    return (main, column)


def _read_only(a: np.ndarray) -> np.ndarray:
    """``a``, or a read-only view of it (O(1): no copy; 0.4 us)."""
    if not a.flags.writeable:
        return a
    view = a.view()
    view.setflags(write=False)
    return view


@functools.lru_cache(maxsize=64)
def one_row_indptr(nnz: int) -> np.ndarray:
    """``[0, nnz]``, read-only (a row's indptr, as :func:`with_intercept` would make it)."""
    indptr = np.array([0, nnz], dtype=np.int64)
    indptr.setflags(write=False)
    return indptr


@functools.lru_cache(maxsize=32)
def _one_row_column(n_features: int, dtype: str, s: float) -> tuple:
    """The intercept column's block of one row, read-only as every block is; empty for
    ``s <= 0``."""
    if s <= 0.0:
        column = (np.zeros(2, dtype=np.int64), np.zeros(0, dtype=dtype), np.zeros(0))
    else:
        column = (np.array([0, 1], dtype=np.int64), np.array([n_features], dtype=dtype),
                  np.array([s]))  # fmt: skip
    for part in column:
        part.setflags(write=False)
    return column
