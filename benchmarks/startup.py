"""Start-up: ``import olearn`` plus a first SPA fit, cold (compiling) and warm (on-disk cache);
the CLI's quick commands as whole processes; each default estimator's first fit on digits and
README's library snippet from an empty numba cache (issue 32).

Each measurement is a fresh interpreter (subprocess).  Cold: ``NUMBA_CACHE_DIR`` points at an
empty temporary folder, so every kernel the first fit needs is compiled.  Warm: the same
folder, now filled, as a user's second session finds it.  The operating system's file cache
is warm in both (it cannot be dropped without privileges), so "cold" means "numba cold".
The app's first page render: ``app.py`` run once by Streamlit's AppTest in a fresh interpreter.

- :func:`commands`: ``olearn --version``, ``--help`` and ``list``, each a whole process
  (``python -m olearn ...``, its output discarded) from its start to its exit, beside ``python
  -c "import sklearn"`` (a peer's import) and ``python -c pass`` (the interpreter alone), in
  interleaved rounds after one unmeasured round: min, median and max.
- :func:`first_fits`: ``SPAClassifier``, ``PAClassifier`` and ``AROWClassifier`` with their
  defaults (and ``random_state=0``: their shuffles repeat) fitting scikit-learn's digits, and
  README's "Use the library" snippet (read from README.md) timed from its ``fit`` call to its
  score, each in a fresh interpreter with a new empty ``NUMBA_CACHE_DIR`` (removed
  afterwards), then once more on that filled cache: the two results (coefficients and
  predictions, bit for bit) must agree.

``python -m benchmarks.startup [--runs 7] [--fit-runs 3] [--no-fits]`` prints these tables;
``python -m benchmarks`` runs them with the rest (its start-up section).
"""

from __future__ import annotations

import argparse
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
if not __package__:  # run as a script: python benchmarks/startup.py
    sys.path.insert(0, str(ROOT))

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


def _env(numba_cache: str | None = None) -> dict[str, str]:
    """This environment for a probe: this tree first on the path, numba jitting, and its
    on-disk cache in ``numba_cache`` (else numba's default)."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_DISABLE_JIT", "NUMBA_CACHE_DIR")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    if numba_cache is not None:
        env["NUMBA_CACHE_DIR"] = numba_cache
    return env


def _probe(cache_dir: str | None, code: str = _PROBE) -> dict:
    """Run ``code`` in a fresh interpreter (numba's cache in ``cache_dir``): the JSON of its
    last line, with the whole process's ``wall`` seconds."""
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", code],
        env=_env(cache_dir),
        capture_output=True,
        text=True,
        timeout=1800,
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
    env = _env()
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
    command_runs: int = 7,
    fit_runs: int = 3,
) -> dict:
    """Cold and warm start-up (seconds), the bare interpreter's start, the app's render, the
    CLI's commands (:func:`commands`) and, when ``cold``, the first fits (:func:`first_fits`).

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
    out["commands"] = commands(command_runs, log)
    if cold and fit_runs:
        out["first_fits"] = first_fits(fit_runs, log)
    return out


# --- issue 32: the CLI's quick commands, and first fits from an empty numba cache -------------

COMMANDS = {  # row -> the interpreter's arguments; every one a whole process
    "olearn --version": ["-m", "olearn", "--version"],
    "olearn --help": ["-m", "olearn", "--help"],
    "olearn list": ["-m", "olearn", "list"],
    'python -c "import sklearn" (a peer\'s import)': ["-c", "import sklearn"],
    "python -c pass (the interpreter alone)": ["-c", "pass"],
}
ESTIMATORS = ("SPAClassifier", "PAClassifier", "AROWClassifier")
SNIPPET = "README snippet (SPA-II on digits) to its score"

_FIT_PROBE = """
import hashlib, json, time
t0 = time.perf_counter()
from sklearn.datasets import load_digits
from olearn.estimators import {name}
X, y = load_digits(return_X_y=True)
t1 = time.perf_counter()
clf = {name}(random_state=0).fit(X, y)  # the defaults, a fixed seed: comparable
t2 = time.perf_counter()
state = clf.coef_.tobytes() + clf.intercept_.tobytes() + clf.predict(X).tobytes()
print(json.dumps({{"imports_s": t1 - t0, "fit_s": t2 - t1,
                  "result": hashlib.sha256(state).hexdigest()}}))
