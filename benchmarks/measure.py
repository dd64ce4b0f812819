"""Timing and memory: medians of interleaved repeats, and the peak resident memory of one run.

- :func:`interleaved_medians` runs every contestant once per round, round after round, so a
  burst of load from other processes hits all of them alike; garbage collection is off
  during each timed call (as in :mod:`timeit`).
- :func:`peak_memory_mb` runs the call once more under :mod:`tracemalloc` after resetting the
  resident-set high-water mark (``/proc/self/clear_refs`` = 5, Linux >= 4.0), and reports
  both peaks (see there for what each one misses).
"""

from __future__ import annotations

import gc
import re
import time
import tracemalloc
from collections.abc import Callable

import numpy as np


def time_once(fn: Callable[[], object]) -> float:
    """Wall time of one call, in seconds, with the garbage collector off."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        fn()
        return time.perf_counter() - start
    finally:
        if enabled:
            gc.enable()


def interleaved_medians(
    calls: dict[str, Callable[[], object]], repeats: int, min_total: float = 0.0,
    max_repeats: int = 50,
) -> dict[str, dict]:  # fmt: skip
    """Median (and all samples) of each call, timed round-robin.

    Each call gets at least ``repeats`` samples, and more (up to ``max_repeats``) until its
    samples add up to ``min_total`` seconds, so millisecond-scale calls get enough samples
    without repeating the slow ones; every round visits each call that still needs samples.

    Examples
    --------
    >>> out = interleaved_medians({"a": lambda: sum(range(100))}, repeats=3)
    >>> len(out["a"]["samples"]) >= 3 and out["a"]["median"] > 0
    True
    """
    samples: dict[str, list[float]] = {name: [] for name in calls}

    def needs(name: str) -> bool:
        s = samples[name]
        return len(s) < repeats or (len(s) < max_repeats and sum(s) < min_total)

    while any(needs(name) for name in calls):
        for name, fn in calls.items():
            if needs(name):
                samples[name].append(time_once(fn))
    return {name: {"median": float(np.median(s)), "min": float(np.min(s)), "samples": s}
            for name, s in samples.items()}  # fmt: skip


def _status_kb(field: str) -> int | None:
    try:
        with open("/proc/self/status") as f:
            match = re.search(rf"^{field}:\s+(\d+) kB", f.read(), re.M)
        return int(match.group(1)) if match else None
    except OSError:
        return None


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def peak_memory_mb(fn: Callable[[], object]) -> dict:
    """Peak extra memory of one call, in MB, seen two ways.

    ``traced_mb``: the peak of Python and numpy allocations (:mod:`tracemalloc`); it misses
    native ones (numba's runtime, LIBLINEAR, Vowpal Wabbit).  ``rss_mb``: the growth of the
    resident-set high-water mark over the resident set before the call (``VmHWM`` after
    resetting it); it sees native allocations but not memory the allocator reuses from
    earlier frees, so it is a lower bound.  None where ``/proc`` is unavailable.

    Examples
    --------
    >>> out = peak_memory_mb(lambda: np.ones(10_000_000))  # 80 MB
    >>> 70 < out["traced_mb"] < 90
    True
    """
    gc.collect()
    before = _status_kb("VmRSS")
    reset = before is not None and _reset_peak()
    tracemalloc.start()
    try:
        fn()
        _, traced = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    rss = max(_status_kb("VmHWM") - before, 0) / 1024.0 if reset else None
    return {"traced_mb": traced / 2**20, "rss_mb": rss}
