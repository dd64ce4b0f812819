"""
One traced update: SGD-SVM with per-feature learning rates
==========================================================

``SGDSVMClassifier`` (seed 004) trains a linear SVM by stochastic gradient descent on the
hinge loss, with Bottou's global rate ``1/(lam (t + t0))`` or the seed's per-feature rates,
which give a rare feature a larger step.  The trace of each step keeps the margin, whether
the hinge was active and every feature's learning rate.
"""

import numpy as np

from olearn.core.sgd_svm import sgd_init, sgd_step
from olearn.trace import to_frame

# %%
# A stream where feature 0 is frequent and feature 2 rare
# -------------------------------------------------------
rng = np.random.default_rng(0)
X = np.zeros((12, 3))
X[:, 0] = 1.0
X[:, 1] = rng.normal(size=12)
X[::6, 2] = 1.0
y = np.where(X[:, 1] > 0, 1.0, -1.0)

# %%
# The same stream under both schedules
# ------------------------------------
frames = {}
for schedule in ("global", "per-feature"):
    state, traces = sgd_init(3), []
    for xi, yi in zip(X, y):
        state, trace = sgd_step(state, xi, yi, lam=0.01, t0=10.0, schedule=schedule)
        traces.append(trace)
    frames[schedule] = to_frame(traces)

frames["global"][["t", "y", "margin", "loss", "hinge_active", "eta"]].head(7)

# %%
# With per-feature rates the rare feature keeps a large step while the frequent one decays.
frames["per-feature"][["t", "hinge_active", "eta", "counts_before"]].head(7)
