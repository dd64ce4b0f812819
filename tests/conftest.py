"""Fixtures shared across test files, and the suite's own leftover report.

No test may leave a process or a temporary file behind (``.ci/run`` fails if one does, see
``tests/leftovers.py``).  Two helpers here: Dask's scratch folder goes under pytest's
temporary folder, and at the end of a run the processes started by the suite that are still
alive are listed (``.ci/run``'s check is the one that fails the build).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from tests.browser_support import page, server  # noqa: F401  (fixtures for the browser tests)
from tests.offline_support import offline_browser, offline_server  # noqa: F401  (the same)

_LEFT: list[str] = []

# No background kernel warm-up (olearn._warmup) in the test process: every AppTest runs the
# frame, whose first run would start one. tests/test_warmup.py tests it on its own.
os.environ.setdefault("OLEARN_WARMUP", "0")


@pytest.fixture(scope="session", autouse=True)
def _dask_scratch_in_pytest_tmp(tmp_path_factory):
    """A ``LocalCluster`` made by a test writes ``dask-scratch-space`` into ``$TMPDIR`` and
    leaves it there; send it under pytest's basetemp (subprocesses inherit the variable)."""
    folder = str(tmp_path_factory.mktemp("dask-scratch"))
    previous = os.environ.get("DASK_TEMPORARY_DIRECTORY")
    os.environ["DASK_TEMPORARY_DIRECTORY"] = folder
    if "dask.config" in sys.modules:  # already read its environment: tell it too
        sys.modules["dask.config"].set({"temporary-directory": folder})
    yield
    if previous is None:
        os.environ.pop("DASK_TEMPORARY_DIRECTORY", None)
    else:
        os.environ["DASK_TEMPORARY_DIRECTORY"] = previous


def _descendants() -> list[str]:
    """Live processes under this one, except the resource trackers of multiprocessing and
    loky (one per process, they end with it)."""
    from tests import leftovers

    me = os.getpid()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != me:
            pid = int(entry.name)
            if me in leftovers._ancestors(pid) and leftovers._alive(pid):
                text = leftovers._describe(pid)
                if "resource_tracker" not in text:
                    found.append(text)
    return found


def pytest_make_parametrize_id(config, val, argname):
    """A bytes parameter is named by its length: a gzip or ZIP file made at collection
    carries the time in its header, so its default id (its bytes) differed between two
    pytest-xdist workers that collected a second apart, and xdist refused the run."""
    if isinstance(val, (bytes, bytearray)):
        return f"{len(val)}bytes"
    return None


# -- the fast tier: ``python -m pytest -m fast`` (README, "Tests") ---------------------------
# The exactness of every rule and kernel (the kernel_equality marker: every numba kernel against
# its readable rule; and these files: closed forms against generic QP/optimisers, the rules'
# properties, the printed tables), the registry and architecture checks, and the app's static
# checks (no page is run).  Under 2 minutes on 2 cores with the numba cache filled
# (`olearn warmup`).  CI runs everything.
FAST_FILES = {
    "test_pa_spa_qp.py",
    "test_pa_regression_qp.py",
    "test_pa_spa_properties.py",
    "test_spa_printed_table.py",
    "test_spa_cs_link.py",
    "test_cw_rules.py",
    "test_cw_optimisation.py",
    "test_cw_peer_bugs.py",
    "test_pcvm_math.py",
    "test_cs_svm_core.py",
    "test_sgd_svm_rules.py",
    "test_sample_weight_rules.py",
    "test_weight_scales_rules.py",
    "test_binary_convention.py",
    "test_registry_specs.py",
    "test_import_graph.py",
    "test_private_names.py",
    "test_app_static.py",
    "test_app_i18n.py",
}
NOT_FAST = {  # the tests of those files that run pages (AppTest): 38 s
    "test_app_i18n.py::test_every_visible_word_of_the_page_is_japanese",
    "test_app_i18n.py::test_every_visible_word_of_other_states_is_japanese",
}


# Browser tests that time the app's answer to a key press or race a report against a rerun
# (a fixed wait, or "within 2 s"): .ci/run runs them alone (`-m timed`), the other browser
# files two at a time (one app server per worker: tests/browser_support.py's `server`).
TIMED_FILES = {"test_browser_player.py", "test_browser_walks.py", "test_browser_keys.py"}


# The longest files first (stable: a file's own order is kept): pytest-xdist hands a worker the
# next file as it finishes one, in collection order, so a long file collected last would run
# alone at the end (test_warmup).  Seconds per file, summed by `--durations=0` in a fresh
# clone (2 workers, an empty numba cache); the projector's and the theme's since each opens a
# page once per language and check (their run of the three files, 2 workers); only the order
# depends on them.
LONGEST_FIRST = (
    "test_browser_projector.py",  # 304 s
    "test_browser_theme.py",  # 212 s
    "test_browser.py",  # 208 s
    "test_browser_lesson.py",  # 152 s
    "test_river.py",  # 135 s
    "test_app_pages.py",  # 76 s
    "test_browser_predict.py",  # 75 s
    "test_warmup.py",  # 66 s
    "test_citations.py",  # 58 s
    "test_average.py",  # 53 s
    "test_no_jit.py",  # 51 s
)


# Files that read the same page renders (tests/app_renders.py keeps them for the process)
SAME_WORKER = {
    name: "app-renders"
    for name in ("test_app_i18n.py", "test_citations.py", "test_reproduce_i18n.py")
}


def _file(item) -> str:
    return Path(str(item.fspath)).name


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's, which reads the groups' markers
def pytest_collection_modifyitems(config, items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(_file(item), len(rank)))
    for item in items:
        name = _file(item)
        if name.startswith("test_browser") and not item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.browser)  # (a browser file that forgot its mark)
        elif item.get_closest_marker("browser") and not name.startswith("test_browser"):
            # .ci/run's browser runs collect tests/test_browser*.py only (the rest of the
            # suite's collection costs 15 s a run): a browser test lives in such a file
            raise pytest.UsageError(f"{item.nodeid} is a browser test: name its file test_browser*")
        if name in TIMED_FILES:
            item.add_marker(pytest.mark.timed)
        function = f"{name}::{getattr(item, 'originalname', item.name)}"
        if not (item.get_closest_marker("browser") or item.get_closest_marker("slow")):
            fast = name in FAST_FILES or item.get_closest_marker("kernel_equality")
            if fast and function not in NOT_FAST:
                item.add_marker(pytest.mark.fast)
        # pytest-xdist (`-n 2 --dist loadgroup`, .ci/run): a file's tests stay on one worker
        # (its module fixtures are built once), and so do the files sharing renders
        item.add_marker(pytest.mark.xdist_group(SAME_WORKER.get(name, name)))


def pytest_sessionfinish(session, exitstatus):
    if not Path("/proc").is_dir():
        return
    deadline = time.monotonic() + 3  # processes being stopped by the last teardown
    while (left := _descendants()) and time.monotonic() < deadline:
        time.sleep(0.2)
    _LEFT[:] = left


def pytest_terminal_summary(terminalreporter):
    if _LEFT:
        terminalreporter.section("processes left running by the suite", red=True)
        for line in _LEFT:
            terminalreporter.line(line)
