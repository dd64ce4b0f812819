"""Beyond one machine, measured: the store's rows/s and iterative parameter mixing (issue 19).

    python -m benchmarks.mixing            # full: 200k rows curves, 1M rows speed-up (~30 min)
    python -m benchmarks.mixing --quick    # small sizes, a minute: checks the command
    python -m benchmarks.mixing --speedup  # only the speed-up: 3 interleaved rounds, 1M rows

Writes ``results/mixing.md`` (tables, machine load, command), ``results/mixing.json`` and
``results/mixing.html`` (accuracy against epochs, plotly).  Three parts:

1. **Store**: conversion rows/s (svmlight text and a hashed text corpus into a store), and
   training rows/s of one ``partial_fit`` pass (PA-I) from the store against the same rows in
   memory, interleaved repeats, medians.
2. **Accuracy against epochs** on a synthetic bag-of-words problem (50k features, K = 20,
   10% label noise, as in the issue) for Perceptron, PA-I, SPA-I and AROW: sequential
   training (shuffled each epoch), IPM over 2, 4 and 8 shards, and one-shot averaging (each
   shard trained alone for e epochs, mixed once), on iid shards and on label-skewed shards
   (half the rows sorted by label, then cut: each shard is rich in a few classes; with
   ``--disjoint`` all rows, so the shards share no class).  The IPM curves use the
   in-process driver (``client="serial"``), which tests/test_mixing.py shows gives the Dask
   result exactly.
3. **Speed-up** at >= 1M rows: wall clock of ``ParameterMixingClassifier`` on a LocalCluster of
   2 worker processes (2 shards of a store; cluster start excluded, reported apart) against
   sequential ``fit`` from the same store and from memory, equal epochs, with test accuracy;
   with ``--speedup`` (only this part) each method ``--repeats`` times, interleaved, median
   and spread, and IPM's time split (placing shards, compiling, training, mixing, states).

The curves also hold the estimators' own averaging (``average=True``): sequential averaged
training and IPM of the averaged model (:mod:`olearn.distributed.mixing`).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from olearn import registry
from olearn.datasets.store import convert_svmlight, convert_texts, write_store
from olearn.distributed import ParameterMixingClassifier, mix_states
from olearn.distributed._shards import ArrayShard, train_shard

ALGORITHMS = ("perceptron", "pa1", "spa1", "arow")
DISJOINT = False  # --disjoint: skewed shards hold disjoint classes
RESULTS = Path(__file__).resolve().parent.parent / "results"


def bag_of_words(n: int, d: int = 50_000, k: int = 20, seed: int = 0, noise: float = 0.1):
    """``n`` documents of 50 tokens: 15% from their class's 200 topic words, 70% from a
    Zipf background over ``d`` words; L2-normalised counts; ``noise`` of labels replaced."""
    rng = np.random.default_rng(seed)
    topics = np.random.default_rng(12345).integers(0, d, size=(k, 200))  # fixed per (d, k)
    parts, labels = [], []
    for start in range(0, n, 50_000):
        m = min(50_000, n - start)
        y = rng.integers(0, k, m)
        tokens = np.minimum(rng.zipf(1.3, size=(m, 50)) - 1, d - 1)
        topical = rng.random((m, 50)) < 0.15
        tokens[topical] = topics[np.repeat(y, 50).reshape(m, 50), rng.integers(0, 200, (m, 50))][
            topical
        ]
        rows = np.repeat(np.arange(m), 50)
        X = sp.csr_matrix((np.ones(m * 50), (rows, tokens.ravel())), shape=(m, d))
        X.sum_duplicates()
        norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
        X = sp.csr_matrix(sp.diags(1.0 / norms) @ X)
        flip = rng.random(m) < noise
        y[flip] = rng.integers(0, k, flip.sum())
        parts.append(X)
        labels.append(y)
    return sp.vstack(parts, format="csr"), np.concatenate(labels)


def _median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


# ------------------------------------------------------------------------------ 1. store
def bench_store(n: int, folder: Path, repeats: int) -> dict:
    from sklearn.datasets import dump_svmlight_file

    X, y = bag_of_words(n, seed=1)
    svm = folder / "bench.svm"
    dump_svmlight_file(X, y, str(svm), zero_based=False)
    start = time.perf_counter()
    store = convert_svmlight(svm, folder / "svm.store", chunk_rows=65_536, overwrite=True)
    svm_seconds = time.perf_counter() - start

    docs = folder / "bench.tsv"  # a corpus: each token id as a word
    with open(docs, "w") as f:
        for i in range(min(n, 50_000)):
            row = X.indices[X.indptr[i] : X.indptr[i + 1]]
            f.write(f"{y[i]}\t{' '.join(f'w{j}' for j in row)}\n")
    start = time.perf_counter()
    convert_texts(docs, folder / "txt.store", n_features=2**18, overwrite=True)
    text_seconds = time.perf_counter() - start

    spec, classes = registry.get("pa1"), np.unique(y)
    spec.make().partial_fit(X[:100], y[:100], classes=classes)  # compiled before timing
    rounds = {"memory": [], "store": []}
    for _ in range(repeats):  # interleaved: a burst of load hits both alike
        rounds["memory"].append(
            _median_time(lambda: spec.make().partial_fit(X, y, classes=classes), 1)
        )
        rounds["store"].append(
            _median_time(lambda: spec.make().partial_fit(store, classes=classes), 1)
        )
    memory_s, store_s = (float(np.median(rounds[k])) for k in ("memory", "store"))
    return {
        "rows": n,
        "nnz": int(X.nnz),
        "svmlight_rows_per_s": n / svm_seconds,
        "svmlight_mb": svm.stat().st_size / 1e6,
        "texts_rows_per_s": min(n, 50_000) / text_seconds,
        "train_memory_rows_per_s": n / memory_s,
        "train_store_rows_per_s": n / store_s,
        "store_over_memory": memory_s / store_s,
    }


# ------------------------------------------------------------------------- 2. accuracy
def _shards(X, y, n_shards: int, skewed: bool, rng) -> list:
    """``n_shards`` of equal size.  iid: a random split.  Label-skewed: half the rows sorted
    by label and cut in order (shard i gets "its" classes), the other half split at random;
    ``--disjoint``: all rows sorted (the shards' classes do not overlap)."""
    order = rng.permutation(len(y))
    cut = 0 if not skewed else (len(y) if DISJOINT else len(y) // 2)
    by_label = order[:cut][np.argsort(y[order[:cut]], kind="stable")]
    parts = zip(np.array_split(by_label, n_shards), np.array_split(order[cut:], n_shards))
    return [ArrayShard(X[np.r_[a, b]], y[np.r_[a, b]]) for a, b in parts]


def _accuracy(estimator, state, X, y) -> float:
    from sklearn.base import clone

    return float(clone(estimator).set_state(state).score(X, y))


def curves(key: str, data, epochs: int, shard_counts, skewed: bool, seed: int = 0) -> list:
    """Test accuracy after each epoch: rows of (method, shards, epoch, accuracy)."""
    X, y, X_test, y_test = data
    estimator = registry.get(key).make(random_state=seed)
    classes = np.unique(y)
    rng = np.random.default_rng(seed)
    out = []
    sequential = registry.get(key).make(shuffle=False)
    averaged = registry.get(key).make(shuffle=False, average=True)
    for epoch in range(1, epochs + 1):  # sequential: the whole set, reshuffled each epoch
        order = rng.permutation(len(y))
        sequential.partial_fit(X[order], y[order], classes=classes)
        out.append(("sequential", 1, epoch, float(sequential.score(X_test, y_test))))
        averaged.partial_fit(X[order], y[order], classes=classes)
        out.append(("sequential, average", 1, epoch, float(averaged.score(X_test, y_test))))
    avg_estimator = registry.get(key).make(random_state=seed, average=True)
    for S in shard_counts:
        shards = _shards(X, y, S, skewed, rng)

        def seeds(e, S=S):
            return [np.random.SeedSequence([seed, e, i]) for i in range(S)]

        state = None  # IPM: mix after every epoch
        alone = [None] * S  # one-shot: each shard alone, mixed once for evaluation
        for epoch in range(1, epochs + 1):
            results = [train_shard(estimator, state, sh, classes, sd)
                       for sh, sd in zip(shards, seeds(epoch))]  # fmt: skip
            state = mix_states(estimator, [r[0] for r in results], "auto",
                               [r[1] for r in results], base=state)  # fmt: skip
            out.append(("IPM", S, epoch, _accuracy(estimator, state, X_test, y_test)))
            alone = [train_shard(estimator, st, sh, classes, sd)[0]
                     for st, sh, sd in zip(alone, shards, seeds(epoch))]  # fmt: skip
            once = mix_states(estimator, alone, "auto", [1] * S)
            out.append(("one-shot", S, epoch, _accuracy(estimator, once, X_test, y_test)))
        state = None  # IPM of the averaged model (olearn.distributed.mixing: every iterate)
        for epoch in range(1, epochs + 1):
            results = [train_shard(avg_estimator, state, sh, classes, sd)
                       for sh, sd in zip(shards, seeds(epoch))]  # fmt: skip
            state = mix_states(avg_estimator, [r[0] for r in results], "auto",
                               [r[1] for r in results], base=state)  # fmt: skip
            out.append(("IPM, average", S, epoch,
                        _accuracy(avg_estimator, state, X_test, y_test)))  # fmt: skip
        if key == "arow":  # the plain mean, against the precision-weighted rule
            state = None
            for epoch in range(1, epochs + 1):
                results = [train_shard(estimator, state, sh, classes, sd)
                           for sh, sd in zip(shards, seeds(epoch))]  # fmt: skip
                state = mix_states(estimator, [r[0] for r in results], "uniform", base=state)
                out.append(("IPM, plain mean", S, epoch,
                            _accuracy(estimator, state, X_test, y_test)))  # fmt: skip
    return out


# ------------------------------------------------------------------------- 3. speed-up
METHODS = ("sequential, memory", "sequential, store", "IPM 2 workers, store")


def bench_speedup(n: int, folder: Path, epochs: int, keys, repeats: int = 1) -> list:
    """Per algorithm and method: ``repeats`` timed fits, interleaved (one of each method per
    round, the order reversed every other round: a burst of load or a drift hits all alike),
    median and spread; IPM's time split into placing the shards, compiling on the workers,
    training (the slowest shard per epoch), mixing, and the rest (states moving, scheduling)."""
    from distributed import Client, LocalCluster

    X, y = bag_of_words(n + 20_000, seed=2)
    X_test, y_test, X, y = X[n:], y[n:], X[:n], y[:n]
    store = write_store(X, y, folder / "big.store", chunk_rows=65_536)
    start = time.perf_counter()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None)  # fmt: skip
    client = Client(cluster)
    cluster_seconds = time.perf_counter() - start
    rows = []
    try:
        for key in keys:
            spec = registry.get(key)
            spec.make().partial_fit(X[:100], y[:100])  # compiled here before timing
            ParameterMixingClassifier(spec.make(), epochs=1, client=client).fit(
                X[:1000], y[:1000]
            )  # and on the workers (each imports olearn and loads its kernels once)

            def fit(method, spec=spec):
                if method == "sequential, memory":
                    return spec.make(epochs=epochs, random_state=0).fit(X, y)
                if method == "sequential, store":
                    return spec.make(epochs=epochs, random_state=0).fit(store)
                return ParameterMixingClassifier(spec.make(), epochs=epochs, client=client,
                                                 n_shards=2, random_state=0).fit(store)  # fmt: skip

            times = {m: [] for m in METHODS}
            models, profiles = {}, []
            for r in range(repeats):
                for method in METHODS if r % 2 == 0 else METHODS[::-1]:
                    begin = time.perf_counter()
                    models[method] = fit(method)
                    times[method].append(time.perf_counter() - begin)
                    if method.startswith("IPM"):
                        profiles.append(_profile(models[method], times[method][-1]))
            base = float(np.median(times["sequential, memory"]))
            for method in METHODS:
                t = np.array(times[method])
                row = {
                    "algorithm": spec.name, "method": method, "rows": n, "epochs": epochs,
                    "nnz": int(X.nnz), "repeats": repeats, "seconds": float(np.median(t)),
                    "seconds_min": float(t.min()), "seconds_max": float(t.max()),
                    "speedup": base / float(np.median(t)),
                    "speedup_over_store": float(np.median(times["sequential, store"]))
                    / float(np.median(t)),
                    "rows_per_s": n * epochs / float(np.median(t)),
                    "accuracy": float(models[method].score(X_test, y_test)),
                }  # fmt: skip
                if method.startswith("IPM"):
                    row["profile"] = {k: float(np.median([p[k] for p in profiles]))
                                      for k in profiles[0]}  # fmt: skip
                rows.append(row)
    finally:
        client.close()
        cluster.close()
    for row in rows:
        row["cluster_start_s"] = cluster_seconds
    return rows


def _profile(ipm, seconds: float) -> dict:
    """Where one IPM fit's seconds went."""
    h = ipm.history_
    parts = {
        "put": ipm.setup_seconds_["put"],
        "warm": ipm.setup_seconds_["warm"],
        "train": sum(e["train_seconds"] for e in h),
        "mix": sum(e["mix_seconds"] for e in h),
        "states": sum(e["seconds"] - e["train_seconds"] - e["mix_seconds"] for e in h),
    }
    parts["other"] = seconds - sum(parts.values())
    return parts


# ------------------------------------------------------------------------------ report
def _figure(curve_rows: list, path: Path, plotly_js: str = "cdn") -> None:
    """The accuracy curves as plotly HTML; ``plotly_js="plotly.min.js"`` for the docs site
    (its ``_static`` holds plotly.js: nothing fetched)."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    titles = [f"{registry.get(k).name}, {s}" for k in ALGORITHMS for s in ("iid", "skewed")]
    fig = make_subplots(rows=len(ALGORITHMS), cols=2, subplot_titles=titles, shared_xaxes=True)
    colours = {"sequential": "#000000", "IPM": "#1f77b4", "one-shot": "#d62728",
               "IPM, plain mean": "#2ca02c", "sequential, average": "#7f7f7f",
               "IPM, average": "#9467bd"}  # fmt: skip
    dashes = {1: "solid", 2: "dot", 4: "dash", 8: "solid"}
    for r, key in enumerate(ALGORITHMS, start=1):
        for c, split in enumerate(("iid", "skewed"), start=1):
            mine = [row for row in curve_rows if row["key"] == key and row["split"] == split]
            for method, S in sorted({(row["method"], row["shards"]) for row in mine}):
                pts = [row for row in mine if (row["method"], row["shards"]) == (method, S)]
                fig.add_trace(go.Scatter(
                    x=[p["epoch"] for p in pts], y=[p["accuracy"] for p in pts],
                    name=f"{method} ({S} shard{'s' if S > 1 else ''})",
                    legendgroup=f"{method}{S}", showlegend=(r == 1 and c == 1),
                    line={"color": colours[method], "dash": dashes[S],
                          "width": 3 if S == 8 else 1.5},
                ), row=r, col=c)  # fmt: skip
    fig.update_layout(height=260 * len(ALGORITHMS), title="Test accuracy against epochs")
    fig.update_xaxes(title_text="epoch", row=len(ALGORITHMS))
    fig.write_html(path, include_plotlyjs=plotly_js)


def _markdown(report: dict) -> str:
    lines = [
        "# Beyond one machine: the store and iterative parameter mixing",
        "",
        f"Command: `{report['command']}`  ",
        f"Machine: {report['machine']}; load average before / after: {report['load_before']} / "
        f"{report['load_after']}",
        "",
    ]
    s = report.get("store")
    if s:
        lines += [
            f"## Store ({s['rows']:,} rows, {s['nnz']:,} non-zeros)",
            "",
            "| what | rows/s |",
            "|---|---:|",
            f"| convert svmlight text ({s['svmlight_mb']:.0f} MB) | "
            f"{s['svmlight_rows_per_s']:,.0f} |",
            f"| convert a text corpus (hashed) | {s['texts_rows_per_s']:,.0f} |",
            f"| train PA-I, rows in memory | {s['train_memory_rows_per_s']:,.0f} |",
            f"| train PA-I, rows from the store | {s['train_store_rows_per_s']:,.0f} |",
            "",
            f"Store / in-memory training speed: **{s['store_over_memory']:.2f}**.",
            "",
        ]  # fmt: skip
    if report.get("speedup"):
        reps = report["speedup"][0]["repeats"]
        lines += ["## Speed-up (2 worker processes)", "",
                  f"{reps} interleaved repetitions per method; median seconds (min-max).", "",
                  "| algorithm | method | rows | epochs | seconds | x sequential (memory) | "
                  "x sequential (store) | rows/s | test accuracy |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
        for r in report["speedup"]:
            lines.append(
                f"| {r['algorithm']} | {r['method']} | {r['rows']:,} | {r['epochs']} | "
                f"{r['seconds']:.2f} ({r['seconds_min']:.2f}-{r['seconds_max']:.2f}) | "
                f"{r['speedup']:.2f} | {r['speedup_over_store']:.2f} | "
                f"{r['rows_per_s']:,.0f} | {r['accuracy']:.3f} |"
            )
        lines += ["", "Where IPM's seconds go (medians): placing the shards, compiling on the "
                  "workers, training (the slowest shard, summed over epochs), mixing, moving "
                  "states and scheduling, the rest (driver).", "",
                  "| algorithm | put | warm | train | mix | states | other |",
                  "|---|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
        for r in report["speedup"]:
            if "profile" in r:
                p = r["profile"]
                lines.append(f"| {r['algorithm']} | " + " | ".join(
                    f"{p[k]:.2f}" for k in ("put", "warm", "train", "mix", "states", "other")
                ) + " |")  # fmt: skip
        lines += ["", "Cluster start (in none of the figures): "
                  f"{report['speedup'][0]['cluster_start_s']:.1f} s.", ""]  # fmt: skip
    if report.get("curves"):
        last = max(r["epoch"] for r in report["curves"])
        lines += [f"## Test accuracy after {last} epochs", "",
                  "| algorithm | split | method | shards | accuracy |",
                  "|---|---|---|---:|---:|"]  # fmt: skip
        for r in report["curves"]:
            if r["epoch"] == last:
                lines.append(f"| {registry.get(r['key']).name} | {r['split']} | {r['method']} | "
                             f"{r['shards']} | {r['accuracy']:.3f} |")  # fmt: skip
        lines += ["", "Curves: `results/mixing.html`.", ""]
    return "\n".join(lines) + "\n"


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (checks the command)")
    parser.add_argument("--skip", default="", help="comma-separated: store,curves,speedup")
    parser.add_argument("--out", default=str(RESULTS))
    parser.add_argument("--disjoint", action="store_true", help="skewed shards: no shared class")
    parser.add_argument(
        "--speedup",
        action="store_true",
        help="only the speed-up, each method --repeats times, interleaved (median, spread)",
    )
    parser.add_argument("--repeats", type=int, default=3, help="--speedup: rounds (default 3)")
    parser.add_argument("--rows", type=int, default=1_000_000, help="--speedup: training rows")
    parser.add_argument("--algorithms", default="pa1,arow", help="--speedup: registry keys")
    parser.add_argument(
        "--docs-figure",
        action="store_true",
        help="only redraw docs/_static/mixing-curves.html from results/mixing.json",
    )
    args = parser.parse_args(argv)
    global DISJOINT
    DISJOINT = args.disjoint
    if args.docs_figure:
        rows = json.loads((Path(args.out) / "mixing.json").read_text())["curves"]
        target = RESULTS.parent / "docs" / "_static" / "mixing-curves.html"
        _figure(rows, target, plotly_js="plotly.min.js")
        return {"curves": rows}
    skip = set(filter(None, args.skip.split(",")))
    if args.speedup:
        skip = {"store", "curves"}
    q = args.quick
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report = {
        "command": "python -m benchmarks.mixing"
        + (" --quick" if q else "")
        + (
            f" --speedup --repeats {args.repeats} --rows {args.rows} --algorithms {args.algorithms}"
            if args.speedup
            else ""
        )
        + (f" --skip {args.skip}" if args.skip else "")
        + (" --disjoint" if args.disjoint else ""),
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
        "load_before": " ".join(f"{v:.2f}" for v in os.getloadavg()),
    }
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if "store" not in skip:
            report["store"] = bench_store(20_000 if q else 200_000, folder, 3 if q else 5)
            print(json.dumps(report["store"], indent=1))
        if "curves" not in skip:
            n = 10_000 if q else 200_000
            X, y = bag_of_words(n + n // 5, seed=3)
            data = (X[:n], y[:n], X[n:], y[n:])
            report["curves"] = []
            for key in ALGORITHMS:
                for split in ("iid", "skewed"):
                    for method, S, e, acc in curves(key, data, 2 if q else 5, (2, 4, 8),
                                                    split == "skewed"):  # fmt: skip
                        report["curves"].append({"key": key, "split": split, "method": method,
                                                 "shards": S, "epoch": e,
                                                 "accuracy": acc})  # fmt: skip
                print(key, "curves done", flush=True)
            _figure(report["curves"], out / "mixing.html")
        if "speedup" not in skip:
            keys = ("pa1",) if q else tuple(args.algorithms.split(","))
            rows = 30_000 if q else args.rows
            repeats = args.repeats if args.speedup or q else 1
            report["speedup"] = bench_speedup(rows, folder, 2 if q else 3, keys, repeats)
            print(json.dumps(report["speedup"], indent=1))
    report["load_after"] = " ".join(f"{v:.2f}" for v in os.getloadavg())
    (out / "mixing.json").write_text(json.dumps(report, indent=1))
    (out / "mixing.md").write_text(_markdown(report))
    print(_markdown(report))
    return report


if __name__ == "__main__":
    main()