"""


def _spread(samples: list[float]) -> dict:
    return {
        "min": min(samples),
        "median": float(np.median(samples)),
        "max": max(samples),
        "samples": samples,
    }


def commands(runs: int = 7, log: Callable[[str], None] = print) -> dict[str, dict]:
    """Seconds from each command's start to its exit (:data:`COMMANDS`), in ``runs``
    interleaved rounds (each command once per round, so a burst of load hits all of them)
    after one unmeasured round: ``{row: {min, median, max, samples}}``."""
    env = _env()
    samples: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for round_ in range(runs + 1):
        for name, args in COMMANDS.items():
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, *args],
                env=env,
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                check=True,
                timeout=300,
            )
            if round_:
                samples[name].append(time.perf_counter() - start)
    out = {name: _spread(s) for name, s in samples.items()}
    for name, row in out.items():
        log(f"  {name}: median {row['median']:.3f} s")
    return out


def readme_snippet(readme: Path = ROOT / "README.md") -> list[str]:
    """README's "Use the library" example, from its first line to the line that scores."""
    text = readme.read_text(encoding="utf-8")
    block = text.split("## Use the library", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    lines = block.splitlines()
    end = next(i for i, line in enumerate(lines) if line.startswith("clf.score("))
    return lines[: end + 1]


def snippet_probe(lines: list[str]) -> str:
    """``lines`` (README's snippet) as a script that prints, as JSON, the seconds before its
    ``fit`` call (imports, data), from that call to its score, and the result's digest.

    >>> print(snippet_probe(["import x", "clf = x.C().fit(1)", "clf.score(2)"]))
    import hashlib, json, time
    t0 = time.perf_counter()
    import x
    t1 = time.perf_counter()
    clf = x.C().fit(1)
    score = clf.score(2)
    t2 = time.perf_counter()
    state = repr(score).encode() + clf.coef_.tobytes() + clf.intercept_.tobytes()
    print(json.dumps({"imports_s": t1 - t0, "fit_s": t2 - t1, "score": score,
                      "result": hashlib.sha256(state).hexdigest()}))
    """
    fit = next(i for i, line in enumerate(lines) if ".fit(" in line)
    return "\n".join(
        [
            "import hashlib, json, time",
            "t0 = time.perf_counter()",
            *lines[:fit],
            "t1 = time.perf_counter()",
            *lines[fit:-1],
            f"score = {lines[-1]}",
            "t2 = time.perf_counter()",
            "state = repr(score).encode() + clf.coef_.tobytes() + clf.intercept_.tobytes()",
            'print(json.dumps({"imports_s": t1 - t0, "fit_s": t2 - t1, "score": score,',
            '                  "result": hashlib.sha256(state).hexdigest()}))',
        ]
    )


def first_fits(runs: int = 3, log: Callable[[str], None] = print) -> dict[str, dict]:
    """Each default estimator's first ``fit`` on digits, and README's snippet from its ``fit``
    to its score, from an empty numba cache (a new temporary ``NUMBA_CACHE_DIR`` per run and
    row, removed afterwards), then warm on that cache; in ``runs`` interleaved rounds.

    Returns ``{row: {"cold": spread of the fit seconds, "warm": ..., "cold_wall": spread of
    the whole process, "same_result": cold and warm equal bit for bit in every run}}``.
    """
    probes = {name: _FIT_PROBE.format(name=name) for name in ESTIMATORS}
    probes[SNIPPET] = snippet_probe(readme_snippet())
    runs_of: dict[str, list[tuple[dict, dict]]] = {name: [] for name in probes}
    for _ in range(runs):
        for name, code in probes.items():
            with tempfile.TemporaryDirectory(prefix="olearn-numba-cold-") as cache:
                cold, warm = _probe(cache, code), _probe(cache, code)
            runs_of[name].append((cold, warm))
            log(f"  {name}: cold {cold['fit_s']:.2f} s, warm {warm['fit_s']:.2f} s")
    return {
        name: {
            "cold": _spread([c["fit_s"] for c, _ in pairs]),
            "warm": _spread([w["fit_s"] for _, w in pairs]),
            "cold_wall": _spread([c["wall"] for c, _ in pairs]),
            "same_result": all(c["result"] == w["result"] for c, w in pairs),
        }
        for name, pairs in runs_of.items()
    }


def tables(commands_rows: dict | None, fit_rows: dict | None) -> list[str]:
    """The two tables (markdown lines) of :func:`commands` and :func:`first_fits`."""
    from benchmarks.report import _table

    def spread(row: dict) -> str:
        return f"{row['min']:.3f} / {row['median']:.3f} / {row['max']:.3f}"

    lines: list[str] = []
    if commands_rows:
        n = len(next(iter(commands_rows.values()))["samples"])
        lines += [f"Whole processes, seconds (min / median / max of {n}):", ""]
        lines += _table(["command", "wall s"], [[k, spread(v)] for k, v in commands_rows.items()])
    if fit_rows:
        n = len(next(iter(fit_rows.values()))["cold"]["samples"])
        lines += [
            "",
            f"First fit on digits from an empty numba cache, seconds (min / median / max of {n};"
            " the fit call, or the snippet's fit and score; warm: the same on the filled cache):",
            "",
        ]
        lines += _table(
            ["fit", "cold s", "warm s", "cold process wall s", "cold == warm"],
            [
                [k, spread(v["cold"]), spread(v["warm"]), spread(v["cold_wall"])]
                + ["bit for bit" if v["same_result"] else "DIFFERENT"]
                for k, v in fit_rows.items()
            ],
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.startup", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--runs", type=int, default=7, help="rounds of the commands (default 7)")
    parser.add_argument("--fit-runs", type=int, default=3, help="cold first-fit runs per row")
    parser.add_argument("--no-fits", action="store_true", help="the commands only")
    args = parser.parse_args(argv)
    rows = commands(args.runs)
    fits = None if args.no_fits else first_fits(args.fit_runs)
    print("\n".join(["", *tables(rows, fits)]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
