"""The first ``fit`` from an empty numba cache (issue 32, item 1: the first result in seconds).

``python -m benchmarks.first_fit [--runs N] [--cases snippet,pa,...] [--against PATH]``

Each case runs in a fresh interpreter with a fresh, empty ``NUMBA_CACHE_DIR`` (removed
afterwards), timed from the ``fit`` call to the score (the imports are not timed):

- *snippet*: README's "Use the library": digits,
  ``SPAClassifier(variant="II", C=0.01, random_state=0).fit(X[:1500], y[:1500])``, then
  ``score`` on the other 297 rows;
- *spa*, *pa*, *arow*: ``SPAClassifier``, ``PAClassifier``, ``AROWClassifier`` with their default
  hyper-parameters (``random_state=0``) fitted and scored on all of digits.

The table gives wall and CPU seconds, min and median over ``--runs``, then *cached*: the same
case once more in a fresh interpreter whose cache the first run filled, and whether its
``coef_`` and ``intercept_`` equal the first run's bit for bit.  ``--against PATH`` runs a
second checkout (e.g. the commit before: ``git worktree add /tmp/before HEAD~1``) interleaved
with this one, run by run, so that both meet the same load; its columns and the ratio follow,
and whether its models equal ours bit for bit.  On 2 shared cores the load average (printed)
moves the seconds; the ratio is what to compare across runs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CASES = ("snippet", "spa", "pa", "arow")

CHILD = """
import json, sys, time
import numpy as np
from sklearn.datasets import load_digits
from olearn.estimators import AROWClassifier, PAClassifier, SPAClassifier

case, out = sys.argv[1], sys.argv[2]
X, y = load_digits(return_X_y=True)
if case == "snippet":
    make, train, test = (lambda: SPAClassifier(variant="II", C=0.01, random_state=0),
                         slice(0, 1500), slice(1500, None))
else:
    cls = {"spa": SPAClassifier, "pa": PAClassifier, "arow": AROWClassifier}[case]
    make, train, test = (lambda: cls(random_state=0)), slice(None), slice(None)
wall, cpu = time.perf_counter(), time.process_time()
model = make().fit(X[train], y[train])
score = model.score(X[test], y[test])
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
np.savez(out, coef=model.coef_, intercept=model.intercept_)
print(json.dumps({"wall": wall, "cpu": cpu, "score": score}))
"""


def run_once(tree: Path, case: str, cache: Path, out: Path) -> dict:
    """One case in a fresh interpreter of checkout ``tree`` with numba cache ``cache``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(tree), OLEARN_WARMUP="0")
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, case, str(out)],
        env=env,
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"{case} in {tree} failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def same_model(a: Path, b: Path) -> bool:
    """Do two saved models hold the same numbers, bit for bit?"""
    with np.load(a) as x, np.load(b) as y:
        return all(
            x[k].shape == y[k].shape and x[k].tobytes() == y[k].tobytes()
            for k in ("coef", "intercept")
        )


def measure(trees: list[Path], case: str, runs: int, work: Path) -> dict:
    """``{tree: {"first": [...], "cached": {...}, "equal_cached": bool}}`` and whether every
    tree's model equals the first tree's."""
    out: dict = {str(t): {"first": []} for t in trees}
    models = {}
    for r in range(runs):
        for i, tree in enumerate(trees):
            cache = Path(tempfile.mkdtemp(prefix="first-fit-numba-", dir=work))
            model = work / f"{case}-{i}-{r}.npz"
            out[str(tree)]["first"].append(run_once(tree, case, cache, model))
            if r == 0:  # once: the same case again, loading what the first run cached
                again = work / f"{case}-{i}-cached.npz"
                out[str(tree)]["cached"] = run_once(tree, case, cache, again)
                out[str(tree)]["equal_cached"] = same_model(model, again)
                models[i] = model
            shutil.rmtree(cache)
    out["equal_trees"] = all(same_model(models[0], m) for m in models.values())
    return out


def table(results: dict, trees: list[Path]) -> str:
    head = "| case | first fit s, wall min / median | CPU min | cached s | = cached |"
    rule = "|---|---:|---:|---:|:---:|"
    if len(trees) > 1:
        head += " before: wall min / median | CPU min | before / now (CPU min) | = before |"
        rule += "---:|---:|---:|:---:|"
    lines = [head, rule]
    for case, res in results.items():
        cells = []
        for tree in trees:
            r = res[str(tree)]
            wall = [x["wall"] for x in r["first"]]
            cpu = min(x["cpu"] for x in r["first"])
            cells.append((min(wall), statistics.median(wall), cpu, r["cached"]["wall"],
                          r["equal_cached"]))  # fmt: skip
        now = cells[0]
        row = f"| {case} | {now[0]:.2f} / {now[1]:.2f} | {now[2]:.2f} | {now[3]:.2f} | "
        row += f"{'yes' if now[4] else 'NO'} |"
        if len(trees) > 1:
            old = cells[1]
            row += f" {old[0]:.2f} / {old[1]:.2f} | {old[2]:.2f} | {old[2] / now[2]:.1f} | "
            row += f"{'yes' if res['equal_trees'] else 'NO'} |"
        lines.append(row)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh-cache runs per case")
    parser.add_argument("--cases", default=",".join(CASES), help=f"some of {','.join(CASES)}")
    parser.add_argument("--against", type=Path, help="another checkout, run interleaved")
    args = parser.parse_args(argv)
    trees = [ROOT] + ([args.against.resolve()] if args.against else [])
    cases = [c for c in args.cases.split(",") if c]
    unknown = sorted(set(cases) - set(CASES))
    if unknown:
        parser.error(f"unknown case(s) {unknown}; known: {list(CASES)}")
    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="first-fit-") as work:
        results = {case: measure(trees, case, args.runs, Path(work)) for case in cases}
    loads.append(os.getloadavg()[0])
    print(
        f"First fit from an empty numba cache, {args.runs} run(s) per case; load average "
        f"{loads[0]:.1f} at the start, {loads[1]:.1f} at the end; {os.cpu_count()} CPUs"
    )
    if args.against:
        print(f"before: {trees[1]}")
    print(table(results, trees))
    return 0


if __name__ == "__main__":
    sys.exit(main())
