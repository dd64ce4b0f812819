"""Fuzzing ``olearn app --workers N``'s stop signals over its start (issue 30, "Done when").

Each input: a worker count (1-3), a moment (one of the launcher's own steps, tried from inside
it, see tests/launcher_harness.py; once it serves; or from outside, any time up to 2.5 s after
the command started) and one to three signals (SIGTERM, SIGINT, in any order) sent at that
moment, drawn from a seeded generator: every kind of moment twice, the same inputs on every
run (each case's id says it).  Every input must end in a clean stop: promptly, with the
launcher's status (0; a signal from outside may come before it has set its handlers, when
nothing is started yet: then SIGTERM's default end, or the CLI's "interrupted"), no process,
no file and nothing on the port left, and no "Exception ignored", traceback or "unexpected
error" on the console.  From outside only SIGTERM is sent: a SIGINT landing while Python
imports the CLI, before olearn runs, is Python's own KeyboardInterrupt.
``python -m tests.fuzz_report`` prints the outcome counts.
"""

from __future__ import annotations

import os
import random

import pytest

from tests import launcher_harness
from tests.fuzz_support import record

pytestmark = pytest.mark.skipif(
    not os.path.isdir("/proc") or not os.path.exists("/usr/sbin/nginx"),
    reason="Linux with nginx (apt-get install nginx): the launcher's processes are read in /proc",
)

SEED = 30  # issue 30
# the launcher's steps (k: the k-th process started, the workers then nginx), then once it
# serves, then from outside at any time
KINDS = ("find_proxy", "static", "config", "fork", "forked", "started", "health")
KINDS += ("serving", "after")
PER_KIND = 2


def _cases(seed: int) -> list[tuple[int, str, list[str]]]:
    rng = random.Random(seed)
    cases = []
    for kind in KINDS * PER_KIND:
        workers = rng.randint(1, 3)
        count = rng.randint(1, 3)
        if kind == "after":
            cases.append((workers, f"after:{rng.uniform(0, 2.5):.2f}", ["SIGTERM"] * count))
            continue
        phase = f"{kind}:{rng.randint(0, workers)}" if kind in KINDS[3:7] else kind
        cases.append((workers, phase, [rng.choice(("SIGTERM", "SIGINT")) for _ in range(count)]))
    return cases


CASES = _cases(SEED)


@pytest.mark.parametrize(
    ("workers", "phase", "signals"),
    CASES,
    ids=[f"{w}w-{phase}-{'+'.join(s[3:] for s in signals)}" for w, phase, signals in CASES],
)
def test_every_stop_signal_at_every_moment_of_the_start_stops_cleanly(
    tmp_path, workers, phase, signals
):
    out = launcher_harness.run(tmp_path, phase, signals, workers)
    assert out.status is not None, f"still running {launcher_harness.TIMEOUT} s after {signals}"
    assert out.clean, out
    assert out.seconds < 10, out.seconds
    record("launcher signals", "stopped, 0" if out.status == 0 else f"ended first, {out.status}")
