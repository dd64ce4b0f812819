"""
Comparison on a real dataset: scikit-learn's digits
===================================================

Every online learner of olearn against scikit-learn's ``Perceptron`` and
``PassiveAggressiveClassifier`` on the 8x8 digits (1,797 images, 10 classes, embedded in
scikit-learn: nothing to download).  Rows scaled to unit length, five epochs, the same split.
"""

import time
import warnings

import pandas as pd
import plotly.express as px
from sklearn.datasets import load_digits
from sklearn.linear_model import PassiveAggressiveClassifier, Perceptron
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import normalize

from olearn.estimators import (
    AROWClassifier,
    PAClassifier,
    PerceptronClassifier,
    SCWClassifier,
    SPAClassifier,
)

X, y = load_digits(return_X_y=True)
X = normalize(X)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)

# %%
# Fit, score, time
# ----------------
# The first fit of each family compiles its numba kernel (cached on disk afterwards), so
# each model is fitted twice and the second time is reported.
# scikit-learn 1.8 deprecates ``PassiveAggressiveClassifier`` (kept here as the reference
# most readers know).
warnings.filterwarnings("ignore", message=".*PassiveAggressiveClassifier", category=FutureWarning)
models = {
    "Perceptron": PerceptronClassifier(random_state=0),
    "PA": PAClassifier(random_state=0),
    "PA-II (C=0.1)": PAClassifier(variant="II", C=0.1, random_state=0),
    "SPA": SPAClassifier(random_state=0),
    "SPA-II (C=0.1)": SPAClassifier(variant="II", C=0.1, random_state=0),
    "AROW (r=1)": AROWClassifier(r=1.0, random_state=0),
    "SCW-I (C=1)": SCWClassifier(variant="I", C=1.0, random_state=0),
    "sklearn Perceptron": Perceptron(max_iter=5, tol=None, random_state=0),
    "sklearn PA-I": PassiveAggressiveClassifier(max_iter=5, tol=None, random_state=0),
}
rows = []
for name, model in models.items():
    model.fit(X_train, y_train)  # warm-up (kernel compilation)
    start = time.perf_counter()
    model.fit(X_train, y_train)
    seconds = time.perf_counter() - start
    rows.append(
        {
            "learner": name,
            "test error (%)": 100 * (1 - model.score(X_test, y_test)),
            "fit (ms)": 1000 * seconds,
        }
    )
table = pd.DataFrame(rows).round(2)
table

# %%
# Test error per learner
# ----------------------
# scikit-learn's ``PassiveAggressiveClassifier`` is one-vs-rest (one binary PA per class);
# olearn's PA and SPA are truly multiclass (one weight row per class, one joint update).
fig = px.bar(table, x="learner", y="test error (%)", text="test error (%)", height=420)
fig.update_layout(xaxis_title="", title="digits, 70/30 split, 5 epochs")
fig.show()
