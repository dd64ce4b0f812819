"""``olearn`` (or ``python -m olearn``): list algorithms and datasets, fetch data, reproduce
the seeds' tables, start the app.

Commands::

    olearn list
    olearn datasets fetch NAME
    olearn datasets info NAME
    olearn app [STREAMLIT OPTIONS]      (needs the [app] extra)
    olearn reproduce ID [--datasets A B] [--folds N] [--epochs N] [--jobs N]
                                  [--backend loky|threading|dask] [--scheduler ADDR]
                                  [--scheduler-timeout S] [--quick] [--out results]

Errors print one line on stderr and no traceback: a bad option or value, an unknown ID, a
dataset missing while offline, an unusable results folder (checked before any work) exit with
status 2; an unexpected failure exits with status 1 and asks for a report (set
``OLEARN_DEBUG=1`` to see its traceback).
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
from collections.abc import Callable, Sequence

EXIT_ERROR = 2  # the user can fix it: a bad option, a missing dataset, an unusable folder
EXIT_BUG = 1  # anything else: a defect to report
SEED_MAX = 2**32 - 1  # numpy's and scikit-learn's largest seed


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors as one line (``olearn: error: ...``) instead of the usage
    block; sub-commands' parsers are made by the same class."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(EXIT_ERROR, f"olearn: error: {message} (see `{self.prog} --help`)\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="olearn", description="Online linear classification: experiments, data and the app."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="algorithms (registry and batch baselines) and datasets")

    data = sub.add_parser("datasets", help="fetch a dataset or show its card")
    data_sub = data.add_subparsers(dest="action", required=True)
    for action, text in (("fetch", "download/verify/parse and cache"), ("info", "show the card")):
        p = data_sub.add_parser(action, help=text)
        p.add_argument("name")
        p.add_argument("--data-home", default=None, help="data folder (default $OLEARN_DATA)")

    app = sub.add_parser("app", help="start the Streamlit app (needs the [app] extra)")
    app.add_argument(
        "streamlit_options",
        nargs=argparse.REMAINDER,
        help="passed to `streamlit run`, e.g. --server.port 8600",
    )

    rep = sub.add_parser("reproduce", help="run a paper reproduction by ID")
    rep.add_argument("id", help="e.g. matsushima-table4")
    rep.add_argument("--datasets", nargs="+", default=None)
    rep.add_argument("--algorithms", nargs="+", default=None)
    rep.add_argument("--folds", type=_int_in(2), default=None)
    rep.add_argument(
        "--epochs", type=_epochs, default=None, help="passes; several report each, e.g. 1,10"
    )
    rep.add_argument("--seed", type=_int_in(0, SEED_MAX), default=None)
    rep.add_argument(
        "--tuning",
        choices=("fold", "nested"),
        default=None,
        help="tune C on the tuning fold's test part (paper) or by nested k-fold CV",
    )
    rep.add_argument("--scale", choices=("none", "l2"), default=None)
    rep.add_argument("--c-grid", type=_floats, default=None, help="online C grid, e.g. 0.01,0.1,1")
    rep.add_argument("--batch-c-grid", type=_floats, default=None)
    rep.add_argument(
        "--max-samples", type=_int_in(1), default=None, help="stratified subsample size"
    )
    rep.add_argument("--svm", choices=("auto", "liblinear", "olearn"), default=None)
    rep.add_argument(
        "--fit-intercept",
        action="store_true",
        default=None,
        help="give every learner a bias (default: none, as in the paper)",
    )
    rep.add_argument("--no-curves", dest="curves", action="store_false", default=None)
    rep.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        help="parallel workers (-1: all CPUs); capped at the CPUs this process may use",
    )
    rep.add_argument("--backend", choices=("loky", "threading", "dask"), default="loky")
    rep.add_argument("--scheduler", default=None, help="Dask scheduler address (tcp://...)")
    rep.add_argument(
        "--scheduler-timeout",
        type=_positive_float,
        default=None,
        metavar="S",
        help="seconds to wait for the Dask scheduler to answer and have a worker (default 30)",
    )
    rep.add_argument("--data-home", default=None)
    rep.add_argument(
        "--data-option",
        dest="data_options",
        action="append",
        type=_data_option,
        default=None,
        metavar="NAME:KEY=VALUE",
        help="a loader option, e.g. 20news-8:remove_headers=false (repeatable)",
    )
    rep.add_argument("--quick", action="store_true", help="small, fast version")
    rep.add_argument("--out", default="results", help="results folder (default ./results)")
    rep.add_argument("--no-progress", dest="show_progress", action="store_false")
    return parser


def _int_in(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer in ``[low, high]``.

    >>> _int_in(0)("3")
    3
    >>> _int_in(0)("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected an integer >= 0, got '-1'
    """
    bounds = f">= {low}" if high is None else f"from {low} to {high}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected an integer {bounds}, got {text!r}")
        return value

    return parse


