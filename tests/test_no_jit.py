"""Every kernel-equality test also passes with ``NUMBA_DISABLE_JIT=1`` (plain Python).

The kernels must be plain Python that numba compiles, not code that only works compiled: the
tests marked ``kernel_equality`` (kernel vs readable rule, wherever they live) run again in a
subprocess with the JIT off, selected by the marker, not by file name.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
# each kernel module must be covered by at least one marked test in one of these files
EXPECTED_FILES = {
    "additive": "test_kernels_additive.py",
    "cw": "test_cw_kernels.py",
    "cs_svm": "test_cs_svm_kernel.py",
    "sgd_svm": "test_sgd_svm_rules.py",
    "registry": "test_registry_estimators.py",
}


def _pytest(*args, basetemp: Path, env=None):
    """pytest in a subprocess; its tmp_path folders under ``basetemp`` (inside this test's own,
    so nothing is left in $TMPDIR)."""
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--no-header"]
    cmd += ["--basetemp", str(basetemp), *args]
    return subprocess.run(
        cmd, env=env, capture_output=True, text=True, timeout=1500, cwd=TESTS.parent
    )


@pytest.mark.slow
def test_kernel_tests_pass_without_jit(tmp_path):
    listed = _pytest(
        "-q", "--collect-only", "-m", "kernel_equality", str(TESTS), basetemp=tmp_path / "list"
    )
    assert listed.returncode == 0, listed.stdout[-2000:]
    for kernel, name in EXPECTED_FILES.items():
        assert name in listed.stdout, f"no kernel_equality test for {kernel} in {name}"
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    proc = _pytest("-q", "-m", "kernel_equality", str(TESTS), basetemp=tmp_path / "run", env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and " failed" not in proc.stdout
