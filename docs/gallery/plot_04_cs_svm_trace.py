"""
One traced update: the Crammer-Singer SVM sub-problem
=====================================================

``CrammerSingerSVC`` solves the dual of the Crammer-Singer multiclass SVM (seed 003) one
example at a time: each step is one exact sub-problem over that example's dual variables
``alpha`` (a sort).  The trace shows the sub-problem and also the paper's fixed-point
iteration, which reaches the same answer.
"""

import numpy as np

from olearn.core.cs_svm import cs_step, cs_svm_solve
from olearn.datasets import load
from olearn.trace import to_frame

# %%
# One sub-problem from zero
# -------------------------
# From ``W = 0`` a sub-problem is a SPA step (the README's "from zero, one sub-problem is a
# SPA step").
W = np.zeros((3, 2))
x, y = np.array([1.0, 0.5]), 0
W_new, trace = cs_step(W, x, y, C=1.0)
to_frame([trace])[["y", "C", "A", "B", "alpha_after", "support_classes", "dual_objective"]]

# %%
# The paper's fixed-point iteration: theta per iteration until it stops moving.
trace.fixed_point.thetas

# %%
# A whole solve, traced
# ---------------------
# Sweeps of sub-problems on a small 2-D toy set until the largest KKT violation is below tol;
# every step's trace is kept.
ds = load("toy-blobs", n_samples=60, random_state=0)
solution = cs_svm_solve(ds.X, ds.y, C=1.0, trace_steps=True)
steps = to_frame(solution.steps)
print(f"{len(steps)} sub-problems, converged: {solution.converged}")
steps[["p", "y", "violation", "support_classes", "dual_objective", "skipped"]].head(10)
