r"""
SPA: the printed Table 2 against the derivation
===============================================

Seed 000 prints the soft SPA steps in its Table 2.  Re-derived from the problem the paper
states, two of them differ (see :doc:`/exact`).  For SPA-II the support-class test, with
``n = ||x||^2`` and ``Q`` sorted in decreasing order, is printed as

.. math::

   \Big(\frac{n + \frac{1}{2C}}{k\,n + \frac{1}{2C}}\Big) \sum_{j<k} Q_j \ge Q_k

while the derivation gives :math:`k\,n + \frac{k-1}{2C}` in the denominator.  The two agree
for :math:`k \le 2` and differ once a third class is in question.  Here we find such an
example, take both steps, and ask a generic QP solver which one solves the stated problem.
"""

import numpy as np
import pandas as pd

from olearn.core.spa import spa_printed_step, spa_step
from olearn.teaching.instances import find_printed_discrepancy
from olearn.teaching.qp import objective, qp_step
from olearn.teaching.spa_walk import formulas

# %%
# The formulas, as the app shows them
# -----------------------------------
# LaTeX rows (the app colours the term that differs).
pd.DataFrame(formulas("II"), columns=["what", "printed (seed 000)", "derived"])

# %%
# An example where they disagree
# ------------------------------
# SPA-II with four classes (three wrong ones, so that a third class is in question).
C = 1.0
inst = find_printed_discrepancy("II", seed=0, C=C)
W_derived, derived = spa_step(inst.W, inst.x, inst.y, variant="II", C=C)
W_printed, printed = spa_printed_step(inst.W, inst.x, inst.y, variant="II", C=C)
qp = qp_step(inst.W, inst.x, inst.y, variant="II", C=C)

pd.DataFrame(
    {
        "support classes": [derived.support, printed.support, "-"],
        "tau": [derived.tau.round(6), printed.tau.round(6), qp.tau.round(6)],
    },
    index=["derived", "printed", "QP solver"],
)

# %%
# The derived step is the QP's answer; the printed one is not, and costs more
# ---------------------------------------------------------------------------
# The objective ``1/2 sum_v ||w_v - w_v_old||^2 + C xi^2`` of each step.
print("derived tau == QP tau:", np.allclose(derived.tau, qp.tau, atol=1e-6))
for name, W_new in (("derived", W_derived), ("printed", W_printed)):
    value, xi = objective(inst.W, W_new - inst.W, inst.x, inst.y, variant="II", C=C)
    print(f"{name:8s} objective = {value:.6f} (xi = {xi:.6f})")
print(f"QP       objective = {qp.objective:.6f}")
