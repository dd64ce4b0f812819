"""Every kernel-equality test file also passes with ``NUMBA_DISABLE_JIT=1`` (plain Python).

The kernels must be plain Python that numba compiles, not code that only works compiled: the
files ``tests/test_*kernel*.py`` (kernel vs readable rule, step by step) run again in a
subprocess with the JIT off.
"""

import os
import subprocess
import sys
from pathlib import Path

KERNEL_TESTS = sorted(str(p) for p in Path(__file__).parent.glob("test_*kernel*.py"))


def test_kernel_tests_pass_without_jit():
    assert len(KERNEL_TESTS) >= 2, KERNEL_TESTS  # the PA family's and at least one other
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--no-header",
            *KERNEL_TESTS,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and " failed" not in proc.stdout
