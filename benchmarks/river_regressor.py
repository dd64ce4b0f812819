"""Per-sample ``learn_one`` of PA regression: ``olearn.river.Regressor`` against River's own
``linear_model.PARegressor`` on River's TrumpApproval stream (1,001 samples, 6 features), raw
and standardised once (fixed dicts), for PA, PA-I and PA-II.

``python -m benchmarks.river_regressor [--rounds R]``.  Each round trains a fresh model of
both contestants on the whole stream, interleaved (a burst of load hits both alike); the table
gives the median microseconds per sample and the median of the per-round ratio River / olearn
(> 1: olearn is faster).  River's model is run as River ships it (its loss maps y to 2y - 1,
see ``olearn/river_regressor.py``; its arithmetic per sample is the same either way).
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


def streams() -> dict[str, list]:
    import numpy as np
    from river import datasets

    data = list(datasets.TrumpApproval())
    names = list(data[0][0])
    M = np.array([[x[n] for n in names] for x, _ in data])
    Z = (M - M.mean(axis=0)) / M.std(axis=0)
    scaled = [(dict(zip(names, row.tolist())), y) for row, (_, y) in zip(Z, data)]
    return {"TrumpApproval": data, "TrumpApproval (standardised)": scaled}


def _seconds(model, stream) -> float:
    start = time.perf_counter()
    for x, y in stream:
        model.learn_one(x, y)
    return time.perf_counter() - start


def run(rounds: int = 15) -> list[dict]:
    from river.linear_model import PARegressor

    from olearn.river import Regressor

    rows = []
    for name, stream in streams().items():
        for mode, key in enumerate(("pa-reg", "pa1-reg", "pa2-reg")):
            theirs, ours = [], []
            for _ in range(rounds):
                theirs.append(_seconds(PARegressor(C=1.0, mode=mode, eps=0.1,
                                                   learn_intercept=False), stream))  # fmt: skip
                ours.append(_seconds(Regressor(key, C=1.0, epsilon=0.1), stream))
            n = len(stream)
            rows.append({
                "stream": name, "rule": key,
                "River us/sample": 1e6 * statistics.median(theirs) / n,
                "olearn us/sample": 1e6 * statistics.median(ours) / n,
                "ratio": statistics.median(a / b for a, b in zip(theirs, ours)),
            })  # fmt: skip
    return rows


def table_lines(rows: list[dict]) -> list[str]:
    """:func:`run`'s rows as a markdown table."""
    lines = [
        "| stream | rule | River PARegressor (us/sample) | olearn Regressor (us/sample) "
        "| River / olearn |",
        "|---|---|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['stream']} | {r['rule']} | {r['River us/sample']:.2f} | "
            f"{r['olearn us/sample']:.2f} | {r['ratio']:.2f}x |"
        )
    return lines


def main(argv=None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args(argv)
    rows = run(args.rounds)
    print("\n".join(table_lines(rows)))
    return rows


if __name__ == "__main__":
    main()
