"""numba mirror of :mod:`olearn.core.cs_svm`: one sweep of the Crammer-Singer decomposition.

Weights are feature-major ``W[feature, class]`` (the K values of one non-zero are contiguous),
the dual variables ``alpha[i, class]`` are LIBLINEAR-scaled.  Optional shrinking keeps, per
example, a list of its *active* classes (a class whose alpha sits at its bound and whose
gradient is below every free class's is set aside: it would stay at its bound) and a list of
active examples (an example with at most one active class has nothing left to optimise).  The
caller undoes the shrinking before it trusts a small violation (see
``olearn.estimators.cs_svm``), so the stopping test is always made on the full problem.
"""

from __future__ import annotations

import numpy as np

from olearn._jit import jit
from olearn.kernels.weights import example_weight

# as olearn.core.cs_svm.SKIP_VIOLATION
SKIP_VIOLATION = 1e-12


@jit
def cs_subproblem(A, B, n_active, y_pos, C, D, alpha_new):
    """Mirror of :func:`olearn.core.cs_subproblem.solve_cs_subproblem` on ``B[:n_active]``.

    ``y_pos`` is the position of the example's class among the active ones, or -1 when that
    class is shrunk (its alpha then sits at C, the others must sum to -C: the same sort solves
    it, since in ``u = alpha - bound`` both cases read ``sum u = -C``).  ``D`` is (K,) scratch;
    the solution goes to ``alpha_new[:n_active]``.
    """
    for a in range(n_active):
        D[a] = B[a]
    if y_pos >= 0:
        D[y_pos] += A * C  # shift y's variable so every bound reads u <= 0
    for a in range(1, n_active):  # insertion sort, descending (K is small)
        v = D[a]
        b = a - 1
        while b >= 0 and D[b] < v:
            D[b + 1] = D[b]
            b -= 1
        D[b + 1] = v
    beta = D[0] - A * C
    r = 1
    while r < n_active and beta < r * D[r]:  # admit the r-th largest while it exceeds the level
        beta += D[r]
        r += 1
    beta /= r
    for a in range(n_active):
        bound = C if a == y_pos else 0.0
        alpha_new[a] = min(bound, (beta - B[a]) / A)  # alpha_m = min(bound_m, (beta - B_m)/A)


@jit
def cs_sweep(
    indptr,
    indices,
    data,
    y,
    sqnorm,
    W,
    alpha,
    C,
    index,
    active_size,
    class_index,
    n_classes_active,
    y_pos,
    shrink,
    weights=None,
):
    """Solve the sub-problems of the examples ``index[:active_size]``, in that order.

    Parameters
    ----------
    indptr, indices, data : CSR arrays of X (intercept column included).
    y : (n,) int64 classes.  sqnorm : (n,) ``||x_i||^2``.
    W : (d, K) feature-major weights, updated in place.  alpha : (n, K), updated in place.
    C : the cost.
    index : (n,) int64 example order; the first ``active_size`` are visited.  With ``shrink``
        an example that runs out of active classes is swapped behind the active ones.
    class_index : (n, K) int64, each example's classes with the active ones first;
        ``n_classes_active`` (n,) how many; ``y_pos`` (n,) where ``y_i`` sits in that list.
    shrink : allow shrinking (otherwise every class of every example stays active).
    weights : (n,) float64 example weights s_i > 0, or None: example i's box is
        ``alpha_i^{y_i} <= s_i C`` (``C_i = s_i C``, the dual of ``C sum_i s_i xi_i``).

    Returns
    -------
    (largest KKT violation met, new active_size, sub-problems that changed alpha)
    """
    K = W.shape[1]
    G = np.empty(K)
    scores = np.empty(K)
    B = np.empty(K)
    D = np.empty(K)
    new = np.empty(K)
    worst = 0.0
    n_changed = 0
    s = 0
    while s < active_size:
        i = index[s]
        A = sqnorm[i]
        if A <= 0.0:  # a zero vector: no sub-problem
            s += 1
            continue
        k = n_classes_active[i]
        yp = y_pos[i]
        Ci = C * example_weight(weights, i)  # C_i = s_i C (s = 1: C exactly)
        if 2 * k >= K:  # most classes active: all K scores, contiguous rows of W
            for m in range(K):
                scores[m] = 0.0
            for q in range(indptr[i], indptr[i + 1]):  # s_m = w_m . x_i
                j = indices[q]
                v = data[q]
                for m in range(K):
                    scores[m] += W[j, m] * v
            for a in range(k):
                G[a] = scores[class_index[i, a]] + (0.0 if a == yp else 1.0)  # + e_i^m
        else:  # a few active classes: one dot product each (the sum stays in a register)
            for a in range(k):
                m = class_index[i, a]
                dot = 0.0
                for q in range(indptr[i], indptr[i + 1]):
                    dot += W[indices[q], m] * data[q]
                G[a] = dot + (0.0 if a == yp else 1.0)  # G_m = w_m . x_i + e_i^m
        minG = np.inf
        maxG = -np.inf
        for a in range(k):
            m = class_index[i, a]
            bound = Ci if a == yp else 0.0
            if alpha[i, m] < bound and G[a] < minG:
                minG = G[a]
            if G[a] > maxG:
                maxG = G[a]
        if shrink:  # set aside classes at their bound whose gradient is below every free one
            a = 0
            while a < k:
                bound = Ci if a == yp else 0.0
                if alpha[i, class_index[i, a]] == bound and G[a] < minG:
                    k -= 1
                    tmp = class_index[i, a]
                    class_index[i, a] = class_index[i, k]
                    class_index[i, k] = tmp
                    g = G[a]
                    G[a] = G[k]
                    G[k] = g
                    if yp == k:
                        yp = a
                    elif yp == a:
                        yp = k
                else:
                    a += 1
            n_classes_active[i] = k
            y_pos[i] = yp
            if k <= 1:  # nothing left to optimise for this example
                active_size -= 1
                index[s] = index[active_size]
                index[active_size] = i
                continue
        violation = maxG - minG
        if violation <= SKIP_VIOLATION:
            s += 1
            continue
        if violation > worst:
            worst = violation
        for a in range(k):
            B[a] = G[a] - A * alpha[i, class_index[i, a]]  # B = G - A alpha_i
        cs_subproblem(A, B, k, yp if yp < k else -1, Ci, D, new)
        moved = False
        for a in range(k):
            m = class_index[i, a]
            delta = new[a] - alpha[i, m]
            alpha[i, m] = new[a]
            if delta != 0.0:  # w_m += (alpha_new - alpha_old) x_i, one class at a time
                moved = True
                for q in range(indptr[i], indptr[i + 1]):
                    W[indices[q], m] += delta * data[q]
        if moved:
            n_changed += 1
        s += 1
    return worst, active_size, n_changed
