"""Start-up: ``import olearn`` plus a first SPA fit, cold (compiling) and warm (on-disk cache).

Each measurement is a fresh interpreter (subprocess).  Cold: ``NUMBA_CACHE_DIR`` points at an
empty temporary folder, so every kernel the first fit needs is compiled.  Warm: the same
folder, now filled, as a user's second session finds it.  The operating system's file cache
is warm in both (it cannot be dropped without privileges), so "cold" means "numba cold".
The app's first page render comes from ``benchmarks/app_timing.py`` when that module exists.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

_PROBE = """
import time
t0 = time.perf_counter()
import olearn
t1 = time.perf_counter()
from olearn.estimators import SPAClassifier
import numpy as np
t2 = time.perf_counter()
rng = np.random.default_rng(0)
X = rng.normal(size=(200, 20)); y = rng.integers(4, size=200)
SPAClassifier(variant="I", epochs=1).fit(X, y)
t3 = time.perf_counter()
import json
print(json.dumps({"import_olearn": t1 - t0, "import_estimator": t2 - t1, "first_fit": t3 - t2,
                  "in_process": t3 - t0}))
"""


def _probe(cache_dir: str) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir, "PYTHONPATH": str(ROOT)}
    env.pop("NUMBA_DISABLE_JIT", None)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                          text=True, timeout=600, cwd=str(ROOT))  # fmt: skip
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"start-up probe failed: {proc.stderr[-2000:]}")
    return {**json.loads(proc.stdout.strip().splitlines()[-1]), "wall": wall}


def _interpreter() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True, timeout=60)
    return time.perf_counter() - start


def app_first_render(log: Callable[[str], None] = print) -> dict:
    """The app's first page render, from ``benchmarks/app_timing.py`` if it exists.

    Looks for a callable named ``first_render``, ``measure``, ``run`` or ``main`` there and
    accepts a number (seconds) or a dict of them.
    """
    if not (ROOT / "benchmarks" / "app_timing.py").exists():
        return {"note": "benchmarks/app_timing.py does not exist yet: not measured"}
    try:
        module = importlib.import_module("benchmarks.app_timing")
        for name in ("first_render", "measure", "run", "main"):
            fn = getattr(module, name, None)
            if callable(fn):
                out = fn()
                if isinstance(out, dict):
                    return {"source": f"benchmarks.app_timing.{name}", **out}
                return {"source": f"benchmarks.app_timing.{name}", "first_render_s": float(out)}
        return {"note": "benchmarks/app_timing.py has no first_render/measure/run/main"}
    except Exception as err:  # noqa: BLE001 - report, never crash the benchmark
        log(f"  app timing failed: {err!r}")
        return {"note": f"app timing failed: {type(err).__name__}: {str(err)[:200]}"}


def run_startup(warm_repeats: int = 3, with_app: bool = True,
                log: Callable[[str], None] = print) -> dict:  # fmt: skip
    """Cold and warm start-up (seconds), the bare interpreter's start, and the app's render."""
    interpreter = float(np.median([_interpreter() for _ in range(3)]))
    with tempfile.TemporaryDirectory(prefix="olearn-numba-cold-") as cache:
        cold = _probe(cache)
        log(f"  cold start: {cold['wall']:.2f} s (first fit {cold['first_fit']:.2f} s)")
        warm_runs = [_probe(cache) for _ in range(warm_repeats)]
    warm = {k: float(np.median([r[k] for r in warm_runs])) for k in warm_runs[0]}
    log(f"  warm start: {warm['wall']:.2f} s (median of {warm_repeats})")
    out = {"interpreter_s": interpreter, "cold": cold, "warm": warm}
    if with_app:
        out["app"] = app_first_render(log)
    return out
