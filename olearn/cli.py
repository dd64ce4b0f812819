"""``olearn`` (or ``python -m olearn``): list algorithms and datasets, fetch data, reproduce
the seeds' tables, start the app.

Commands::

    olearn --version
    olearn list
    olearn datasets [--clean-cache] [--clean-archives]   (folders, sizes, cleaning)
    olearn datasets fetch NAME
    olearn datasets info NAME
    olearn app [STREAMLIT OPTIONS]      (needs the [app] extra; --help: olearn's part)
    olearn warmup [--only PART ...]     (compile and cache the numba kernels now)
    olearn reproduce ID [--datasets A B] [--folds N] [--epochs N] [--jobs N]
                                  [--backend loky|threading|dask] [--scheduler ADDR]
                                  [--scheduler-timeout S] [--quick] [--out results]
    olearn reproduce store-compare --store PATH [--test-store PATH] [--algorithms K ...]
    olearn store convert|info|train ...  (out-of-core stores, olearn._store_cli)

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
    from olearn import __version__

    parser = _Parser(
        prog="olearn", description="Online linear classification: experiments, data and the app."
    )
    parser.add_argument(
        "--version", action="version", version=f"olearn {__version__}", help="print the version"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("list", help="algorithms (registry and batch baselines) and datasets")

    data = sub.add_parser(
        "datasets",
        help="show the data and cache folders and their sizes, clean the cache, fetch a "
        "dataset or show its card",
        description="Without an action: the data folder's archives and the parse cache, with "
        "their sizes.",
    )
    data.add_argument("--data-home", default=None, help="data folder (default $OLEARN_DATA)")
    data.add_argument(
        "--clean-cache",
        action="store_true",
        help="remove the parsed matrices (.npz and cards; parsed again when next needed); "
        "never the archives",
    )
    data.add_argument(
        "--clean-archives",
        action="store_true",
        help="also remove the downloaded archives (downloaded again when next needed)",
    )
    data_sub = data.add_subparsers(dest="action", metavar="ACTION")
    for action, text in (("fetch", "download/verify/parse and cache"), ("info", "show the card")):
        p = data_sub.add_parser(action, help=text)
        p.add_argument("name", help="a dataset name (see `olearn list`)")
        p.add_argument("--data-home", default=None, help="data folder (default $OLEARN_DATA)")

    app = sub.add_parser(
        "app",
        help="start the Streamlit app (needs the [app] extra)",
        usage="olearn app [--workers N] [--streamlit-help] [STREAMLIT OPTIONS]",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=_app_description(),
    )
    app.add_argument(
        "--workers",
        type=_int_in(1, 64),
        default=None,
        metavar="N",
        help="N Streamlit processes behind nginx on one port, with sticky sessions and "
        "compressed static files (needs nginx: apt-get install nginx); --server.port and "
        "--server.address are then the proxy's. Without it: one Streamlit process",
    )
    app.add_argument(
        "--streamlit-help",
        action="store_true",
        help="list Streamlit's own options (`streamlit run --help`) and exit",
    )
    app.add_argument(
        "streamlit_options",
        nargs=argparse.REMAINDER,
        metavar="STREAMLIT OPTIONS",
        help="passed to `streamlit run`, e.g. --server.port 8600 --server.headless true",
    )

    warm = sub.add_parser(
        "warmup",
        help="compile the numba kernels now and cache them on disk (first run only)",
        description="Compile every kernel olearn's estimators and app pages use and save it in "
        "numba's on-disk cache (NUMBA_CACHE_DIR chooses the folder), so that the first fit, "
        "and the first visit of each app page, load compiled code instead of compiling it. "
        "Run it once after installing, e.g. when building a server image.",
    )
    warm.add_argument(
        "--only",
        nargs="+",
        default=None,
        metavar="PART",
        help="warm only the parts whose name contains one of these strings, e.g. 'fit pa'",
    )
    warm.add_argument(
        "--no-progress", dest="show_progress", action="store_false", help="no progress bar"
    )

    from olearn import _store_cli

    _store_cli.add_parser(sub)

    rep = sub.add_parser("reproduce", help="run a paper reproduction by ID")
    rep.add_argument("id", help="e.g. matsushima-table4 (`olearn list` lists them)")
    rep.add_argument(
        "--datasets", nargs="+", default=None, metavar="NAME", help="datasets to run on"
    )
    rep.add_argument(
        "--algorithms",
        nargs="+",
        default=None,
        metavar="KEY",
        help="algorithm keys (registry or batch baselines, see `olearn list`)",
    )
    rep.add_argument(
        "--folds", type=_int_in(2), default=None, help="cross-validation folds (paper: 10)"
    )
    rep.add_argument(
        "--epochs", type=_epochs, default=None, help="passes; several report each, e.g. 1,10"
    )
    rep.add_argument(
        "--seed", type=_int_in(0, SEED_MAX), default=None, help="seed of folds, shuffles, draws"
    )
    rep.add_argument(
        "--tuning",
        choices=("fold", "nested"),
        default=None,
        help="tune C on the tuning fold's test part (paper) or by nested k-fold CV",
    )
    rep.add_argument(
        "--scale",
        choices=("none", "l2"),
        default=None,
        help="row scaling: none, or l2 (unit-length rows)",
    )
    rep.add_argument("--c-grid", type=_floats, default=None, help="online C grid, e.g. 0.01,0.1,1")
    rep.add_argument(
        "--batch-c-grid", type=_floats, default=None, help="the batch learners' C grid, e.g. 1,10"
    )
    rep.add_argument(
        "--max-samples", type=_int_in(1), default=None, help="stratified subsample size"
    )
    rep.add_argument(
        "--svm",
        choices=("auto", "liblinear", "olearn"),
        default=None,
        help="Crammer-Singer SVM solver: LIBLINEAR (scikit-learn), olearn's, or auto",
    )
    rep.add_argument(
        "--fit-intercept",
        action="store_true",
        default=None,
        help="give every learner a bias (default: none, as in the paper)",
    )
    rep.add_argument(
        "--no-curves",
        dest="curves",
        action="store_false",
        default=None,
        help="skip the online learning curves",
    )
    rep.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        help="parallel workers (-1: all CPUs); capped at the CPUs this process may use",
    )
    rep.add_argument(
        "--backend",
        choices=("loky", "threading", "dask"),
        default="loky",
        help="how the fits run in parallel (default loky: processes)",
    )
    rep.add_argument("--scheduler", default=None, help="Dask scheduler address (tcp://...)")
    rep.add_argument(
        "--scheduler-timeout",
        type=_positive_float,
        default=None,
        metavar="S",
        help="seconds to wait for the Dask scheduler to answer and have a worker (default 30)",
    )
    rep.add_argument("--data-home", default=None, help="data folder (default $OLEARN_DATA)")
    rep.add_argument(
        "--data-option",
        dest="data_options",
        action="append",
        type=_data_option,
        default=None,
        metavar="NAME:KEY=VALUE",
        help="a loader option, e.g. 20news-8:remove_headers=false (repeatable)",
    )
    rep.add_argument(
        "--store", default=None, metavar="PATH", help="a training store (store-compare)"
    )
    rep.add_argument(
        "--test-store",
        default=None,
        metavar="PATH",
        help="a test store (default: the training store's last fifth of chunks)",
    )
    rep.add_argument("--quick", action="store_true", help="small, fast version")
    rep.add_argument("--out", default="results", help="results folder (default ./results)")
    rep.add_argument(
        "--no-progress",
        dest="show_progress",
        action="store_false",
        help="no progress bar and no parsing messages on stderr",
    )
    return parser


def _app_description() -> str:
    """``olearn app --help``: what olearn adds to ``streamlit run`` (the app's settings),
    without importing Streamlit."""
    from olearn.app.server.launch import SETTINGS, _flag

    settings = "\n".join(f"  --{name}={_flag(value)}" for name, value in SETTINGS.items())
    return (
        "Start the Streamlit app from the installed package: `streamlit run` on olearn's entry\n"
        "script with the app's settings below. SIGINT/SIGTERM stop the server. From its\n"
        "start the server prepares the pages in the background (imports, default figures,\n"
        "numba kernels; OLEARN_WARMUP=0 turns it off).\n\n"
        f"Settings olearn passes (yours, given later, win):\n{settings}\n\n"
        "Every other option is Streamlit's and is passed on unchanged, e.g.\n"
        "  olearn app --server.port 8600 --server.headless true\n"
        "`olearn app --streamlit-help` lists them (`streamlit run --help`)."
    )


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
    from olearn.experiments.reproduction import EXPERIMENTS, REPRODUCTIONS

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
    print("Experiments (python -m olearn reproduce ID):")
    for rid in EXPERIMENTS:
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

    if args.action is None:
        return _cmd_folders(args)
    if args.clean_cache or args.clean_archives:
        raise ValueError("--clean-cache and --clean-archives go without an action")
    if args.action == "fetch":
        paths = datasets.fetch(args.name, data_home=args.data_home)
        files = ", ".join(str(p) for p in paths) or "embedded, nothing to download"
        print(f"{args.name}: archives ready ({files})")
        with _parse_messages(True):  # parse once, fill the cache
            ds = datasets.load(args.name, data_home=args.data_home)
        print(f"{args.name}: parsed and cached: {ds!r}")
        return 0
    card = datasets.card(args.name, data_home=args.data_home)
    width = max(len(str(k)) for k in card) if card else 0
    for key, value in card.items():
        print(f"{key:<{width}}  {value}")
    return 0


def _cmd_folders(args) -> int:
    """``olearn datasets [--clean-cache] [--clean-archives]``: the data folder and the parse
    cache with their sizes; with a flag, remove those files and say what went."""
    from olearn import datasets

    if args.clean_cache or args.clean_archives:
        removed = datasets.clean_cache(args.data_home, archives=args.clean_archives)
        for usage, what in zip(removed, ("cache file", "archive")):
            print(
                f"Removed {len(usage.files)} {what}(s), {_size(usage.n_bytes)}, from {usage.folder}"
            )
            _print_usage(usage)
        if not args.clean_archives:
            print("The downloaded archives were kept (--clean-archives removes them).")
        return 0
    for usage, title, flag in (
        (datasets.archive_usage(args.data_home), "Data folder", "--clean-archives"),
        (datasets.cache_usage(args.data_home), "Parse cache", "--clean-cache"),
    ):
        print(f"{title}: {usage.folder} ({usage.origin})")
        print(f"  {len(usage.files)} file(s), {_size(usage.n_bytes)}  ({flag} removes them)")
        _print_usage(usage)
    return 0


def _print_usage(usage) -> None:
    rows = [(name, f"{n} file(s)", _size(size)) for name, (n, size) in usage.by_dataset().items()]
    for line in _columns(rows) if rows else []:
        print(f"    {line}")


def _size(n_bytes: int) -> str:
    """Bytes for people.

    >>> _size(0), _size(1536), _size(350 * 2**20)
    ('0 B', '1.5 KiB', '350.0 MiB')
    """
    value = float(n_bytes)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def _parse_messages(enabled: bool):
    """While a corpus is parsed, one line on stderr as it starts and as it ends."""
    from contextlib import nullcontext

    from olearn.datasets._status import listening

    if not enabled:
        return nullcontext()

    def say(name: str, text: str) -> None:
        print(f"olearn: {name}: {text}", file=sys.stderr, flush=True)

    return listening(say)


def _cmd_app(args) -> int:
    if args.streamlit_help:
        import importlib.util
        import subprocess

        if importlib.util.find_spec("streamlit") is None:
            raise ImportError('the app needs the [app] extra: pip install "olearn[app]"')
        return subprocess.call([sys.executable, "-m", "streamlit", "run", "--help"])
    from olearn.app.server.launch import split_public

    split_public(args.streamlit_options)  # a port that is none: one line, before any start
    if args.workers is not None:
        from olearn.app.server.launch import run_workers

        return run_workers(args.workers, args.streamlit_options)
    from olearn.app.server.launch import run

    return run(args.streamlit_options)


_NAMED_ONLY = ("store", "test_store")  # taken only by a run() that names them


def _takes(fn, name: str) -> bool:
    params = inspect.signature(fn).parameters
    if name in _NAMED_ONLY:
        return name in params
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
            "store",
            "test_store",
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
    check = getattr(module, "check_options", None)
    if check is not None:  # the reproduction's own checks of its options, before any work
        check(options)
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
        with _parse_messages(args.show_progress):
            result = module.run(quick=args.quick, jobs=args.jobs, progress=bar, **options)
    finally:
        bar.close()
        if client is not None:
            client.close()
    print(render(result), end="")
    paths = write_all(result, args.out)
    print("Wrote " + ", ".join(str(p) for p in paths))
    return 0


def _cmd_warmup(args) -> int:
    from olearn._warmup import MESSAGE, parts, warm

    print(f"olearn: {MESSAGE}...", file=sys.stderr, flush=True)
    if args.show_progress:
        from tqdm import tqdm

        bar = tqdm(total=len(parts(args.only)), unit="part", file=sys.stderr, leave=False)

        def progress(name: str, i: int, n: int) -> None:
            bar.set_description(name)
            bar.update(i - bar.n)

        seconds = warm(progress, only=args.only)
        bar.close()
    else:
        seconds = warm(only=args.only)
    print(f"olearn: kernels ready in {seconds:.1f} s", file=sys.stderr)
    return 0


def _take_workers(options: list[str], parser) -> tuple[list[str], int | None]:
    """``olearn app``'s own ``--workers N`` (or ``--workers=N``) out of the options that go
    to Streamlit; a bad value is argparse's usage error.

    >>> _take_workers(["--workers", "2", "--server.port", "8600"], None)
    (['--server.port', '8600'], 2)
    """
    rest, value = [], None
    i = 0
    while i < len(options):
        name, eq, text = options[i].partition("=")
        if name == "--workers" and "--" not in options[:i]:
            if not eq:
                text = options[i + 1] if i + 1 < len(options) else ""
                i += 1
            value = text
        else:
            rest.append(options[i])
        i += 1
    if value is None:
        return rest, None
    try:
        return rest, _int_in(1, 64)(value)
    except argparse.ArgumentTypeError as exc:
        if parser is None:
            raise
        parser.parse_args(["app", "--workers", value])  # exits with the usage error
        raise AssertionError(exc) from None


def _one_line(exc: BaseException) -> str:
    text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
    return " ".join(str(text).split()) or type(exc).__name__


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (0 ok, 2 error, 1 unexpected error, 130 Ctrl-C)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    if argv[:1] == ["app"]:  # everything after `app` belongs to `streamlit run`...
        own = argv[1 : argv.index("--") if "--" in argv else len(argv)]
        if "-h" in own or "--help" in own:  # ...but olearn's help comes first
            parser.parse_args(["app", "--help"])
        args = parser.parse_args(["app"])
        args.streamlit_help = "--streamlit-help" in own
        options, args.workers = _take_workers(argv[1:], parser)
        args.streamlit_options = [a for a in options if a != "--streamlit-help"]
    else:
        args = parser.parse_args(argv)
    try:
        if args.command == "list":
            return _cmd_list()
        if args.command == "datasets":
            return _cmd_datasets(args)
        if args.command == "app":
            return _cmd_app(args)
        if args.command == "warmup":
            return _cmd_warmup(args)
        if args.command == "store":
            from olearn import _store_cli

            return _store_cli.run(args)
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
    """The ``olearn`` console script and ``python -m olearn``: :func:`main`, and a reader
    that leaves early (``olearn list | head``) ends the output quietly, not in a traceback."""
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:  # `olearn list | head`: the reader left; not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 0
    except KeyboardInterrupt:  # Ctrl-C while the parser is built, before main's own guard
        print("olearn: interrupted", file=sys.stderr)
        status = 130
    raise SystemExit(status)
