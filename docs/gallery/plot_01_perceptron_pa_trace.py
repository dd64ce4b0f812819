"""
One traced update: Perceptron and Passive-Aggressive
====================================================

Every algorithm of olearn has a readable rule, a pure function
``step(W, x, y, **hyper) -> (W_new, trace)`` that never changes its input and returns a
frozen *trace* of what a lecturer would point at.  Here: one multiclass example, three
classes, and the Perceptron, PA, PA-I and PA-II steps on it, with the traces as one
DataFrame (:func:`olearn.trace.to_frame`).
"""

import numpy as np
import plotly.graph_objects as go

from olearn.core.pa import pa_step, perceptron_step
from olearn.trace import to_frame

# %%
# The state and the example
# -------------------------
# One weight row per class; the example ``x`` belongs to class 0, but class 1 scores higher.
W = np.array([[0.0, 0.0], [1.5, 0.5], [0.5, 1.0]])
x = np.array([1.0, 0.5])
y = 0
print("scores w_u . x:", W @ x)

# %%
# Four steps, four traces
# -----------------------
# The Perceptron adds ``x`` to the true class and subtracts it from the best wrong class (the
# *rival*).  PA takes the smallest step that gives the true class a margin of 1 over the
# rival: ``tau = loss / (2 ||x||^2)`` for one rival (both rows move).  PA-I caps tau at C;
# PA-II shrinks it by ``1/(2C)``.
steps = {
    "Perceptron": perceptron_step(W, x, y),
    "PA": pa_step(W, x, y),
    "PA-I (C=0.1)": pa_step(W, x, y, variant="I", C=0.1),
    "PA-II (C=0.1)": pa_step(W, x, y, variant="II", C=0.1),
}
frame = to_frame([trace for _, trace in steps.values()])
frame.insert(0, "rule", list(steps))
frame[["rule", "rival", "loss", "tau", "cap_binds", "scores_after", "correct_after"]]

# %%
# The input is unchanged (the rules are pure); each result is a new array.
assert np.array_equal(W, np.array([[0.0, 0.0], [1.5, 0.5], [0.5, 1.0]]))
for name, (W_new, _) in steps.items():
    print(f"{name:14s} W_new = {W_new.round(3).tolist()}")

# %%
# Scores before and after
# -----------------------
# After the hard PA step the true class beats the rival by exactly 1; the capped steps move
# less.
fig = go.Figure()
fig.add_bar(name="before", x=[f"class {u}" for u in range(3)], y=W @ x)
for name, (W_new, _) in steps.items():
    fig.add_bar(name=name, x=[f"class {u}" for u in range(3)], y=W_new @ x)
fig.update_layout(
    barmode="group", yaxis_title="score w_u . x", title="One update, x of class 0", height=420
)
fig.show()
