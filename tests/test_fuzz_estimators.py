"""The estimator fuzz suites (``tests/fuzz_estimators.py``) in a child process: every one of
their cases ends in a correct result or a documented exception, and nothing crashes (a heap
corruption's abort, issue 22.1, fails this test instead of killing the run)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_estimator_fuzz_suite_in_a_child_process():
    proc = subprocess.run(
        [sys.executable, "-m", "tests.fuzz_estimators", "300", "300"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, (
        f"exit {proc.returncode}\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
    )
    counts = json.loads(proc.stdout.strip().splitlines()[-1])
    inputs = {k: v for k, v in counts.items() if not k.startswith("stream")}
    assert sum(inputs.values()) >= 300
    assert any(k.endswith("-> ok") for k in inputs)  # correct results happen
    assert any(k.endswith("-> ValueError") for k in inputs)  # and documented refusals
    # set_params at random points of 300 streams over every registry estimator: a parameter
    # the state was built for is refused (partial_fit and predict), the rest goes on
    assert sum(v for k, v in counts.items() if k.startswith("stream set_params")) >= 300
    assert counts["stream learn -> refused: state parameter"] > 0
    assert counts["stream predict -> refused: state parameter"] > 0
    assert counts["stream learn -> ok"] > counts["stream learn -> refused: state parameter"]
