"""This tree's CW-family kernel against another copy of ``olearn/kernels/cw.py``, in one run.

``python -m benchmarks.cw_kernel_ratio REFERENCE_KERNEL_FILE`` (e.g. a copy of main's
``olearn/kernels/cw.py``) times ``cw_epoch`` of both on the same sparse stream (n = 4000,
d = 20000, 0.5 % dense, diagonal covariance, 3 passes), reference and ours alternating 15 times,
and prints the median times and ours / reference.  It checks that both end in the same means,
bit for bit.  Use it when the kernel's plain path is edited ("a new feature must not slow the
plain path").  The reference imports its closed forms from this tree's ``olearn``: it must be
a version whose imports still exist here.  Set ``NUMBA_CACHE_DIR`` to a scratch folder: numba
caches the reference's compiled code next to the file otherwise.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time

import numpy as np
import scipy.sparse as sp

from olearn.kernels import cw as ours
from olearn.kernels.sparse import csr_rows

CASES = (  # (K, rule code, label); codes from olearn.kernels.cw
    (2, ours.AROW, "AROW K=2 (mirrored pass)"),
    (8, ours.AROW, "AROW K=8"),
    (8, ours.SCW1, "SCW-I K=8"),
)


def _epochs(module, rows, y, K, rule) -> tuple[float, np.ndarray]:
    W, S = np.zeros((20000, K)), np.ones(20000)
    no = np.zeros(0)
    start = time.perf_counter()
    for _ in range(3):
        module.cw_epoch(
            rows, y, np.arange(y.size), W, S, np.zeros((0, 0)), rule, no, no, no.astype(bool)
        )
    return time.perf_counter() - start, W


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reference", help="a copy of olearn/kernels/cw.py to compare against")
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args(argv)
    spec = importlib.util.spec_from_file_location("reference_cw_kernel", args.reference)
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)
    rng = np.random.default_rng(0)
    rows = csr_rows(sp.random(4000, 20000, density=0.005, random_state=0, format="csr"))
    for K, code, label in CASES:
        y = rng.integers(K, size=4000).astype(np.int64)
        rule = (code, 0.5244, 1.0, 1.0, 1.0, ours.DIAG_PRECISION)  # (code, phi, r, C, lam, diag)
        _epochs(reference, rows, y, K, rule), _epochs(ours, rows, y, K, rule)  # compile
        t_ref, t_ours = [], []
        for _ in range(args.repeats):
            a, W_ref = _epochs(reference, rows, y, K, rule)
            b, W_ours = _epochs(ours, rows, y, K, rule)
            t_ref.append(a)
            t_ours.append(b)
        assert np.array_equal(W_ref, W_ours), "the two kernels disagree"
        r, o = statistics.median(t_ref), statistics.median(t_ours)
        print(f"{label}: reference {r * 1e3:.1f} ms, ours {o * 1e3:.1f} ms, ours/ref {o / r:.3f}")


if __name__ == "__main__":
    main()
