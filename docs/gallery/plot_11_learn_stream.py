"""
Streaming with ``learn_stream``: the online learning curve
==========================================================

An online learner sees each example once, predicts it, then learns from it.
``learn_stream(X, y)`` is ``partial_fit`` (one update per sample, in order) that also returns,
per sample, whether the model mispredicted it *before* learning from it.  Its running mean is
the online (progressive) error: no held-out set needed.
"""

import numpy as np
import plotly.graph_objects as go
from sklearn.datasets import load_digits
from sklearn.preprocessing import normalize
from sklearn.utils import shuffle

from olearn.estimators import AROWClassifier, PAClassifier, PerceptronClassifier, SPAClassifier

X, y = load_digits(return_X_y=True)
X, y = shuffle(normalize(X), y, random_state=0)
classes = np.unique(y)

# %%
# One pass over the stream per learner
# ------------------------------------
learners = {
    "Perceptron": PerceptronClassifier(),
    "PA": PAClassifier(),
    "SPA": SPAClassifier(),
    "AROW": AROWClassifier(r=1.0),
}
fig = go.Figure()
t = np.arange(1, len(y) + 1)
for name, learner in learners.items():
    mistakes = learner.learn_stream(X, y, classes=classes)
    fig.add_scatter(x=t, y=100 * mistakes.cumsum() / t, mode="lines", name=name)
    print(f"{name:10s} {mistakes.sum():4d} mistakes on {len(y)} examples")
fig.update_layout(
    xaxis_title="examples seen",
    yaxis_title="online error (%)",
    xaxis_type="log",
    height=420,
    title="digits, one pass",
)
fig.show()

# %%
# The stream can also arrive in pieces: two calls equal one
# ---------------------------------------------------------
whole = SPAClassifier().learn_stream(X, y, classes=classes)
parts = SPAClassifier()
first = parts.learn_stream(X[:900], y[:900], classes=classes)
second = parts.learn_stream(X[900:], y[900:])
print("same mistakes:", np.array_equal(whole, np.concatenate([first, second])))
