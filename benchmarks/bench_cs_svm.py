"""CrammerSingerSVC vs LIBLINEAR (LinearSVC crammer_singer): fit time at the same tol, and the
primal objectives of both computed by one function from coef_/intercept_.

Usage: OLEARN_DATA=/work/shared/data python bench_cs_svm.py DATASET C TOL [REPEATS]
The two fits alternate REPEATS times in one process; the best time of each is reported.
"""

import sys
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC

import olearn.datasets as datasets
from olearn.core.cs_svm import objective_from_coef
from olearn.estimators.cs_svm import CrammerSingerSVC

warnings.simplefilter("ignore", ConvergenceWarning)
name, C, tol = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
repeats = int(sys.argv[4]) if len(sys.argv) > 4 else 3
CrammerSingerSVC(max_iter=2).fit(np.eye(3), [0, 1, 2])  # compile / load the numba cache
ds = datasets.load(name)
X, y = ds.X, ds.y
y_idx = np.unique(y, return_inverse=True)[1]
t_ours, t_lin = [], []
for _ in range(repeats):
    t = time.perf_counter()
    ours = CrammerSingerSVC(C=C, tol=tol, max_iter=100000, random_state=0).fit(X, y)
    t_ours.append(time.perf_counter() - t)
    t = time.perf_counter()
    lin = LinearSVC(
        multi_class="crammer_singer", C=C, tol=tol, max_iter=100000, random_state=0
    ).fit(X, y)
    t_lin.append(time.perf_counter() - t)
Po = objective_from_coef(ours.coef_, ours.intercept_, X, y_idx, C)
Pl = objective_from_coef(lin.coef_, lin.intercept_, X, y_idx, C)
agree = np.mean(ours.predict(X) == lin.predict(X))
print(
    f"{name:11s} C={C:<6g} tol={tol:<7g} ours {min(t_ours):7.3f}s ({ours.n_iter_} sweeps)  "
    f"liblinear {min(t_lin):7.3f}s ({lin.n_iter_} iters)  ratio {min(t_ours) / min(t_lin):5.2f}  "
    f"P ours {Po:.6f}  P liblinear {Pl:.6f}  rel {(Po - Pl) / Pl:+.1e}  same pred {agree:.4f}",
    flush=True,
)
