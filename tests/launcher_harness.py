"""``olearn app --workers N`` with a stop signal sent at a chosen moment of its start (issue 30).

Run as ``python -m tests.launcher_harness SPEC`` (``SPEC`` a JSON object, see :func:`main`):
the real command (``olearn.cli.main(["app", "--workers", ...])``, the real launcher and nginx)
with two stand-ins that keep a run under a few seconds: each worker is Python's own
``http.server`` serving a folder that holds ``_stcore/health`` (it answers the health check
and dies at SIGTERM, as a Streamlit worker does), and Streamlit's static folder is an empty
one.  The process signals *itself* at the phase named, from inside the launcher's own steps
(the function about to run, CPython's at-fork callback of the N-th process started, the N-th
health check polled), so where the signal lands is deterministic.

Phases (``k`` counts the processes started: the workers, then nginx as ``k = N``):

- ``find_proxy``, ``static``, ``config``: as those steps begin (looking for nginx, the static
  cache, nginx's configuration);
- ``fork:k`` / ``forked:k``: in the parent's at-fork callback before / after the fork of
  process ``k`` (where a signal raised by a handler used to be dropped);
- ``started:k``: once process ``k`` is started;
- ``health:k``: at the first health check of process ``k``.

:func:`run` starts it from a test, sends the signals itself for ``serving`` (once the console
says so) and ``after:SECONDS`` (from outside, that long after the start: anywhere), and
returns what is left: the exit status, the console, the processes and files still there.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 20.0  # seconds a stopped start may take (the stand-ins stop at once; nginx in ms)
STARTING = "harness: olearn app starts"  # said once Python and the harness are up


def _worker(root: Path):
    def command(port: int) -> list[str]:
        return [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port)] + [
            "--directory",
            str(root),
        ]

    return command


def main(spec: dict) -> int:
    """``spec``: ``phase`` (above, or ``""`` for none), ``signals`` (names, sent in order at
    that moment), ``workers``, ``port`` (the public one), ``root`` (a folder of this run)."""
    from olearn import cli
    from olearn.app.server import hosting, launch

    root = Path(spec["root"])
    (root / "_stcore").mkdir(parents=True, exist_ok=True)
    (root / "_stcore" / "health").write_text("ok")
    (root / "static" / "static").mkdir(parents=True, exist_ok=True)
    phase = spec["phase"]
    signals = [getattr(signal, name) for name in spec["signals"]]

    def send(here: str) -> None:
        if here == phase:
            for signum in signals:
                os.kill(os.getpid(), signum)

    def before(name: str, real):
        def step(*args, **kwargs):
            send(name)
            return real(*args, **kwargs)

        return step

    hosting.find_proxy = before("find_proxy", hosting.find_proxy)
    hosting.static_cache = lambda *a, **k: send("static") or root / "static"
    hosting.nginx_config = before("config", hosting.nginx_config)
    started = [0]
    real_start = hosting._start

    def start(*args, **kwargs):
        proc = real_start(*args, **kwargs)
        send(f"started:{started[0]}")
        started[0] += 1
        return proc

    hosting._start = start
    os.register_at_fork(
        before=lambda: send(f"fork:{started[0]}"),
        after_in_parent=lambda: send(f"forked:{started[0]}"),
    )
    polled: list[str] = []
    real_urlopen = hosting.urllib.request.urlopen

    def urlopen(url, *args, **kwargs):
        if url not in polled:
            polled.append(url)
            send(f"health:{len(polled) - 1}")
        return real_urlopen(url, *args, **kwargs)

    hosting.urllib.request.urlopen = urlopen
    launch.worker_command = lambda port, extra=(): _worker(root)(port)
    argv = ["app", "--workers", str(spec["workers"]), "--server.port", str(spec["port"])]
    print(STARTING, file=sys.stderr, flush=True)
    return cli.main([*argv, "--server.address", "127.0.0.1"])


@dataclass
class Outcome:
    status: int | None  # None: still running TIMEOUT s after the signal (then killed)
    seconds: float  # from the signal (or the start, for a signal sent from inside) to the end
    console: str  # stdout and stderr
    left: list[int]  # processes of the run still alive after it ended (then killed)
    files: list[str]  # what the run left in its temporary folder
    listening: bool  # something still answers on the public port
    allowed: frozenset[int]  # the exit statuses of a clean stop

    @property
    def clean(self) -> bool:
        """Stopped, with a clean status, nothing left, and no error on the console."""
        said = ("Exception ignored", "Traceback", "unexpected error", "error:")
        return (
            self.status in self.allowed
            and not self.left
            and not self.files
            and not self.listening
            and not any(text in self.console for text in said)
        )


def run(
    tmp_path: Path,
    phase: str,
    signals: list[str],
    workers: int = 2,
    env: dict[str, str] | None = None,
    on_serving: Callable[[int], object] | None = None,
) -> Outcome:
    """Start the harness (see the module) and stop it at ``phase`` with ``signals``; ``env``
    is added to the command's environment; at ``serving``, ``on_serving(port)`` is called
    before the signals are sent."""
    from olearn.app.server.hosting import free_port
    from tests import leftovers

    mark = uuid.uuid4().hex
    tmpdir = tmp_path / "tmp"  # the launcher's own temporary folder (nginx's run folder)
    tmpdir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    spec = {"phase": phase, "signals": signals, "workers": workers, "port": port}
    spec["root"] = str(tmp_path / "root")
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, **(env or {}), "PYTHONPATH": path, "TMPDIR": str(tmpdir)}
    env[leftovers.MARK] = mark
    cmd = [sys.executable, "-m", "tests.launcher_harness", json.dumps(spec)]
    outside = phase == "serving" or phase.startswith("after:")
    log = tmp_path / "console.txt"
    with open(log, "w") as console:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=console, stderr=subprocess.STDOUT)
        start = time.monotonic()
        try:
            if outside:
                _wait_to_send(proc, phase, log, start)
                if on_serving is not None and phase == "serving":
                    on_serving(port)
                start = time.monotonic()
                for name in signals:
                    proc.send_signal(getattr(signal, name))
            try:
                status = proc.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                status = None
            seconds = time.monotonic() - start
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            left = _left(mark, tmpdir)
            for pid in left:
                os.kill(pid, signal.SIGKILL)
    return Outcome(
        status=status,
        seconds=seconds,
        console=log.read_text(errors="replace"),
        left=left,
        files=sorted(p.name for p in tmpdir.iterdir()),
        listening=_answers(port),
        allowed=frozenset(_clean_statuses(phase, signals)),
    )


def _clean_statuses(phase: str, signals: list[str]) -> set[int]:
    """0, the launcher's status once stopped; a signal from outside may also land before it
    has set its handlers, when nothing is started yet: SIGTERM's default action ends the
    process, and SIGINT is the CLI's "interrupted" (130)."""
    if not phase.startswith("after:"):
        return {0}
    return {0} | {-signal.SIGTERM if name == "SIGTERM" else 130 for name in signals}


