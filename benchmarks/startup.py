"""Start-up: ``import olearn`` plus a first SPA fit, cold (compiling) and warm (on-disk cache).

Each measurement is a fresh interpreter (subprocess).  Cold: ``NUMBA_CACHE_DIR`` points at an
empty temporary folder, so every kernel the first fit needs is compiled.  Warm: the same
folder, now filled, as a user's second session finds it.  The operating system's file cache
is warm in both (it cannot be dropped without privileges), so "cold" means "numba cold".
The app's first page render: ``app.py`` run once by Streamlit's AppTest in a fresh interpreter.
"""

from __future__ import annotations

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


def _probe(cache_dir: str | None) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("NUMBA_DISABLE_JIT", None)
    env.pop("NUMBA_CACHE_DIR", None)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=str(ROOT),
    )
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"start-up probe failed: {proc.stderr[-2000:]}")
    return {**json.loads(proc.stdout.strip().splitlines()[-1]), "wall": wall}


def _interpreter() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True, timeout=60)
    return time.perf_counter() - start


_APP_PROBE = """
import time
t0 = time.perf_counter()
from streamlit.testing.v1 import AppTest
t1 = time.perf_counter()
at = AppTest.from_file("app.py", default_timeout=300).run()
t2 = time.perf_counter()
import json
print(json.dumps({"import_streamlit": t1 - t0, "first_run": t2 - t1,
                  "exceptions": len(at.exception)}))
"""


def app_first_render(log: Callable[[str], None] = print) -> dict:
    """The app's first page render, server side, in a fresh interpreter: ``app.py`` run once
    by ``streamlit.testing.v1.AppTest`` (numba's default on-disk cache, as a user's second
    session finds it; the browser's drawing is not included).  When
    ``benchmarks/app_timing.py`` (the app's own rerun benchmark) exists, its table is
    attached verbatim."""
    if not (ROOT / "app.py").exists():
        return {"note": "app.py does not exist yet: not measured"}
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_DISABLE_JIT", "NUMBA_CACHE_DIR")}
    env["PYTHONPATH"] = str(ROOT)
    out: dict = {}
    try:
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-c", _APP_PROBE],
            env=env,
            cwd=str(ROOT),
            capture_output=True,
            text=True,
            timeout=600,
        )
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            return {"note": f"app probe failed: {proc.stderr.strip()[-300:]}"}
        out = {**json.loads(proc.stdout.strip().splitlines()[-1]), "wall": wall}
        log(f"  app first render: {out['first_run']:.2f} s (fresh interpreter {wall:.2f} s)")
        if (ROOT / "benchmarks" / "app_timing.py").exists():
            proc = subprocess.run(
                [sys.executable, "-m", "benchmarks.app_timing", "--repeat", "5"],
                env=env,
                cwd=str(ROOT),
                capture_output=True,
                text=True,
                timeout=900,
            )
            out["app_timing_table"] = (
                proc.stdout.strip()
                if proc.returncode == 0
                else (f"benchmarks.app_timing failed: {proc.stderr.strip()[-300:]}")
            )
    except (OSError, subprocess.SubprocessError, ValueError) as err:
        out["note"] = f"app timing failed: {type(err).__name__}: {str(err)[:200]}"
    return out


def run_startup(
    warm_repeats: int = 3,
    with_app: bool = True,
    cold: bool = True,
    log: Callable[[str], None] = print,
) -> dict:
    """Cold and warm start-up (seconds), the bare interpreter's start, and the app's render.

    With ``cold=False`` only warm runs are made, against numba's default on-disk cache, which
    the caller's own fits have filled (the quick mode's shortcut).
    """
    interpreter = float(np.median([_interpreter() for _ in range(3 if cold else 1)]))
    out: dict = {"interpreter_s": interpreter}
    with tempfile.TemporaryDirectory(prefix="olearn-numba-cold-") as tmp:
        cache = tmp if cold else None
        if cold:
            out["cold"] = _probe(cache)
            log(
                f"  cold start: {out['cold']['wall']:.2f} s "
                f"(first fit {out['cold']['first_fit']:.2f} s)"
            )
        warm_runs = [_probe(cache) for _ in range(warm_repeats)]
    out["warm"] = {k: float(np.median([r[k] for r in warm_runs])) for k in warm_runs[0]}
    log(f"  warm start: {out['warm']['wall']:.2f} s (median of {warm_repeats})")
    if with_app:
        out["app"] = app_first_render(log)
    return out
