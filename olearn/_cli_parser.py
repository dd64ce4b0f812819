"""The ``olearn`` command's argument parser (:func:`build_parser`) and its value types.

Kept apart from :mod:`olearn.cli`, which runs the commands: building the parser (on every
``olearn`` call, ``--help`` included) imports no command's module, only argparse and the
``store`` command's parser (:mod:`olearn._store_cli`, as light).  Help texts and choices are
written here; what a command needs is imported when it runs (``tests/test_cli_startup.py``
checks that ``--version``, ``--help`` and ``list`` import no heavy library).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

EXIT_ERROR = 2  # the user can fix it: a bad option, a missing dataset, an unusable folder
SEED_MAX = 2**32 - 1  # numpy's and scikit-learn's largest seed


def version_text() -> str:
    """What ``olearn --version`` prints: the installed package's version (its metadata)."""
    from olearn import __version__

    return f"olearn {__version__}"


class _Version(argparse.Action):
    """``--version``: argparse's version action, but the version is read (from the installed
    metadata) only when the flag is given, not each time the parser is built."""

    def __init__(self, option_strings: list[str], dest: str, help: str | None = None):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text())
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors as one line (``olearn: error: ...``) instead of the usage
    block; sub-commands' parsers are made by the same class."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(EXIT_ERROR, f"olearn: error: {message} (see `{self.prog} --help`)\n")


def build_parser(app_description: str) -> argparse.ArgumentParser:
    """Every command's parser; ``app_description`` is ``olearn app --help``'s text (the
    app's settings, which :mod:`olearn.cli` reads from the server house).  Building it imports
    no command's module: they are imported when the command runs."""
    parser = _Parser(
        prog="olearn", description="Online linear classification: experiments, data and the app."
    )
    parser.add_argument("--version", action=_Version, help="print the version")
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
        description=app_description,
    )
    app.add_argument(
        "--workers",
        type=int_in(1, 64),
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
        "--folds", type=int_in(2), default=None, help="cross-validation folds (paper: 10)"
    )
    rep.add_argument(
        "--epochs", type=_epochs, default=None, help="passes; several report each, e.g. 1,10"
    )
    rep.add_argument(
        "--seed", type=int_in(0, SEED_MAX), default=None, help="seed of folds, shuffles, draws"
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
        "--max-samples", type=int_in(1), default=None, help="stratified subsample size"
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


def int_in(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer in ``[low, high]``.

    >>> int_in(0)("3")
    3
    >>> int_in(0)("-1")
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


def _separated(text: str, kind: type, what: str) -> tuple:
    """``"1,10"`` -> ``(kind("1"), kind("10"))``; empty items are skipped."""
    try:
        return tuple(kind(v) for v in text.split(",") if v.strip())
    except ValueError:
        msg = f"expected {what} separated by commas: {text!r}"
        raise argparse.ArgumentTypeError(msg) from None


def _floats(text: str) -> tuple[float, ...]:
    values = _separated(text, float, "numbers")
    if not values:
        raise argparse.ArgumentTypeError("empty grid")
    return values


def _epochs(text: str) -> int | tuple[int, ...]:
    """``"10"`` -> 10; ``"1,10"`` -> (1, 10)."""
    values = _separated(text, int, "integers")
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
