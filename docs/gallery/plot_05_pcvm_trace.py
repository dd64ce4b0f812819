"""
One traced update: PCVM's EM iterations
=======================================

The probabilistic classification vector machine (seed 002) is a sparse Bayesian kernel
classifier fitted by EM.  Each iteration's trace holds gamma (the learned noise precision),
the E-step expectations, the objective and the number of weights still non-zero after
pruning.
"""

import numpy as np
import plotly.graph_objects as go

from olearn.core.pcvm import PCVMConfig, pcvm_fit
from olearn.datasets import load
from olearn.trace import to_frame

# %%
# A two-class toy set and its basis
# ---------------------------------
ds = load("toy-moons", n_samples=80, random_state=0)
t = np.where(ds.y == 1, 1.0, -1.0)
# The RBF basis on the training points, ``Phi[i, j] = exp(-theta^2 ||x_i - x_j||^2)`` (the
# seed's Eq. 8 with the points themselves as centres).
theta = 0.7
sq_dist = ((ds.X[:, None, :] - ds.X[None, :, :]) ** 2).sum(axis=-1)
Phi = np.exp(-(theta**2) * sq_dist)

# %%
# EM with a learned gamma, traced
# -------------------------------
state, history, n_iter = pcvm_fit(Phi, t, PCVMConfig(lam=100.0), trace=True, random_state=0)
frame = to_frame(history)
frame[["iteration", "gamma", "b", "objective", "n_nonzero", "train_error"]].tail(8)

# %%
# Fewer relevance vectors with every iteration
# --------------------------------------------
fig = go.Figure(go.Scatter(x=frame["iteration"], y=frame["n_nonzero"], mode="lines+markers"))
fig.update_layout(
    xaxis_title="EM iteration", yaxis_title="non-zero weights", xaxis_type="log", height=380
)
fig.show()
