"""Outcome counts of the fuzz suites (tests/test_fuzz_*.py): inputs tried -> outcome.

Each fuzz test calls :func:`record` once per generated input.  ``python -m tests.fuzz_report``
runs the suites in-process and prints the table.
"""

from __future__ import annotations

from collections import Counter

import hypothesis

COUNTS: Counter = Counter()

# Reproducible in CI: the same examples on every run; no per-example deadline (2 shared cores).
FUZZ = hypothesis.settings(
    derandomize=True,
    deadline=None,
    suppress_health_check=[hypothesis.HealthCheck.too_slow, hypothesis.HealthCheck.data_too_large],
    database=None,
)


def record(suite: str, outcome: str) -> None:
    """Count one input of ``suite`` that ended in ``outcome``."""
    COUNTS[suite, outcome] += 1
