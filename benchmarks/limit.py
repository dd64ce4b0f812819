"""The physical limit of one pass: read every non-zero once and form the scores of each row.

No learner can make a pass faster than it reads its input.  Two floors:

- :func:`stream_dot`: one dot product ``w . x_i`` per row (a binary linear model's reading cost);
- :func:`stream_scores`: the K scores ``W[:, u] . x_i`` of a multiclass model with feature-major
  ``W[feature, class]`` (what every multiclass learner here must at least do per row).

Both return a checksum of the scores so the compiler cannot drop the work.  Indices are read
as unsigned (``np.uintp``), as in olearn's kernels: numba tests a signed index for negative
wraparound at every access, which costs ~30 % on a gather-bound pass.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def stream_dot(indptr, indices, data, w):
    """``sum_i w . x_i`` over the CSR rows (one gather-multiply-add per non-zero).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = sp.csr_matrix(np.array([[1.0, 0, 2], [0, 3, 0]]))
    >>> float(stream_dot(X.indptr, X.indices, X.data, np.array([1.0, 1.0, 1.0])))
    6.0
    """
    total = 0.0
    for i in range(indptr.shape[0] - 1):
        s = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            s += w[np.uintp(indices[p])] * data[p]
        total += s
    return total


@numba.njit(cache=True)
def stream_scores(indptr, indices, data, W, scores):
    """``sum_i max_u W[:, u] . x_i``: the K scores of every row, feature-major ``W``.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = sp.csr_matrix(np.array([[1.0, 0, 2], [0, 3, 0]]))
    >>> W = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # (d, K)
    >>> float(stream_scores(X.indptr, X.indices, X.data, W, np.empty(2)))
    6.0
    """
    K = W.shape[1]
    total = 0.0
    for i in range(indptr.shape[0] - 1):
        for u in range(K):
            scores[u] = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            j = np.uintp(indices[p])  # unsigned: no negative-index wraparound test
            v = data[p]
            for u in range(K):
                scores[u] += W[j, u] * v
        total += scores.max()
    return total
