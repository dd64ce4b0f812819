"""Find what a test run left behind: processes still alive, files in its temporary folder.

``.ci/run`` runs the suite as::

    export OLEARN_RUN_MARK=<random>   # inherited by every process the suite starts
    export TMPDIR=<a fresh folder>    # tempfile, pytest's tmp_path and most tools write here
    python3 tests/leftovers.py snapshot STATE
    python3 -m pytest --basetemp "$TMPDIR/pytest"
    python3 tests/leftovers.py check STATE   # exit status 1, with a list, if anything is left

A process is left behind when, a few seconds after the suite ended, it is still alive and
carries this run's mark in its environment (``/proc/PID/environ``: it descends from the
suite, even if it started a new session or was re-parented to init).  A process that is new in
the run's session but unmarked (a test that cleared its child's environment, or something
the machine started beside the run) is listed as a warning, not counted and not killed: the
check must not fail a run for a process it cannot tie to the suite.  A process whose command
line names a path in the run's temporary folder is the suite's too, with its descendants: a
program that clears its environment (nginx keeps only ``TZ``) but was started on a file there,
as ``olearn app --workers`` starts nginx with ``-p $TMPDIR/olearn-app-...``.  A file is left behind
when it is in ``$TMPDIR`` outside pytest's own ``--basetemp`` folder (pytest manages that
one: it empties it at the next run).

Linux only (``/proc``); elsewhere ``check`` reports what it cannot see and passes.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

MARK = "OLEARN_RUN_MARK"
PROC = Path("/proc")
GRACE = 5.0  # seconds for processes that are already exiting (e.g. loky's resource tracker)


def _session_pids(sid: int) -> set[int]:
    found = set()
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            try:
                if os.getsid(int(entry.name)) == sid:
                    found.add(int(entry.name))
            except OSError:  # gone meanwhile
                pass
    return found


def _marked_pids(mark: str) -> set[int]:
    needle = f"{MARK}={mark}".encode()
    found = set()
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            try:
                if needle in (entry / "environ").read_bytes().split(b"\0"):
                    found.add(int(entry.name))
            except OSError:  # gone meanwhile, or another user's
                pass
    return found


def _parents() -> dict[int, int]:
    """Every live process's parent (one pass over /proc)."""
    parent = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # gone meanwhile
                continue
            parent[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return parent


def _named_pids(folder: str) -> set[int]:
    """Processes whose command line names a path in ``folder``, and their descendants."""
    needle = folder.rstrip("/").encode() + b"/"
    found = set()
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            try:
                words = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:  # gone meanwhile, or another user's
                continue
            if needle in words:
                found.add(int(entry.name))
    parent, frontier = _parents(), set(found)
    while frontier:
        frontier = {child for child, up in parent.items() if up in frontier} - found
        found |= frontier
    return found


def _ancestors(pid: int) -> set[int]:
    chain = set()
    while pid > 1:
        chain.add(pid)
        try:
            stat = (PROC / str(pid) / "stat").read_text()
        except OSError:
            break
        pid = int(stat.rsplit(")", 1)[1].split()[1])  # field 4, after "(comm)"
    return chain


def _alive(pid: int) -> bool:
    try:
        state = (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; its parent has only not collected it


def _describe(pid: int) -> str:
    try:
        cmdline = (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        cmdline = "?"
    return f"pid {pid}: {cmdline.strip()[:160]}"


def snapshot(state: Path) -> None:
    """Record the run's session and its processes now."""
    sid = os.getsid(0)
    data = {"sid": sid, "pids": sorted(_session_pids(sid)), "tmpdir": tempfile.gettempdir()}
    state.write_text(json.dumps(data))


def leftovers(
    state: Path, basetemp: str | None = None, grace: float = GRACE
) -> tuple[list[tuple[int, str]], list[str], list[tuple[int, str]]]:
    """``([(pid, description)], paths, [(pid, description)])`` left since :func:`snapshot`
    wrote ``state``: the suite's processes (marked), the entries of the temporary folder (a
    leaked ``mkdtemp`` folder is one entry), and unmarked processes new in the session."""
    data = json.loads(state.read_text())
    mark = os.environ.get(MARK)
    me = _ancestors(os.getpid())
    deadline = time.monotonic() + grace
    while True:
        tied = (_marked_pids(mark) if mark else set()) | _named_pids(data["tmpdir"])
        marked = {pid for pid in tied - me if _alive(pid)}
        if not marked or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    new = _session_pids(data["sid"]) - set(data["pids"]) - me - marked
    unmarked = [(pid, _describe(pid)) for pid in sorted(new) if _alive(pid)]
    skip = {state.resolve()} | ({Path(basetemp).resolve()} if basetemp else set())
    files = sorted(str(p) for p in Path(data["tmpdir"]).iterdir() if p.resolve() not in skip)
    return [(pid, _describe(pid)) for pid in sorted(marked)], files, unmarked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("snapshot", "check"))
    parser.add_argument("state", type=Path, help="the snapshot's JSON file")
    parser.add_argument("--basetemp", default=None, help="pytest's --basetemp (not checked)")
    parser.add_argument(
        "--grace", type=float, default=GRACE, help="seconds to let exiting processes end"
    )
    parser.add_argument(
        "--kill", action="store_true", help="after listing them, kill the processes left"
    )
    args = parser.parse_args(argv)
    if not PROC.is_dir():
        print("leftovers: no /proc here; processes and files are not checked", file=sys.stderr)
        return 0
    if args.command == "snapshot":
        snapshot(args.state)
        return 0
    processes, files, unmarked = leftovers(args.state, args.basetemp, args.grace)
    for _pid, line in unmarked:
        print(f"leftovers: note: new in the session, not the suite's: {line}", file=sys.stderr)
    for pid, line in processes:
        print(f"leftovers: process still running: {line}", file=sys.stderr)
        if args.kill:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    for path in files:
        print(f"leftovers: temporary file left: {path}", file=sys.stderr)
    if processes or files:
        print(
            f"leftovers: the suite left {len(processes)} process(es) and "
            f"{len(files)} temporary path(s) behind",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
