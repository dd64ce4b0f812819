"""``olearn store``: convert a file into an out-of-core store, describe one, train on one.

    olearn store convert train.svm train.store [--format svmlight] [--chunk-rows 65536]
    olearn store info train.store [--verify]
    olearn store train train.store --algorithm pa1 [--epochs 5] [--workers 2] [--test t.store]

``train`` streams the store into the algorithm (one chunk in memory), or, with ``--workers
N``, trains it by iterative parameter mixing on a local Dask cluster of N worker processes
(:class:`olearn.distributed.ParameterMixingClassifier`); it prints the time, rows/s and the
accuracy on ``--test`` (a store) when given.
"""

from __future__ import annotations

import argparse
import time

FORMATS = ("svmlight", "csv", "texts")


def add_parser(sub) -> None:
    store = sub.add_parser("store", help="out-of-core stores: convert, info, train")
    actions = store.add_subparsers(dest="store_action", required=True, metavar="ACTION")
    conv = actions.add_parser("convert", help="convert a file once into a chunked binary store")
    conv.add_argument("source", help="svmlight, CSV, or 'label<TAB>text' lines")
    conv.add_argument("dest", help="the store's folder (an interrupted run resumes)")
    conv.add_argument(
        "--format",
        choices=FORMATS,
        default="svmlight",
        help="the source's format (default: svmlight)",
    )
    conv.add_argument("--chunk-rows", type=int, default=65_536, help="rows per chunk")
    conv.add_argument("--n-features", type=int, default=None, help="svmlight / texts width")
    conv.add_argument("--zero-based", action="store_true", help="svmlight indices from 0")
    conv.add_argument("--label-column", type=int, default=0, help="CSV: the label's column")
    conv.add_argument(
        "--delimiter",
        type=_delimiter,
        default=",",
        help="CSV: one character, or tab, comma, semicolon, pipe (default: comma)",
    )
    conv.add_argument(
        "--labels",
        choices=("auto", "str"),
        default="auto",
        help="auto: int64 when the first chunk's labels are integers, else text; str: text",
    )
    conv.add_argument("--overwrite", action="store_true", help="replace another store there")
    info = actions.add_parser("info", help="describe a store")
    info.add_argument("path", help="the store's folder")
    info.add_argument("--verify", action="store_true", help="check every chunk's SHA-256")
    train = actions.add_parser("train", help="train an online algorithm on a store")
    train.add_argument("path", help="the training store's folder")
    train.add_argument(
        "--algorithm",
        type=_store_algorithm,
        default="pa1",
        help="an online algorithm's registry key (`olearn list`)",
    )
    train.add_argument("--epochs", type=int, default=5, help="passes over the store (default 5)")
    train.add_argument("--workers", type=int, default=0, help="IPM on N worker processes")
    train.add_argument("--test", default=None, help="a test store: report its accuracy")
    train.add_argument("--seed", type=int, default=0, help="the shuffling seed (default 0)")


def _delimiter(value: str) -> str:
    from olearn.datasets._decode import DELIMITER_NAMES

    names = {name: char for char, name in DELIMITER_NAMES.items()}
    value = names.get(value.lower(), value)
    if len(value) != 1:
        raise argparse.ArgumentTypeError(f"{value!r}: one character, or one of {', '.join(names)}")
    return value


def _store_algorithm(value: str) -> str:
    """An algorithm that trains from a store (argparse: anything else is a usage error)."""
    from olearn.experiments.store_compare import check_store_algorithms

    try:
        return check_store_algorithms([value])[0]
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def run(args: argparse.Namespace) -> int:
    from olearn.datasets import store as stores

    if args.store_action == "convert":
        options = {"chunk_rows": args.chunk_rows, "overwrite": args.overwrite, "progress": True,
                   "labels": args.labels}  # fmt: skip
        if args.format == "csv":
            made = stores.convert_csv(args.source, args.dest, label_column=args.label_column,
                                      delimiter=args.delimiter, **options)  # fmt: skip
        elif args.format == "texts":
            width = {"n_features": args.n_features} if args.n_features else {}
            made = stores.convert_texts(args.source, args.dest, **width, **options)
        else:
            made = stores.convert_svmlight(args.source, args.dest, n_features=args.n_features,
                                           zero_based=args.zero_based, **options)  # fmt: skip
        print(made)
        return 0
    if args.store_action == "info":
        print(stores.open_store(args.path, verify=args.verify or None))
        return 0
    return _train(args, stores)


def _train(args, stores) -> int:
    from olearn import registry

    if args.epochs < 1 or args.workers < 0:
        raise ValueError("--epochs must be >= 1 and --workers >= 0")
    spec = registry.get(args.algorithm)
    store = stores.open_store(args.path, progress=args.workers == 0)
    model = spec.make(epochs=args.epochs, random_state=args.seed)
    start = time.perf_counter()
    if args.workers:
        from olearn.distributed import ParameterMixingClassifier

        model = ParameterMixingClassifier(model, epochs=args.epochs, n_workers=args.workers,
                                          random_state=args.seed, progress=True)  # fmt: skip
    model.fit(store)
    seconds = time.perf_counter() - start
    how = f"IPM on {args.workers} workers" if args.workers else "sequential"
    print(f"{spec.name}, {how}: {args.epochs} epochs over {store.n_rows:,} rows in "
          f"{seconds:.1f} s ({store.n_rows * args.epochs / seconds:,.0f} rows/s)")  # fmt: skip
    if args.test:
        X, y = stores.open_store(args.test).to_arrays()
        print(f"test accuracy: {model.score(X, y):.4f} ({len(y):,} rows)")
    return 0