def _jobs(text: str) -> int:
    """``--jobs``: a positive integer, or -1 for every CPU."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1 and value != -1:
        msg = f"expected a positive number of workers, or -1 for all CPUs; got {text!r}"
        raise argparse.ArgumentTypeError(msg)
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def _floats(text: str) -> tuple[float, ...]:
    try:
        values = tuple(float(v) for v in text.split(",") if v.strip())
    except ValueError:
        msg = f"expected numbers separated by commas: {text!r}"
        raise argparse.ArgumentTypeError(msg) from None
    if not values:
        raise argparse.ArgumentTypeError("empty grid")
    return values


def _epochs(text: str) -> int | tuple[int, ...]:
    """``"10"`` -> 10; ``"1,10"`` -> (1, 10)."""
    try:
        values = tuple(int(v) for v in text.split(",") if v.strip())
    except ValueError:
        msg = f"expected integers separated by commas: {text!r}"
        raise argparse.ArgumentTypeError(msg) from None
    if not values:
        raise argparse.ArgumentTypeError("no epochs given")
    if min(values) < 1:
        raise argparse.ArgumentTypeError(f"epochs must be >= 1, got {text!r}")
    return values[0] if len(values) == 1 else values


def _data_option(text: str) -> tuple[str, str, object]:
    """``"20news-8:remove_headers=no"`` -> ``("20news-8", "remove_headers", False)``: the value
    converted to the option's declared type (:func:`olearn.datasets.check_options`), so a
    wrong name, option or value is refused before any work.

    >>> _data_option("20news-8:remove_headers=no")
    ('20news-8', 'remove_headers', False)
    """
    from olearn.datasets import check_options

    name, sep, rest = text.partition(":")
    key, eq, raw = rest.partition("=")
    if not (sep and eq and name and key):
        raise argparse.ArgumentTypeError(f"expected NAME:KEY=VALUE, got {text!r}")
    try:
        return name, key, check_options(name, {key: raw})[key]
    except (ValueError, KeyError) as err:
        raise argparse.ArgumentTypeError(str(err.args[0] if err.args else err)) from None


def _cmd_list() -> int:
    from olearn import registry
    from olearn.experiments.baselines import BASELINES
    from olearn.experiments.reproduction import REPRODUCTIONS

    rows = [("key", "name", "family", "kind", "seed", "tuned")]
    rows += [
        (
            a.key,
            a.name,
            a.family,
            "online" if a.online else "batch",
            a.seed,
            ",".join(a.grid) or "-",
        )
        for a in registry.ALGORITHMS
    ]
    n_algorithms = len(rows)
    rows += [
        (b.key, b.name, b.family, "batch", b.seed, ",".join(b.grid) or "-")
        for b in BASELINES.values()
    ]
    lines = _columns(rows)  # one width per column across both tables
    print("Algorithms (olearn.registry):")
    for line in lines[:n_algorithms]:
        print(f"  {line}")
    print("Batch baselines (Table 4 of seed 000, olearn.experiments.baselines):")
    for line in lines[n_algorithms:]:
        print(f"  {line}")
    print("Datasets (olearn.datasets):")
    for line in _dataset_lines():
        print(f"  {line}")
    print("Reproductions (python -m olearn reproduce ID):")
    for rid in REPRODUCTIONS:
        print(f"  {rid}")
    return 0


def _columns(rows: Sequence[Sequence[str]]) -> list[str]:
    """One line per row, each column as wide as its longest cell.

    Examples
    --------
    >>> _columns([("key", "name", "x"), ("cs-svm", "Crammer-Singer SVM", "C")])
    ['key     name                x', 'cs-svm  Crammer-Singer SVM  C']
    """
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(f"{cell!s:<{w}}" for cell, w in zip(row, widths)).rstrip() for row in rows]


def _dataset_lines() -> list[str]:
    try:
        from olearn import datasets

        names = datasets.names()
    except (ImportError, AttributeError):
        return ["(olearn.datasets.names is not available yet)"]
    rows = []
    for name in names:
        try:
            card = datasets.card(name, build=False)  # never parse a corpus just to list it
        except Exception as exc:  # a card that cannot be computed must not break `list`
            rows.append((name, f"(card unavailable: {_one_line(exc)})", ""))
            continue
        sizes = []
        for label, key in (("n", "n_samples"), ("d", "n_features"), ("K", "n_classes")):
            if card.get(key) is not None:
                sizes.append(
                    f"{label}={card[key]:,}"
                    if isinstance(card[key], int)
                    else f"{label}={card[key]}"
                )
        if card.get("n_test"):
            sizes.append(f"test={card['n_test']:,}")
        text = " ".join(sizes) or "(sizes known once fetched)"
        rows.append((name, text, card.get("title", "")))
    return _columns(rows)


def _cmd_datasets(args) -> int:
    from olearn import datasets

    if args.action == "fetch":
        paths = datasets.fetch(args.name, data_home=args.data_home)
        files = ", ".join(str(p) for p in paths) or "embedded, nothing to download"
        print(f"{args.name}: archives ready ({files})")
        ds = datasets.load(args.name, data_home=args.data_home)  # parse once, fill the cache
        print(f"{args.name}: parsed and cached: {ds!r}")
        return 0
    card = datasets.card(args.name, data_home=args.data_home)
    width = max(len(str(k)) for k in card) if card else 0
    for key, value in card.items():
        print(f"{key:<{width}}  {value}")
    return 0


def _takes(fn, name: str) -> bool:
    params = inspect.signature(fn).parameters
    return name in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


class _Bar:
    """A tqdm bar driven by ``progress(done, total, message)``."""

    def __init__(self, enabled: bool):
        self.bar = None
        self.enabled = enabled

    def __call__(self, done: int, total: int, message: str) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="fit", file=sys.stderr, dynamic_ncols=True)
        self.bar.total = total
        self.bar.n = done
        self.bar.set_postfix_str(message, refresh=False)
        self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _cmd_reproduce(args) -> int:
    from olearn.experiments.engine import SCHEDULER_TIMEOUT, connect, worker_count
    from olearn.experiments.report import check_results_dir, render, write_all
    from olearn.experiments.reproduction import reproduction

    module = reproduction(args.id)
    options = {
        name: getattr(args, name)
        for name in (
            "datasets",
            "algorithms",
            "folds",
            "epochs",
            "seed",
            "tuning",
            "scale",
            "c_grid",
            "batch_c_grid",
            "max_samples",
            "svm",
            "curves",
            "data_home",
            "data_options",
            "fit_intercept",
        )
        if getattr(args, name) is not None
    }
    if "data_options" in options:
        grouped: dict[str, dict] = {}
        for name, key, value in options["data_options"]:
            grouped.setdefault(name, {})[key] = value
        options["data_options"] = grouped
    if args.backend != "loky":
        options["backend"] = args.backend
    if args.scheduler is not None:
        options["scheduler"] = args.scheduler
    unsupported = [n for n in options if not _takes(module.run, n)]
    if unsupported:
        flags = ", ".join("--" + n.replace("_", "-") for n in unsupported)
        raise ValueError(f"reproduction {args.id!r} does not take {flags}")
    check_results_dir(args.out)  # before the work, not after it
    local = args.scheduler is None or args.backend != "dask"
    if local and (args.jobs == -1 or worker_count(args.jobs) < args.jobs):
        print(
            f"olearn: --jobs {args.jobs}: this process may use {worker_count(-1)} CPU(s), "
            f"so {worker_count(args.jobs)} worker(s) run",
            file=sys.stderr,
        )
    client = None
    if args.scheduler is not None and args.backend == "dask":
        # connect once, before the work: no scheduler or no worker is an error in seconds
        timeout = args.scheduler_timeout or SCHEDULER_TIMEOUT
        client = options["scheduler"] = connect(args.scheduler, timeout)
    bar = _Bar(args.show_progress)
    try:
        result = module.run(quick=args.quick, jobs=args.jobs, progress=bar, **options)
    finally:
        bar.close()
        if client is not None:
            client.close()
    print(render(result), end="")
    paths = write_all(result, args.out)
    print("Wrote " + ", ".join(str(p) for p in paths))
    return 0


def _one_line(exc: BaseException) -> str:
    text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
    return " ".join(str(text).split()) or type(exc).__name__


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (0 ok, 2 error, 1 unexpected error, 130 Ctrl-C)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    if argv[:1] == ["app"]:  # everything after `app` belongs to `streamlit run`
        args = parser.parse_args(["app"])
        args.streamlit_options = argv[1:]
    else:
        args = parser.parse_args(argv)
    try:
        if args.command == "list":
            return _cmd_list()
        if args.command == "datasets":
            return _cmd_datasets(args)
        if args.command == "app":
            from olearn.app.launch import run

            return run(args.streamlit_options)
        return _cmd_reproduce(args)
    except KeyboardInterrupt:
        print("olearn: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        raise  # the console script closes quietly (see console())
    except (KeyError, ValueError, OSError, ImportError) as exc:
        print(f"olearn: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_ERROR
    except Exception as exc:  # a defect: still one line, unless asked for the traceback
        if os.environ.get("OLEARN_DEBUG"):
            raise
        print(
            f"olearn: unexpected error: {type(exc).__name__}: {_one_line(exc)} "
            "(please report it; OLEARN_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        return EXIT_BUG


def console() -> None:
    """The ``olearn`` console script."""
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:  # `olearn list | head`: the reader left; not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 0
    raise SystemExit(status)
