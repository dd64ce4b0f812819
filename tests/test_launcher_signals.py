"""``olearn app --workers N`` stopped by a signal at each phase of its start (issue 30, item 3).

A SIGTERM that landed while a worker was being forked was raised by the launcher's handler
inside CPython's at-fork callback, printed as "Exception ignored" and dropped: the launcher went
on to start nginx and serve (systemd's stop then waited for SIGKILL).  Each case here runs the
real command with stand-in workers (:mod:`tests.launcher_harness`), sends SIGTERM from inside
the launcher at one moment of its start, and checks that it stops promptly with status 0,
leaving no process, no file and nothing on the port, and says no error.  The fuzz over signals,
moments and worker counts: tests/test_fuzz_launcher.py.
"""

from __future__ import annotations

import os

import pytest

from tests import launcher_harness

pytestmark = pytest.mark.skipif(
    not os.path.isdir("/proc") or not os.path.exists("/usr/sbin/nginx"),
    reason="Linux with nginx (apt-get install nginx): the launcher's processes are read in /proc",
)

WORKERS = 2
PHASES = [
    "find_proxy",
    "static",
    *(f"fork:{k}" for k in range(WORKERS + 1)),  # k = WORKERS: nginx
    *(f"forked:{k}" for k in range(WORKERS + 1)),
    *(f"started:{k}" for k in range(WORKERS + 1)),
    *(f"health:{k}" for k in range(WORKERS + 1)),
    "config",
    "serving",
]


@pytest.mark.parametrize("phase", PHASES)
def test_sigterm_at_each_phase_of_the_start_stops_everything(tmp_path, phase):
    out = launcher_harness.run(tmp_path, phase, ["SIGTERM"], workers=WORKERS)
    assert out.status is not None, f"still running {launcher_harness.TIMEOUT} s after SIGTERM"
    assert out.clean, out
    assert out.seconds < 10, out.seconds
