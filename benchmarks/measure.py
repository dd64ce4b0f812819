"""Timing and memory: medians of interleaved repeats, and the peak resident memory of one run.

- :func:`interleaved_medians` runs every contestant once per round, round after round, so a
  burst of load from other processes hits all of them alike; garbage collection is off
  during each timed call (as in :mod:`timeit`) and runs between rounds, over the objects
  created since the timing started only (:func:`gc.freeze`).
- :func:`peak_memory_mb` runs the call once more under :mod:`tracemalloc`.  A resident-set
  measure (``VmHWM``) was tried and dropped: after the warm-up the allocator reuses freed
  memory, so it reads 0 for almost everything.  Native peers measure themselves
  (``Entry.memory``, e.g. Vowpal Wabbit in a fresh interpreter).
"""

from __future__ import annotations

import gc
import time
import tracemalloc
from collections.abc import Callable, Hashable

import numpy as np


def time_once(fn: Callable[[], object]) -> float:
    """Wall time of one call, in seconds, with the garbage collector off."""
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
    calls: dict[Hashable, Callable[[], object]],
    repeats: int,
    min_total: float = 0.0,
    max_repeats: int = 50,
) -> dict[Hashable, dict]:
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
    samples: dict[Hashable, list[float]] = {name: [] for name in calls}

    def needs(name: Hashable) -> bool:
        s = samples[name]
        return len(s) < repeats or (len(s) < max_repeats and sum(s) < min_total)

    gc.collect()
    gc.freeze()  # what exists now is never scanned again: later collections stay cheap
    try:
        while any(needs(name) for name in calls):
            for name, fn in calls.items():
                if needs(name):
                    samples[name].append(time_once(fn))
            gc.collect()  # between rounds, outside the timed calls
    finally:
        gc.unfreeze()
    return {
        name: {"median": float(np.median(s)), "min": float(np.min(s)), "samples": s}
        for name, s in samples.items()
    }


def peak_memory_mb(fn: Callable[[], object]) -> dict:
    """Peak memory allocated during one call, in MB (:mod:`tracemalloc`: Python and numpy
    allocations, which hold every array the learners keep; numba's small per-call scratch
    and native libraries' own allocations are not seen).

    Examples
    --------
    >>> out = peak_memory_mb(lambda: np.ones(10_000_000))  # 80 MB
    >>> 70 < out["traced_mb"] < 90, out["method"]
    (True, 'tracemalloc')
    """
    tracemalloc.start()
    try:
        fn()
        _, traced = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return {"traced_mb": traced / 2**20, "method": "tracemalloc"}
