"""Kernel basis functions for the PCVM: ``Phi[i, j] = phi_j(x_i) = k(x_i, z_j)``.

- ``"cosine"`` (seed 002, Eq. 21): ``phi_j(x) = x_j . x / (||x_j|| ||x||)``; a zero vector has
  no direction, so its cosine with anything is defined as 0 (a document without words).
- ``"linear"``: ``phi_j(x) = x_j . x``.
- ``"rbf"`` (Chen et al.'s kernel): ``phi_j(x) = exp(-theta^2 ||x - x_j||^2)``.

Dense or CSR input; the result is a dense float64 array (the basis is N x N at most).

>>> import numpy as np
>>> X = np.array([[1.0, 0.0], [1.0, 1.0]])
>>> np.round(basis(X, X, "cosine"), 4)
array([[1.    , 0.7071],
       [0.7071, 1.    ]])
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

KERNELS = ("cosine", "rbf", "linear")


def check_kernel(kernel: str, theta: float) -> None:
    """Raise ``ValueError`` for an unknown kernel or a bad RBF width."""
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS}, got {kernel!r}")
    if kernel == "rbf" and not (np.isfinite(theta) and theta > 0):
        raise ValueError(f"theta must be a positive finite number for the rbf kernel, got {theta}")


def _dense(a) -> np.ndarray:
    return np.asarray(a.toarray() if sp.issparse(a) else a, dtype=np.float64)


def _row_norms(X) -> np.ndarray:
    sq = X.multiply(X).sum(axis=1) if sp.issparse(X) else np.einsum("ij,ij->i", X, X)
    return np.sqrt(np.asarray(sq, dtype=np.float64).ravel())


def basis(X, Z, kernel: str = "cosine", theta: float = 1.0) -> np.ndarray:
    """The design matrix ``Phi`` of shape (n_X, n_Z): row i holds ``phi(x_i)`` (seed Eq. 8).

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (n, M), the points evaluated.
    Z : {ndarray, sparse matrix} of shape (m, M), the centres ``x_j`` of the basis functions.
    kernel : {"cosine", "rbf", "linear"}.
    theta : float, RBF inverse width (``exp(-theta^2 ||x - z||^2)``, Chen et al.'s form).
    """
    check_kernel(kernel, theta)
    gram = _dense(X @ Z.T)  # x_i . z_j
    if kernel == "linear":
        return gram
    nx, nz = _row_norms(X), _row_norms(Z)
    if kernel == "cosine":  # Eq. (21)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = gram / np.outer(nx, nz)
        out[~np.isfinite(out)] = 0.0  # zero vectors: cosine defined as 0
        return out
    sqdist = np.maximum(nx[:, None] ** 2 + nz[None, :] ** 2 - 2.0 * gram, 0.0)
    return np.exp(-(theta**2) * sqdist)
