"""Issue 22, the CLI's faults: worker counts capped and no worker left, a Dask scheduler
without workers, an unusable results folder found before the work, one-line errors,
``olearn app`` stopped as a whole, and the leftover check of ``.ci/run`` itself."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from olearn.experiments.engine import cpu_count
from tests import leftovers

ROOT = Path(__file__).resolve().parents[1]
QUICK = [
    "reproduce",
    "matsushima-table4",
    "--datasets",
    "digits",
    "--quick",
    "--algorithms",
    "pa",
    "--svm",
    "liblinear",
    "--no-progress",
    "--no-curves",
]


def _env(mark: str) -> dict[str, str]:
    """This environment with the repository first on the path and a mark of our own."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, leftovers.MARK: mark}


def _marked(mark: str) -> set[int]:
    """Live processes that carry ``mark`` (descendants of a process we started)."""
    deadline = time.monotonic() + 5  # some exit just after their parent
    while (pids := {p for p in leftovers._marked_pids(mark) if leftovers._alive(p)}) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.1)
    return pids


def _children(pid: int) -> list[str]:
    """Command lines of the live descendants of ``pid`` (one pass over /proc)."""
    parent = leftovers._parents()
    found, frontier = [], {pid}
    while frontier:
        frontier = {child for child, up in parent.items() if up in frontier}
        found += [leftovers._describe(child) for child in frontier]
    return found


def _olearn(*args: str, mark: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "olearn", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=_env(mark or uuid.uuid4().hex),
    )


