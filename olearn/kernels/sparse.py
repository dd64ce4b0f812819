"""Sparse primitives shared by the kernels, and the CSR view every kernel takes."""

from __future__ import annotations

import numba
import numpy as np
import scipy.sparse as sp


def csr_arrays(X) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(indptr, indices, data)`` of X as CSR (int64, int32, float64); dense X is converted.

    Explicit zeros of a dense matrix are dropped, so a dense and a CSR copy of the same data
    give the same arrays.
    """
    X = sp.csr_matrix(X, dtype=np.float64) if not sp.issparse(X) else X.tocsr()
    if X.dtype != np.float64:
        X = X.astype(np.float64)
    X.sum_duplicates()
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
        j = indices[p]
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
        j = indices[p]
        v = data[p]
        for a in range(n_active):
            u = active[a]
            W[j, u] += coef[u] * v
    if intercept:
        b = W.shape[0] - 1
        for a in range(n_active):
            u = active[a]
            W[b, u] += coef[u]
