"""numba mirror of :mod:`olearn.core.pa_regression`: one epoch of PA / PA-I / PA-II regression
over CSR rows, one weight vector.

The step sizes are the compiled functions of :mod:`olearn.core._pa_regression_forms` that the
readable rule calls too.  The intercept, if any, is already a column of the rows
(``kernels.sparse.csr_rows``), so it enters ``||x||^2`` like any feature.

Weights (``weights``, per row; None on the plain path): ``C_i = s C`` for PA-I / PA-II, any
``s > 0`` for hard PA; rows of weight 0 are skipped (absent).

Averaging (``U`` and ``avg``, None on the plain path): as the classifiers'
(:func:`olearn.kernels.weights.average_step`): every step ``Delta = s tau x`` of an averaged
example adds ``n_avg Delta`` to ``U``; the mean of the iterates is ``w - U / n_avg``.

What is compiled: one pass per combination of (weights, averaging) actually used, with the
variant a run-time code (three one-line branches), so every variant shares one compile.
"""

from __future__ import annotations

from olearn._jit import jit
from olearn._numerics import TINY_SQNORM
from olearn.core._pa_regression_forms import tau_eps_pa, tau_eps_pa1, tau_eps_pa2
from olearn.kernels.codes import PA1, PA2
from olearn.kernels.sparse import row_axpy1, row_dot
from olearn.kernels.weights import average_step, example_weight


@jit
def signed_step(residual, sqnorm, code, C, epsilon):
    """``s tau`` of one example (0 when passive): ``w += s tau x``."""
    loss = abs(residual) - epsilon  # max(0, |y - w.x| - epsilon)
    if loss <= 0.0 or sqnorm < TINY_SQNORM:
        return 0.0
    if code == PA1:
        tau = tau_eps_pa1(loss, sqnorm, C)
    elif code == PA2:
        tau = tau_eps_pa2(loss, sqnorm, C)
    else:
        tau = tau_eps_pa(loss, sqnorm)
    return tau if residual > 0.0 else -tau


@jit
def pa_regression_pass(rows, y, order, w, code, C, epsilon, step_out, weights=None, U=None,
                       avg=None):  # fmt: skip
    """:func:`pa_regression_epoch`'s compiled loop."""
    n_updates = 0
    for t in range(order.shape[0]):
        i = order[t]
        weight = example_weight(weights, i)
        if weight == 0.0:
            continue  # absent
        p, sqnorm = row_dot(rows, i, w)
        step = signed_step(y[i] - p, sqnorm, code, C * weight, epsilon)  # C_i = s C
        if step_out.shape[0] > 0:
            step_out[t] = step
        if step != 0.0:
            row_axpy1(rows, i, w, step)
            n_updates += 1
        if U is not None:
            factor = average_step(avg)
            if factor > 0.0 and step != 0.0:  # U += n_avg Delta
                row_axpy1(rows, i, U, factor * step)
    return n_updates


def pa_regression_epoch(
    rows, y, order, w, code, C, epsilon, step_out, weights=None, U=None, avg=None
) -> int:
    """Run one pass over the rows ``order`` (in that order), updating ``w`` in place.

    Parameters
    ----------
    rows : X's rows as CSR blocks, the intercept column included (``kernels.sparse.csr_rows``).
    y : (n,) float64 targets.  order : (T,) int64 row indices to visit.
    w : (D,) float64 weights (D counts the intercept column), in place.
    code : the variant (``kernels.codes.regression_code``).  C : slack price.
    epsilon : the tube's half-width.
    step_out : (T,) array to record every step's ``s tau`` (0 when passive), or (0,).
    weights : (n,) float64 example weights (>= 0) by row, or None (every weight 1).
    U, avg : the averaging sum (D,) and counters ``[t, n_avg, start]`` (int64), updated in
        place; None without averaging.

    Returns
    -------
    The number of aggressive (non-passive) steps.
    """
    return pa_regression_pass(rows, y, order, w, int(code), float(C), float(epsilon), step_out,
                              weights, U, avg)  # fmt: skip
