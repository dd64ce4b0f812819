"""Fixtures shared across test files, and the suite's own leftover report.

No test may leave a process or a temporary file behind (``.ci/run`` fails if one does, see
``tests/leftovers.py``).  Two helpers here: Dask's scratch folder goes under pytest's
temporary folder, and at the end of a run the processes started by the suite that are still
alive are listed (``.ci/run``'s check is the one that fails the build).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from tests.browser_support import page, server  # noqa: F401  (fixtures for the browser tests)

_LEFT: list[str] = []

# No background kernel warm-up (olearn._warmup) in the test process: every AppTest runs the
# frame, whose first run would start one. tests/test_warmup.py tests it on its own.
os.environ.setdefault("OLEARN_WARMUP", "0")


@pytest.fixture(scope="session", autouse=True)
def _dask_scratch_in_pytest_tmp(tmp_path_factory):
    """A ``LocalCluster`` made by a test writes ``dask-scratch-space`` into ``$TMPDIR`` and
    leaves it there; send it under pytest's basetemp (subprocesses inherit the variable)."""
    folder = str(tmp_path_factory.mktemp("dask-scratch"))
    previous = os.environ.get("DASK_TEMPORARY_DIRECTORY")
    os.environ["DASK_TEMPORARY_DIRECTORY"] = folder
    if "dask.config" in sys.modules:  # already read its environment: tell it too
        sys.modules["dask.config"].set({"temporary-directory": folder})
    yield
    if previous is None:
        os.environ.pop("DASK_TEMPORARY_DIRECTORY", None)
    else:
        os.environ["DASK_TEMPORARY_DIRECTORY"] = previous


def _descendants() -> list[str]:
    """Live processes under this one, except the resource trackers of multiprocessing and
    loky (one per process, they end with it)."""
    from tests import leftovers

    me = os.getpid()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != me:
            pid = int(entry.name)
            if me in leftovers._ancestors(pid) and leftovers._alive(pid):
                text = leftovers._describe(pid)
                if "resource_tracker" not in text:
                    found.append(text)
    return found


def pytest_sessionfinish(session, exitstatus):
    if not Path("/proc").is_dir():
        return
    deadline = time.monotonic() + 3  # processes being stopped by the last teardown
    while (left := _descendants()) and time.monotonic() < deadline:
        time.sleep(0.2)
    _LEFT[:] = left


def pytest_terminal_summary(terminalreporter):
    if _LEFT:
        terminalreporter.section("processes left running by the suite", red=True)
        for line in _LEFT:
            terminalreporter.line(line)
