"""Issue 32, item 1: the first result in seconds.

A first ``fit`` from an empty numba cache compiles what it runs and nothing more: its own
rule's kernel (the rule's code is fixed by its type, :mod:`olearn.kernels.codes`), not the
two-class pass for more classes, one kernel for rows with and without an intercept.  A compile
that still takes time says so once on stderr (:mod:`olearn._jit`); ``olearn reproduce``
reports a missing archive before compiling anything.  That the results are bit for bit those
of the one kernel every rule shared before is checked by the kernel-equality tests
(``tests/test_kernels_additive.py``, ``tests/test_cw_kernels.py``) and was checked over 3,024
configurations when the kernels were split (CHANGELOG); the seconds are in
``benchmarks/first_fit.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numba
import numpy as np
import scipy.sparse as sp

from olearn import _jit
from olearn.kernels.additive import kernel_rule
from olearn.kernels.codes import SPA2
from olearn.kernels.pa import argmax
from olearn.kernels.sparse import csr_rows

ROOT = Path(__file__).resolve().parents[1]

FIT = """
import json
from sklearn.datasets import load_digits
from olearn.estimators import AROWClassifier, PAClassifier
from olearn.kernels import additive, cw
X, y = load_digits(return_X_y=True)
pa = PAClassifier(random_state=0).fit(X[:300], y[:300])
AROWClassifier(random_state=0).fit(X[:300], y[:300])
print(json.dumps({
    "pa_code": pa._code(),
    "additive": [[type(t).__name__ + ":" + str(t) for t in sig]
                 for sig in additive._general_pass.signatures],
    "additive_two_class": len(additive._mirrored_pass.signatures),
    "cw": [[str(t) for t in sig] for sig in cw._general_pass.signatures],
    "cw_two_class": len(cw._mirrored_diagonal_pass.signatures),
}))
"""


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(NUMBA_CACHE_DIR=str(tmp_path / "numba"), PYTHONPATH=str(ROOT), **extra)
    return env


def test_a_first_fit_compiles_its_own_rule_only(tmp_path):
    """From an empty cache, PA-I and AROW on digits (10 classes) compile one general pass
    each, for their own rule's type (whose code numba compiles as a constant), no two-class
    pass, and AROW's without the full covariance's code (``A_full`` None)."""
    proc = subprocess.run(
        [sys.executable, "-c", FIT],
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    rules = {t for sig in out["additive"] for t in sig if "AdditiveRule" in t}
    assert len(out["additive"]) == 1 and len(rules) == 1, out["additive"]
    assert f"AdditiveRule{out['pa_code']}(" in rules.pop()
    assert out["additive_two_class"] == 0
    (sig,) = out["cw"]
    assert any(t.startswith("CWRule2(") for t in sig), sig  # AROW's code
    assert sig[5] == "none"  # A_full: the diagonal covariance's code only
    assert out["cw_two_class"] == 0


def test_rows_with_and_without_an_intercept_are_one_type():
    """The intercept's block is empty without one, so each kernel compiles once for both
    (River's one-row batches too)."""
    X = np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 4.0]])
    types = {
        numba.typeof(csr_rows(data, intercept_scaling=s))
        for data in (X, sp.csr_matrix(X), X[:1])
        for s in (0.0, 1.0)
    }
    assert len(types) == 1
    assert [block[0].tolist() for block in csr_rows(X)] == [[0, 1, 2, 4], [0, 0, 0, 0]]


def test_argmax_is_numpys():
    """The kernels' own argmax (numba's generic one compiled slowly): numpy's answer, on
    ties (the first) and NaN (the first NaN) too."""
    rng = np.random.default_rng(0)
    cases = [rng.integers(0, 3, size=rng.integers(1, 8)).astype(float) for _ in range(200)]
    cases += [np.array([1.0, np.nan, 2.0, np.nan]), np.array([np.nan, 5.0]), np.array([-np.inf])]
    for scores in cases:
        assert argmax(scores) == np.argmax(scores), scores


class _Dispatcher:
    """What :func:`olearn._jit._guard` uses of a numba dispatcher, with a compile that takes
    ``seconds``."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.overloads: dict = {}
        self.py_func = argmax.py_func if hasattr(argmax, "py_func") else argmax
        self.stats = SimpleNamespace(cache_path="/the/cache")

    def compile(self, sig):
        time.sleep(self.seconds)
        return "entry point"


def _compile(monkeypatch, seconds: float, sig, times: int = 1, quiet: bool = False) -> None:
    monkeypatch.setattr(_jit, "SLOW_COMPILE", 0.05)
    monkeypatch.setattr(_jit, "_said", set())
    fake = _Dispatcher(seconds)
    _jit._guard(fake)
    for _ in range(times):
        if quiet:
            with _jit.quiet():
                assert fake.compile(sig) == "entry point"
        else:
            assert fake.compile(sig) == "entry point"


def test_a_slow_compile_says_what_where_once(monkeypatch, capsys):
    sig = (numba.typeof(kernel_rule(SPA2, 1.0, 10)), numba.float64)
    _compile(monkeypatch, 0.5, sig, times=2)  # the same kernel twice: one line
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("olearn: compiling the SPA-II kernel for this kind of input")
    assert "a few seconds" in err and "cached in /the/cache" in err
    _compile(monkeypatch, 0.5, (numba.float64,))  # no rule: the function's name
    assert "compiling olearn.kernels.pa.argmax" in capsys.readouterr().err


def test_a_quick_or_quiet_compile_says_nothing(monkeypatch, capsys):
    sig = (numba.typeof(kernel_rule(SPA2, 1.0, 10)),)
    _compile(monkeypatch, 0.0, sig)  # a cache load: milliseconds
    _compile(monkeypatch, 0.5, sig, quiet=True)  # the warm-up's own compiles
    time.sleep(0.2)  # a timer left running would speak now
    assert capsys.readouterr().err == ""


def test_reproduce_reports_a_missing_archive_before_compiling(tmp_path):
    """Issue 32: ``olearn reproduce pcvm-lambda --quick`` without its archive compiled every
    kernel (45 s) before saying the archive was missing: the command's warm-up ran first.  The
    download fails at once here (a proxy that refuses), with the warm-up on as for a user."""
    refused = "http://127.0.0.1:9"
    env = _env(tmp_path, OLEARN_DATA=str(tmp_path / "data"), OLEARN_WARMUP="1")
    env.update(http_proxy=refused, https_proxy=refused, HTTP_PROXY=refused, HTTPS_PROXY=refused)
    for key in ("no_proxy", "NO_PROXY"):
        env.pop(key, None)
    cmd = [sys.executable, "-m", "olearn", "reproduce", "pcvm-lambda", "--quick"]
    cmd += ["--out", str(tmp_path / "out")]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode != 0
    assert "ldcc-20140209.tar.gz" in proc.stderr and "Traceback" not in proc.stderr
    assert not list((tmp_path / "numba").rglob("*.nb*"))  # nothing compiled, nothing cached
