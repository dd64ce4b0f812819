"""Sparse primitives shared by the kernels, and the CSR view every kernel takes."""

from __future__ import annotations

import numba
import numpy as np
import scipy.sparse as sp


def csr_arrays(X, dense_view: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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
    return (
        np.ascontiguousarray(X.indptr, dtype=np.int64),
        np.ascontiguousarray(X.indices, dtype=np.int32),
        np.ascontiguousarray(X.data, dtype=np.float64),
    )


@numba.njit(cache=True)
def row_scores(indptr, indices, data, i, W, intercept, scores):
    """``scores[u] = W[:, u] . x_i`` (+ bias row); returns ``||x_i||^2`` (+1 with a bias)."""
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
    if intercept:
        b = W.shape[0] - 1
        for u in range(K):
            scores[u] += W[b, u]
        sqnorm += 1.0
    return sqnorm


@numba.njit(cache=True)
def row_axpy(indptr, indices, data, i, W, intercept, coef, active, n_active):
    """``W[:, u] += coef[u] * x_i`` for the ``n_active`` classes listed in ``active``."""
    for p in range(indptr[i], indptr[i + 1]):
        j = np.uintp(indices[p])  # unsigned: no negative-index wraparound test
        v = data[p]
        for a in range(n_active):
            u = active[a]
            W[j, u] += coef[u] * v
    if intercept:
        b = W.shape[0] - 1
        for a in range(n_active):
            u = active[a]
            W[b, u] += coef[u]


@numba.njit(cache=True)
def row_axpy_all(indptr, indices, data, i, W, intercept, coef):
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
    if intercept:
        b = W.shape[0] - 1
        for u in range(K):
            W[b, u] += coef[u]
