"""Per-sample ``learn_one``: olearn inside River (:mod:`olearn.river`) against River's own PA.

``python -m benchmarks.river_learn_one [--quick] [--rows N] [--rounds R]``, and a section of
``python -m benchmarks`` (:func:`run`; its rows in the report and the issue-18 target,
olearn's PA-I at least as fast as River's, in :mod:`benchmarks.run`).

Streams of dicts, converted once, untimed: River's own Phishing (two classes, 9 features,
1,250 samples) and ImageSegments (7 classes, 18 features, 2,310 samples), both bundled with
River; sklearn's digits (dense, 64 features, 10 classes) and the first ``--rows`` documents
of 20 Newsgroups (8 classes, tf-idf rows of ``olearn.datasets``; a synthetic sparse stand-in
when ``$OLEARN_DATA`` lacks it).

Contestants.  Two classes (Phishing): River's binary ``PAClassifier(C=1, mode=1,
learn_intercept=False)`` and olearn's PA-I as ``Classifier("pa1", classes=[False, True],
C=0.5)``, the pair the migration page shows equal (the same model and predictions, so the
ratio is the price of one and the same computation), with SPA-I and AROW beside them.  More
classes: River's ``PAClassifier(C=1, mode=1)`` one-vs-rest through
``river.multiclass.OneVsRestClassifier``; olearn's PA-I, SPA-I and AROW through
``olearn.river.Classifier`` (``C = 1`` / ``r = 1``, with an intercept as River's PA has one).
Each round trains a fresh model of every contestant on the whole stream (interleaved, so a
burst of load from other processes hits all alike); the table gives the median samples/s
over rounds and the median of the per-round ratio to River's.  *progressive acc.* is an
untimed extra pass, ``predict_one`` then ``learn_one`` per sample (River's
``progressive_val_score``), so a speed bought with accuracy shows.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if not __package__:  # pragma: no cover - run as a script
    sys.path.insert(0, str(ROOT))

from benchmarks.contestants import _dict_rows  # noqa: E402

RIVER = "River PA-I (OvR)"
RIVER_BINARY = "River PA-I (binary)"


def contestants(binary: bool = False) -> dict:
    """name -> a function making a fresh model; River's first."""
    from river.linear_model import PAClassifier
    from river.multiclass import OneVsRestClassifier

    from olearn.river import Classifier

    if binary:  # the parity pair: one and the same model (C halved: docs/migrating-from-sklearn)
        two = [False, True]
        return {
            RIVER_BINARY: lambda: PAClassifier(C=1.0, mode=1, learn_intercept=False),
            "olearn PA-I": lambda: Classifier("pa1", classes=two, C=0.5),
            "olearn SPA-I": lambda: Classifier("spa1", classes=two, C=0.5),
            "olearn AROW": lambda: Classifier("arow", classes=two, r=1.0),
        }
    return {
        RIVER: lambda: OneVsRestClassifier(PAClassifier(C=1.0, mode=1)),
        "olearn PA-I": lambda: Classifier("pa1", C=1.0, fit_intercept=True),
        "olearn SPA-I": lambda: Classifier("spa1", C=1.0, fit_intercept=True),
        "olearn AROW": lambda: Classifier("arow", r=1.0, fit_intercept=True),
    }


def streams(rows: int, quick: bool) -> list[tuple[str, list, list, bool]]:
    """(name, dicts, labels, binary) of each stream."""
    from river import datasets
    from sklearn.datasets import load_digits

    out = []
    for data, what in (
        (datasets.Phishing(), "two classes"),
        (datasets.ImageSegments(), "7 classes"),
    ):
        pairs = list(data)[: 500 if quick else None]
        binary = what == "two classes"
        name = f"{type(data).__name__} (River, {what})"
        out.append((name, [x for x, _ in pairs], [y for _, y in pairs], binary))
    X, y = load_digits(return_X_y=True)
    n = 300 if quick else X.shape[0]
    out.append(("digits", _dict_rows(X[:n] / 16.0, n), y[:n].tolist(), False))
    if quick:
        from benchmarks.data import quick_sets

        data = quick_sets()[1]
        name = f"{data.name} (synthetic)"
    else:
        from benchmarks.data import load_bench

        data = load_bench("20news-8")
        name = f"20news-8 (first {min(rows, data.n)} rows; {data.source})"
    m = min(rows, data.n)
    out.append((name, _dict_rows(data.X, m), data.y[:m].tolist(), False))
    return out


