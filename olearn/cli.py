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
import os
import sys
from collections.abc import Sequence

from olearn._cli_parser import EXIT_ERROR, build_parser, int_in, version_text

EXIT_BUG = 1  # anything else: a defect to report


def _parser(app_text: bool = True) -> argparse.ArgumentParser:
    """The whole parser (:mod:`olearn._cli_parser`), with ``olearn app --help``'s text (which
    reads the app's settings from the server house), or, for another command, which never
    shows it, a line naming it (``olearn list`` answers sooner)."""
    if not app_text:
        return build_parser("Start the Streamlit app: `olearn app --help` lists its settings.")
    return build_parser(_app_description())


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
    import inspect

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
        return rest, int_in(1, 64)(value)
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
    if argv == ["--version"]:  # at once: neither the parser nor any command's module
        print(version_text())
        return 0
    parser = _parser(app_text=argv[:1] == ["app"])
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
