"""Sparse primitives shared by the kernels, and the CSR view every kernel takes."""

from __future__ import annotations

import numba
import numpy as np
import scipy.sparse as sp


def csr_arrays(
    X, dense_view: bool = False, intercept_scaling: float = 0.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(indptr, indices, data)`` of X as CSR (int64, int32, float64); dense X is converted.

    Explicit zeros of a dense matrix are dropped, so a dense and a CSR copy of the same data
    give the same arrays.  A CSR input that is not canonical (unsorted or duplicate indices)
    is canonicalised on a copy: the caller's matrix is never modified.

    With ``dense_view=True``, a dense X with at least half non-zeros is not converted:
    ``data`` is X's values in row-major order (a view when X is C-contiguous float64) and
    ``indices`` repeats ``0..d-1``; converting costs more than the epoch itself on such data
    (USPS: 116 ms vs 2 ms).  Its zeros then stay as explicit entries; they add exact zeros to
    every score, norm and update, so a kernel that only sums ``x_j``-weighted terms learns
    the same model (up to the sign of zero); a kernel that counts non-zeros must not ask.

    The intercept is a feature like any other: with ``intercept_scaling = s > 0`` every row
    gets one more entry, the constant ``s`` at column ``d`` (LIBLINEAR's meaning), appended
    here once for all epochs, so the kernels never branch on an intercept.

    Examples
    --------
    >>> indptr, indices, data = csr_arrays(np.array([[1.0, 0.0], [0.0, 2.0]]))
    >>> indptr.tolist(), indices.tolist(), data.tolist()
    ([0, 1, 2], [0, 1], [1.0, 2.0])
    >>> csr_arrays(np.array([[1.0, 0.0], [3.0, 2.0]]), dense_view=True)[1].tolist()
    [0, 1, 0, 1]
    >>> indptr, indices, data = csr_arrays(np.array([[1.0, 0.0], [0.0, 2.0]]), False, 0.5)
    >>> indptr.tolist(), indices.tolist(), data.tolist()
    ([0, 2, 4], [0, 2, 1, 2], [1.0, 0.5, 2.0, 0.5])
    """
    s = float(intercept_scaling)
    if dense_view and not sp.issparse(X):
        X = np.ascontiguousarray(X, dtype=np.float64)
        if X.ndim == 2 and X.size and 2 * np.count_nonzero(X) >= X.size:
            if s > 0.0:
                X = np.hstack([X, np.full((X.shape[0], 1), s)])
            n, d = X.shape
            return (
                np.arange(0, n * d + 1, d, dtype=np.int64),
                np.tile(np.arange(d, dtype=np.int32), n),
                X.reshape(-1),
            )
    if sp.issparse(X):
        X = X.tocsr()
        if not X.has_canonical_format:
            X = X.copy()
            X.sum_duplicates()
    else:
        X = sp.csr_matrix(X, dtype=np.float64)
    indptr = np.ascontiguousarray(X.indptr, dtype=np.int64)
    indices = np.ascontiguousarray(X.indices, dtype=np.int32)
    data = np.ascontiguousarray(X.data, dtype=np.float64)
    if s > 0.0:  # one entry (d, s) at the end of every row
        ends = indptr[1:]
        indices = np.insert(indices, ends, np.int32(X.shape[1]))
        data = np.insert(data, ends, s)
        indptr = indptr + np.arange(indptr.shape[0], dtype=np.int64)
    return indptr, indices, data


@numba.njit(cache=True)
def row_scores(indptr, indices, data, i, W, scores):
    """``scores[u] = W[:, u] . x_i``; returns ``||x_i||^2``."""
    K = W.shape[1]
    for u in range(K):
        scores[u] = 0.0
    sqnorm = 0.0
    for p in range(indptr[i], indptr[i + 1]):
        j = np.uintp(indices[p])  # unsigned: no negative-index wraparound test
        v = data[p]
        sqnorm += v * v
        for u in range(K):
            scores[u] += W[j, u] * v
    return sqnorm


@numba.njit(cache=True)
def row_dot(indptr, indices, data, i, w):
    """``(w . x_i, ||x_i||^2)`` for one weight vector ``w`` (the two-class paths)."""
    s = 0.0
    sqnorm = 0.0
    for p in range(indptr[i], indptr[i + 1]):
        v = data[p]
        sqnorm += v * v
        s += w[np.uintp(indices[p])] * v
    return s, sqnorm


@numba.njit(cache=True)
def row_axpy(indptr, indices, data, i, W, coef, active, n_active):
    """``W[:, u] += coef[u] * x_i`` for the ``n_active`` classes listed in ``active``."""
    for p in range(indptr[i], indptr[i + 1]):
        j = np.uintp(indices[p])  # unsigned: no negative-index wraparound test
        v = data[p]
        for a in range(n_active):
            u = active[a]
            W[j, u] += coef[u] * v


@numba.njit(cache=True)
def row_axpy_all(indptr, indices, data, i, W, coef):
    """``W[:, u] += coef[u] * x_i`` for every class u, contiguously.

    For a step that moves most classes (SPA with many support classes): the caller keeps
    ``coef[u] = 0`` for the classes it does not move, which then get exact zeros added.
    """
    K = W.shape[1]
    for p in range(indptr[i], indptr[i + 1]):
        j = np.uintp(indices[p])  # unsigned: no negative-index wraparound test
        v = data[p]
        for u in range(K):
            W[j, u] += coef[u] * v


@numba.njit(cache=True)
def row_axpy1(indptr, indices, data, i, w, c):
    """``w += c * x_i`` for one weight vector (the two-class paths)."""
    for p in range(indptr[i], indptr[i + 1]):
        w[np.uintp(indices[p])] += c * data[p]


# --- the two-class fast path: one selector for every family --------------------------------


@numba.njit(cache=True)
def is_mirrored(W):
    """``W[:, 1] == -W[:, 0]`` exactly (two classes, as every additive or CW rule leaves them
    from zero: their two coefficients are opposite and IEEE negation is exact)."""
    for j in range(W.shape[0]):
        if W[j, 1] != -W[j, 0]:
            return False
    return True


@numba.njit(cache=True)
def use_mirrored_path(indptr, order, W):
    """True when a pass may keep one vector ``w = W[:, 0]`` for a two-class ``W``: the state
    is mirrored and the pass reads at least as many non-zeros as ``W`` has rows (the path
    copies ``w`` in and out, which would dominate a short pass)."""
    if W.shape[1] != 2:
        return False
    visited = 0
    for t in range(order.shape[0]):
        visited += indptr[order[t] + 1] - indptr[order[t]]
    return visited >= W.shape[0] and is_mirrored(W)


@numba.njit(cache=True)
def store_mirrored(W, w):
    """Write ``w`` back as ``W[:, 0] = w``, ``W[:, 1] = -w`` (without turning +0 into -0)."""
    for j in range(W.shape[0]):
        W[j, 0] = w[j]
        W[j, 1] = 0.0 - w[j]
