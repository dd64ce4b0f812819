"""The leftover check of ``.ci/run`` (``tests/leftovers.py``) sees what it must: here, a
process that cleared its environment (as nginx does) but was started on a file in the run's
temporary folder, and its child.  Before, neither carried the run's mark and both were missed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests import leftovers

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")


def _run_folder(tmp_path: Path) -> tuple[Path, Path]:
    """A run's temporary folder and the snapshot that names it (as .ci/run's)."""
    run = tmp_path / "run"
    run.mkdir()
    state = tmp_path / "state.json"
    leftovers.snapshot(state)
    state.write_text(json.dumps({**json.loads(state.read_text()), "tmpdir": str(run)}))
    return run, state


def test_a_process_started_on_a_file_in_the_runs_folder_is_the_suites(tmp_path):
    run, state = _run_folder(tmp_path)
    conf = run / "nginx.conf"
    conf.write_text("")
    proc = subprocess.Popen(  # no mark in its environment, the folder's file on its command line
        ["/bin/sh", "-c", "sleep 60 & wait", "sh", str(conf)],
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 10
        while not (children := {c for c, up in leftovers._parents().items() if up == proc.pid}):
            assert time.monotonic() < deadline, "sh started no child"
            time.sleep(0.05)
        processes, files, _ = leftovers.leftovers(state, grace=0)
        found = {pid for pid, _ in processes}
        assert proc.pid in found and children <= found, (processes, proc.pid, children)
        assert files == [str(conf)]
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def test_a_process_that_names_no_path_of_the_folder_is_not(tmp_path):
    run, state = _run_folder(tmp_path)
    # a sibling folder whose name starts like the run's is another folder
    proc = subprocess.Popen(
        ["/bin/sh", "-c", "sleep 60", "sh", f"{run}-other/x"],
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        start_new_session=True,
    )
    try:
        processes, _, _ = leftovers.leftovers(state, grace=0)
        assert proc.pid not in {pid for pid, _ in processes}
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
