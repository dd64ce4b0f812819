"""
One traced update: CW, AROW, SCW-I and SCW-II
=============================================

The confidence-weighted family (seed 001) keeps a Gaussian ``N(mu, Sigma)`` over the weights.
One step needs three numbers of the example: the margin ``m = y mu.x``, its variance
``v = x' Sigma x`` and ``phi = Phi^{-1}(eta)``; the step moves the mean by
``alpha Sigma x`` and shrinks the covariance by ``beta Sigma x x' Sigma``.  The traces keep
m, v, alpha, beta and the covariance before and after.
"""

import numpy as np

from olearn.core.cw import arow_step, cw_init, cw_step, scw_step
from olearn.trace import to_frame

# %%
# A binary state with a full covariance
# -------------------------------------
# The prior ``N(0, I)``, one example learned first so the covariance is no longer round.
state = cw_init(2, covariance="full")
state, _ = arow_step(state, np.array([1.0, 0.2]), 1, r=1.0)
x, y = np.array([0.3, 1.0]), -1

rules = {
    "CW (eta=0.9)": cw_step(state, x, y, eta=0.9),
    "AROW (r=1)": arow_step(state, x, y, r=1.0),
    "SCW-I (C=0.5)": scw_step(state, x, y, variant="I", C=0.5, eta=0.9),
    "SCW-II (C=0.5)": scw_step(state, x, y, variant="II", C=0.5, eta=0.9),
}
frame = to_frame([trace for _, trace in rules.values()])
frame.insert(0, "name", list(rules))
frame[["name", "m", "v", "loss", "alpha", "beta", "cap_binds", "m_after", "v_after"]]

# %%
# After a CW step the probability of the right sign is exactly eta
# ----------------------------------------------------------------
print("CW: Pr[correct] after =", round(rules["CW (eta=0.9)"][1].prob_after, 6))

# %%
# The covariance shrinks along x, never grows
# -------------------------------------------
for name, (_, trace) in rules.items():
    before, after = np.asarray(trace.Sigma_before), np.asarray(trace.Sigma_after)
    print(f"{name:15s} x'Sigma x: {x @ before @ x:.4f} -> {x @ after @ x:.4f}")
