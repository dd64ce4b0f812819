"""Vowpal Wabbit ``--oaa K`` driven in-process through its own cache (PyPI ``vowpalwabbit``).

Untimed preparation writes the training rows in VW's text format and lets VW build its
binary cache.  The timed pass is ``Workspace("--oaa K --cache_file ... --passes 1")`` +
``run_parser()`` (VW's own C++ loop reading its cache, no Python per example); an "empty run"
``--oaa K --noop`` over the same cache measures the fixed cost (start-up, reading and
decoding the cache), and the reported pass time is the difference of the two medians.
Features keep their column index as name, so VW's hash is the identity on them; ``-b`` bits
cover ``d`` (>= 18, <= 22).  VW's defaults otherwise (adaptive, normalized, invariant
updates, squared loss).
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import numpy as np
import scipy.sparse as sp


def available() -> tuple[bool, str]:
    """Whether ``vowpalwabbit`` imports here (and its version or the reason it does not)."""
    try:
        import vowpalwabbit
    except ImportError as err:
        return False, f"vowpalwabbit not installed ({err})"
    return True, getattr(vowpalwabbit, "__version__", "?")


def vw_lines(X, y) -> list[str]:
    """VW text lines ``"<y+1> |f j:v j:v ..."`` (labels 1..K, column index as feature name).

    Examples
    --------
    >>> vw_lines(np.array([[0.0, 2.5], [1.0, 0.0]]), np.array([1, 0]))
    ['2 |f 1:2.5', '1 |f 0:1']
    """
    X = sp.csr_matrix(X)
    lines = []
    for i in range(X.shape[0]):
        lo, hi = X.indptr[i], X.indptr[i + 1]
        feats = " ".join(
            f"{j}:{v:.17g}" for j, v in zip(X.indices[lo:hi].tolist(), X.data[lo:hi].tolist())
        )
        lines.append(f"{int(y[i]) + 1} |f {feats}")
    return lines


class VWOaa:
    """One dataset prepared for VW: text files and cache in a temporary folder."""

    def __init__(self, X, y, X_test, y_test, n_classes: int):
        import vowpalwabbit

        self._vw = vowpalwabbit
        self._tmp = tempfile.TemporaryDirectory(prefix="olearn-bench-vw-")
        folder = Path(self._tmp.name)
        self.train, self.test = folder / "train.vw", folder / "test.vw"
        self.cache, self.model = folder / "train.cache", folder / "model.vw"
        self.train.write_text("\n".join(vw_lines(X, y)) + "\n")
        self.test.write_text("\n".join(vw_lines(X_test, y_test)) + "\n")
        self.y_test = np.asarray(y_test)
        bits = min(22, max(18, math.ceil(math.log2(max(X.shape[1], 2)))))
        self.args = f"--oaa {n_classes} -b {bits} --quiet"
        self._run(f"-d {self.train} -c --cache_file {self.cache} -k --noop")  # build the cache

    def _run(self, extra: str) -> float:
        ws = self._vw.Workspace(f"{self.args} {extra}")
        ws.run_parser()
        seen = ws.get_weighted_examples()
        ws.finish()
        return seen

    def epoch(self) -> float:
        """One learning pass over the cache (timed)."""
        return self._run(f"--cache_file {self.cache} --passes 1")

    def empty(self) -> float:
        """The same run without learning (``--noop``): start-up plus reading the cache."""
        return self._run(f"--cache_file {self.cache} --noop")

    def test_error(self) -> float:
        """Test error after one pass (model trained and applied untimed)."""
        self._run(f"--cache_file {self.cache} --passes 1 -f {self.model}")
        preds = Path(self._tmp.name) / "preds.txt"
        ws = self._vw.Workspace(f"-i {self.model} -t -d {self.test} -p {preds} --quiet")
        ws.run_parser()
        ws.finish()
        predicted = np.loadtxt(preds, ndmin=1).astype(np.int64) - 1
        return float(np.mean(predicted != self.y_test))

    def peak_memory(self) -> dict:
        """Peak memory of one learning pass, in MB: a fresh interpreter's peak resident set
        (``VmHWM``) running the pass, minus that of one that only imports
        ``vowpalwabbit`` (VW allocates natively, which :mod:`tracemalloc` cannot see; its
        weight table is allocated when the workspace starts, so it is included)."""
        import subprocess
        import sys

        # VmHWM, not ru_maxrss: Linux carries ru_maxrss over fork + exec from this (large)
        # process, so both probes would report our own peak
        probe = (
            "import re, sys, vowpalwabbit\n"
            "if sys.argv[1]:\n"
            "    ws = vowpalwabbit.Workspace(sys.argv[1]); ws.run_parser(); ws.finish()\n"
            "print(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read())[1])"
        )
        peaks = []
        for args in (f"{self.args} --cache_file {self.cache} --passes 1", ""):
            out = subprocess.run(
                [sys.executable, "-c", probe, args],
                capture_output=True,
                text=True,
                timeout=600,
                check=True,
            )
            peaks.append(int(out.stdout.split()[-1]))  # kB on Linux
        return {"traced_mb": max(peaks[0] - peaks[1], 0) / 1024.0, "method": "VmHWM"}

    def close(self) -> None:
        self._tmp.cleanup()