def _wait_to_send(proc: subprocess.Popen, phase: str, log: Path, start: float) -> None:
    said = STARTING if phase.startswith("after:") else "olearn: serving on"
    while said not in log.read_text(errors="replace"):
        if proc.poll() is not None or time.monotonic() - start > 60:
            raise AssertionError(f"the launcher did not start: {log.read_text()[-2000:]}")
        time.sleep(0.02)
    if phase.startswith("after:"):
        time.sleep(float(phase.partition(":")[2]))


def _left(mark: str, tmpdir: Path) -> list[int]:
    """Live processes of the run, after a grace for those already exiting: those carrying
    ``mark`` in their environment (the launcher, the workers), and nginx, which clears its
    environment: its master names its run folder (in ``tmpdir``) on its command line, and
    its worker is the master's child."""
    from tests import leftovers

    deadline = time.monotonic() + 5
    while True:
        pids = leftovers._marked_pids(mark)
        masters = {pid for pid in _all_pids() if str(tmpdir).encode() in _cmdline(pid)}
        pids |= masters | {pid for pid in _all_pids() if _parent(pid) in masters}
        pids = sorted(p for p in pids if leftovers._alive(p))
        if not pids or time.monotonic() > deadline:
            return pids
        time.sleep(0.1)


def _all_pids() -> list[int]:
    return [int(d.name) for d in Path("/proc").iterdir() if d.name.isdigit()]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _answers(port: int) -> bool:
    import socket

    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except OSError:
        return False
    return True


if __name__ == "__main__":
    raise SystemExit(main(json.loads(sys.argv[1])))