def _learn(model, xs, ys) -> float:
    start = time.perf_counter()
    for x, y in zip(xs, ys):
        model.learn_one(x, y)
    return time.perf_counter() - start


def progressive_accuracy(model, xs, ys) -> float:
    right = 0
    for x, y in zip(xs, ys):
        right += model.predict_one(x) == y
        model.learn_one(x, y)
    return right / len(ys)


def measure(xs, ys, rounds: int, binary: bool = False) -> list[dict]:
    makers = contestants(binary)
    reference = next(iter(makers))  # River's
    for make in makers.values():  # warm-up: numba's compiled kernels loaded, caches filled
        _learn(make(), xs[:50], ys[:50])
    times: dict[str, list[float]] = {name: [] for name in makers}
    for _ in range(rounds):
        for name, make in makers.items():
            times[name].append(_learn(make(), xs, ys))
    n = len(xs)
    table = []
    for name, make in makers.items():
        ratios = [river / ours for river, ours in zip(times[reference], times[name])]
        table.append(
            {
                "contestant": name,
                "samples_per_s": n / statistics.median(times[name]),
                "ratio_to_river": statistics.median(ratios),
                "ratio_range": (min(ratios), max(ratios)),
                "progressive_accuracy": progressive_accuracy(make(), xs, ys),
            }
        )
    return table


def run(rows: int = 3000, quick: bool = False, rounds: int | None = None, log=print) -> list:
    """Every stream measured: one dict per stream (``stream``, ``samples``,
    ``features_per_sample``, ``rounds``, ``reference``: River's contestant, ``table``:
    :func:`measure`'s rows)."""
    rounds = rounds or (2 if quick else 7)
    results = []
    for name, xs, ys, binary in streams(rows, quick):
        nnz = sum(len(x) for x in xs) / len(xs)
        log(f"learn_one: {name}, {len(xs)} samples, {rounds} rounds")
        results.append(
            {
                "stream": name,
                "samples": len(xs),
                "features_per_sample": nnz,
                "rounds": rounds,
                "reference": RIVER_BINARY if binary else RIVER,
                "table": measure(xs, ys, rounds, binary),
            }
        )
    return results


def table_lines(table: list[dict]) -> list[str]:
    """One stream's rows as a markdown table."""
    lines = [
        "| contestant | learn_one samples/s | x River's (range) | progressive acc. |",
        "|---|---:|---:|---:|",
    ]
    for row in table:
        lo, hi = row["ratio_range"]
        lines.append(
            f"| {row['contestant']} | {row['samples_per_s']:,.0f} | "
            f"{row['ratio_to_river']:.1f} ({lo:.1f}-{hi:.1f}) | "
            f"{100 * row['progressive_accuracy']:.1f}% |"
        )
    return lines


def main(argv=None) -> list[dict]:
    p = argparse.ArgumentParser(prog="python -m benchmarks.river_learn_one")
    p.add_argument("--quick", action="store_true", help="small streams, 2 rounds")
    p.add_argument("--rows", type=int, default=3000, help="20news-8 documents in the stream")
    p.add_argument("--rounds", type=int, default=None, help="interleaved rounds (default 7)")
    args = p.parse_args(argv)
    results = run(args.rows, args.quick, args.rounds, log=lambda _: None)
    for r in results:
        print(
            f"\n{r['stream']}: {r['samples']} samples, {r['features_per_sample']:.0f} features "
            f"per sample, {r['rounds']} rounds"
        )
        print("\n".join(table_lines(r["table"])))
    return results


if __name__ == "__main__":
    main()