def _one_line_error(proc: subprocess.CompletedProcess, *words: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("olearn: error:") and proc.stderr.count("\n") == 1, proc.stderr
    for word in words:
        assert word in proc.stderr


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="counts processes through /proc")
def test_jobs_1000_runs_on_at_most_the_cpus_and_leaves_no_process(tmp_path):
    mark = uuid.uuid4().hex
    toy = ["--datasets", "toy-blobs", "--data-option", "toy-blobs:n_samples=90"]
    cmd = [sys.executable, "-m", "olearn", *QUICK, *toy, "--jobs", "1000", "--out", str(tmp_path)]
    proc = subprocess.Popen(
        cmd, env=_env(mark), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    most = 0
    try:
        while proc.poll() is None:  # count the loky workers while it runs
            workers = [c for c in _children(proc.pid) if "resource_tracker" not in c]
            most = max(most, len(workers))
            time.sleep(0.1)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert f"this process may use {cpu_count()} CPU(s)" in err  # the notice
    assert 1 <= most <= cpu_count()
    assert "Wrote" in out
    assert not _marked(mark), "a worker outlived `olearn reproduce --jobs 1000`"


def test_seed_and_jobs_out_of_range_are_one_line_argparse_errors():
    for args, words in (
        (["--seed", "-1"], ["--seed", "from 0 to", "'-1'"]),
        (["--seed", str(2**32)], ["--seed", "4294967295"]),
        (["--jobs", "0"], ["--jobs", "-1 for all CPUs"]),
        (["--folds", "1"], ["--folds", ">= 2"]),
        (["--epochs", "0"], ["epochs must be >= 1"]),
        (["--scheduler-timeout", "-3"], ["--scheduler-timeout"]),
        # issue 22 item 7: a loader option's value is checked against its declared type
        (["--data-option", "20news-8:remove_headers=off0"], ["remove_headers", "'off0'"]),
        (["--data-option", "20news-8:no_such=1"], ["no option(s) ['no_such']"]),
    ):
        _one_line_error(_olearn(*QUICK, *args), *words)


@pytest.mark.parametrize("where", ["dev-null", "a-file", "under-a-file"])
def test_unusable_out_fails_before_the_work(tmp_path, where, capsys, monkeypatch):
    from olearn.cli import main
    from olearn.experiments import table4

    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder")
    out = {"dev-null": "/dev/null", "a-file": a_file, "under-a-file": a_file / "results"}[where]

    def no_work(**_):  # pragma: no cover - the point is that it is never reached
        raise AssertionError("the run started before --out was checked")

    monkeypatch.setattr(table4, "run", no_work)
    assert main([*QUICK, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"olearn: error: cannot write results to {out}") and err.count("\n") == 1
    assert "--out" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_out_fails_before_the_work(tmp_path, capsys):
    from olearn.cli import main

    tmp_path.chmod(0o500)
    try:
        assert main([*QUICK, "--out", str(tmp_path / "results")]) == 2
    finally:
        tmp_path.chmod(0o700)
    assert "cannot write results to" in capsys.readouterr().err


def test_out_dev_null_from_the_shell_is_one_line():
    _one_line_error(_olearn(*QUICK, "--out", "/dev/null"), "/dev/null", "not a folder")


def test_an_unexpected_error_is_one_line_and_status_1(monkeypatch, capsys):
    from olearn import cli

    def broken(args):
        raise ZeroDivisionError("float division by zero")

    monkeypatch.setattr(cli, "_cmd_list", lambda: broken(None))
    monkeypatch.delenv("OLEARN_DEBUG", raising=False)
    assert cli.main(["list"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ZeroDivisionError: float division by zero" in err


def test_scheduler_without_workers_times_out_with_a_clear_message():
    distributed = pytest.importorskip("distributed")
    # processes=True gives a tcp:// scheduler (this process serves it); n_workers=0: none
    with distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=None) as cluster:
        started = time.monotonic()
        proc = _olearn(
            *QUICK,
            "--backend",
            "dask",
            "--scheduler",
            cluster.scheduler_address,
            "--scheduler-timeout",
            "1.5",
            timeout=60,
        )
        elapsed = time.monotonic() - started
    _one_line_error(proc, cluster.scheduler_address, "no worker after 1.5 s", "dask worker")
    assert elapsed < 30  # not the default 30 s, and not forever


def test_scheduler_timeout_default_is_in_the_help():
    from olearn.experiments.engine import SCHEDULER_TIMEOUT

    help_text = " ".join(_olearn("reproduce", "--help").stdout.split())
    assert f"(default {SCHEDULER_TIMEOUT:g})" in help_text
    assert "capped at the CPUs this process may use" in help_text


def _wait_port(port: int, proc: subprocess.Popen) -> None:
    from tests.browser_support import wait_healthy

    wait_healthy(f"http://127.0.0.1:{port}", proc, timeout=90)


def _nobody_listens(port: int) -> bool:
    """No server accepts connections on ``port`` (a bind test would also fail on the
    TIME_WAIT sockets a closed server leaves for a minute)."""
    import socket

    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except ConnectionRefusedError:
        return True
    return False


@pytest.mark.skipif(os.name != "posix", reason="signals and /proc")
def test_sigterm_to_olearn_app_stops_the_server(tmp_path):
    from tests.browser_support import free_port

    mark = uuid.uuid4().hex
    port = free_port()
    cmd = [sys.executable, "-m", "olearn", "app", "--server.headless", "true"]
    cmd += ["--server.port", str(port), "--server.address", "127.0.0.1"]
    with open(tmp_path / "server.log", "w") as log:
        proc = subprocess.Popen(
            cmd, cwd=tmp_path, env=_env(mark), stdout=log, stderr=subprocess.STDOUT
        )
        try:
            _wait_port(port, proc)
            proc.send_signal(signal.SIGTERM)  # only the process we started, as a user would
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)  # pragma: no cover
                proc.wait()
            left = _marked(mark)
            for pid in left:  # pragma: no cover - the defect: clean up, then fail
                os.kill(pid, signal.SIGKILL)
    assert not left, "a Streamlit server outlived `olearn app`"
    assert _nobody_listens(port)


@pytest.mark.skipif(os.name != "posix", reason="signals")
def test_the_non_posix_launcher_forwards_sigterm_to_streamlit(tmp_path):
    """``_run_child`` (the launcher where exec is not available) run here: a SIGTERM to it
    ends its child too."""
    mark = uuid.uuid4().hex
    child = [sys.executable, "-c", "import time; time.sleep(60)"]
    script = "from olearn.app.server.launch import _run_child\n"
    script += f"raise SystemExit(_run_child({child!r}))"
    proc = subprocess.Popen([sys.executable, "-c", script], env=_env(mark))
    try:
        deadline = time.monotonic() + 30
        while len(leftovers._marked_pids(mark)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(leftovers._marked_pids(mark)) == 2  # the launcher and its child
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 128 + signal.SIGTERM  # the child's status, passed on
    finally:
        if proc.poll() is None:  # pragma: no cover
            proc.kill()
            proc.wait()
    assert not _marked(mark)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_the_ci_leftover_check_finds_a_leaked_process_and_file(tmp_path):
    """``.ci/run``'s check on a run that leaks ``sleep`` and a temp folder: it fails and
    names both; on a clean run it passes."""
    mark = uuid.uuid4().hex
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    env = {**_env(mark), "TMPDIR": str(tmpdir)}
    state = tmpdir / "state.json"
    tool = [sys.executable, str(ROOT / "tests" / "leftovers.py")]
    subprocess.run([*tool, "snapshot", str(state)], env=env, check=True)
    (tmpdir / "pytest").mkdir()  # pytest's basetemp: allowed
    clean = subprocess.run(
        [*tool, "check", str(state), "--basetemp", str(tmpdir / "pytest")],
        env=env,
        capture_output=True,
        text=True,
    )
    assert clean.returncode == 0, clean.stderr
    sleeper = subprocess.Popen(["sleep", "1000"], env=env, start_new_session=True)
    (tmpdir / "leaked").mkdir()
    try:
        leaky = subprocess.run(
            [*tool, "check", str(state), "--basetemp", str(tmpdir / "pytest"), "--kill"]
            + ["--grace", "0.5"],
            env=env,
            capture_output=True,
            text=True,
        )
        assert leaky.returncode == 1
        assert f"pid {sleeper.pid}: sleep 1000" in leaky.stderr
        assert str(tmpdir / "leaked") in leaky.stderr
        assert sleeper.wait(timeout=10) == -signal.SIGKILL  # --kill ended it
    finally:
        if sleeper.poll() is None:  # pragma: no cover
            sleeper.kill()
            sleeper.wait()


def test_leftover_snapshot_is_json(tmp_path):
    state = tmp_path / "state.json"
    leftovers.snapshot(state)
    data = json.loads(state.read_text())
    assert data["sid"] == os.getsid(0) and os.getpid() in data["pids"]


def test_ctrl_c_while_the_parser_is_built_is_one_line_not_a_traceback(monkeypatch, capsys):
    """Before: a KeyboardInterrupt before main's guard (building the parser imports the
    commands' modules) reached the console script as a traceback."""
    from olearn import cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_parser", interrupted)
    monkeypatch.setattr(cli.sys, "argv", ["olearn", "list"])
    with pytest.raises(SystemExit) as end:
        cli.console()
    assert end.value.code == 130
    assert capsys.readouterr().err == "olearn: interrupted\n"
