"""Where a server's CPU goes while a class arrives: ``py-spy`` sampling every thread of every
process of the server (workers and proxy), summed by function (issue 23, item 1).

cProfile on the server's main thread (``benchmarks.arrival_cpu --profile``) sees the event
loop only; the script threads, where Streamlit's full garbage collection after every run cost
~150 ms per run over olearn's heap, need a sampler of all threads.  ``py-spy`` (in the
``bench`` extra) attaches to running processes; this module starts one per server process
around a wave of students and summarises its raw stacks.

Used by ``python -m benchmarks.classroom --profile``; its summary is printed and written
beside the results (``profile-<app>-<page>-w<workers>.txt``, the raw stacks beside it).
"""

from __future__ import annotations

import collections
import shutil
import signal
import subprocess
from pathlib import Path

RATE = 200  # samples per second and thread


class Sampler:
    """``py-spy record`` attached to each of ``pids`` until :meth:`stop`."""

    def __init__(self, pids: list[int], raw: Path):
        exe = shutil.which("py-spy")
        if exe is None:
            raise RuntimeError("--profile needs py-spy: pip install -e '.[bench]'")
        self.raw = [raw.with_name(f"{raw.stem}-{pid}.txt") for pid in pids]
        self.procs = [
            subprocess.Popen(
                [
                    exe,
                    "record",
                    "--pid",
                    str(pid),
                    "--rate",
                    str(RATE),
                    "--format",
                    "raw",
                    "--threads",
                    "--nonblocking",
                    "-o",
                    str(out),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for pid, out in zip(pids, self.raw, strict=True)
        ]

    def stop(self) -> list[Path]:
        """Stop sampling (py-spy writes its file on SIGINT); the raw files written."""
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
        for p in self.procs:
            try:
                p.wait(60)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        return [f for f in self.raw if f.exists()]


def _frame(text: str) -> str:
    """``function (file.py:line)`` -> ``function (file.py)``."""
    name, _, where = text.partition(" (")
    return f"{name} ({where.rsplit('/', 1)[-1].split(':')[0]})" if where else name


def summary(raw: list[Path], top: int = 30) -> str:
    """The share of each kind of thread (``ScriptRunner.scriptThread``, ``MainThread``...),
    and the ``top`` functions by share of the samples (every thread and process), counted
    inclusively (the function or what it calls) and by their own time."""
    total = 0
    threads: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    leaf: collections.Counter[str] = collections.Counter()
    for path in raw:
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():
                continue
            n = int(count)
            frames = stack.split(";")
            total += n
            threads[frames[0].split(": ", 1)[-1].split(" ")[0]] += n
            for name in {_frame(f) for f in frames[1:]}:
                inclusive[name] += n
            leaf[_frame(frames[-1])] += n
    if not total:
        return "no samples\n"
    lines = [f"{total} samples at {RATE}/s per thread\n", "\nby thread:\n"]
    lines += [f"  {n / total:6.1%}  {name}\n" for name, n in threads.most_common(8)]
    lines.append(f"\nheaviest functions (inclusive, of all samples), top {top}:\n")
    lines += [f"  {n / total:6.1%}  {name}\n" for name, n in inclusive.most_common(top)]
    lines.append(f"\nheaviest functions (their own time), top {top}:\n")
    lines += [f"  {n / total:6.1%}  {name}\n" for name, n in leaf.most_common(top)]
    return "".join(lines)
