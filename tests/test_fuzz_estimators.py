"""The estimator fuzz suite (``tests/fuzz_estimators.py``) in a child process: every one of
its cases ends in a correct result or a documented exception, and nothing crashes."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_estimator_fuzz_suite_in_a_child_process():
    proc = subprocess.run(
        [sys.executable, "-m", "tests.fuzz_estimators", "300"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, (
        f"exit {proc.returncode}\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
    )
    counts = json.loads(proc.stdout.strip().splitlines()[-1])
    assert sum(counts.values()) >= 300
    assert any(k.endswith("-> ok") for k in counts)  # correct results happen
    assert any(k.endswith("-> ValueError") for k in counts)  # and documented refusals
