"""``olearn --version``, ``--help`` and ``list`` answer at once (issue 32, item 2): they import
no heavy library.  Each command runs in a fresh interpreter under ``python -X importtime``,
whose report on stderr names every module the command imported.  How long they take is
measured in ``benchmarks/startup.py``, never asserted here.

Before: building the parser imported the app's launcher, and through it the upload parser
(numpy, scipy); ``list`` imported scikit-learn (the batch baselines), pandas (the table of
reproductions) and scipy (the data layer)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from olearn import registry

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("sklearn", "scipy", "numba", "streamlit", "pandas", "plotly", "numpy")
SUBCOMMANDS = (
    "list",
    "datasets",
    "datasets fetch",
    "datasets info",
    "app",
    "warmup",
    "reproduce",
    "store",
    "store convert",
    "store info",
    "store train",
)


def imported(report: str) -> set[str]:
    """The modules named by ``-X importtime``'s report (``import time: self | cumulative |
    name``, the name indented by its depth).

    >>> sorted(imported("import time: self [us] | cumulative | imported package\\n"
    ...                 "import time:   3 |   5 |   numpy.linalg\\nimport time: 9 | 9 | olearn"))
    ['numpy.linalg', 'olearn']
    """
    names = set()
    for line in report.splitlines():
        if line.startswith("import time:") and "imported package" not in line:
            names.add(line.rpartition("|")[2].strip())
    return names


def _olearn(*argv: str, **env: str) -> set[str]:
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "olearn", *argv],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": path, **env},
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    modules = imported(proc.stderr)
    assert "olearn.cli" in modules  # the report was read: the command's own module is in it
    return modules


def _heavy(modules: set[str], allowed: tuple[str, ...] = ()) -> list[str]:
    """The heavy libraries among ``modules`` (top-level names), but those ``allowed``."""
    return sorted({m.split(".")[0] for m in modules} & set(HEAVY) - set(allowed))


@pytest.mark.parametrize("argv", [["--version"], ["--help"]], ids=" ".join)
def test_version_and_help_import_no_heavy_library_not_even_numpy(argv):
    assert _heavy(_olearn(*argv)) == []


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_commands_help_imports_no_heavy_library(command):
    assert _heavy(_olearn(*command.split(), "--help")) == []


@pytest.mark.parametrize("data", ["new user", "as configured"])
def test_list_imports_no_heavy_library_but_numpy(data, tmp_path):
    """``olearn list``: the registry, the baselines, the reproductions' IDs and the dataset
    cards without scikit-learn, scipy or pandas (numpy draws the toys' and digits' cards).
    A new user has no archives and no cache (the cards' static part, from each corpus's
    module); the configured data folder and cache may hold parsed cards."""
    env = {}
    if data == "new user":
        env = {"OLEARN_DATA": str(tmp_path / "data"), "OLEARN_CACHE": str(tmp_path / "cache")}
    modules = _olearn("list", **env)
    assert {"olearn.registry", "olearn.experiments.baselines"} <= modules  # it listed them
    assert _heavy(modules, allowed=("numpy",)) == []


def test_the_baselines_list_without_scikit_learn_and_fit_with_it():
    """The batch baselines name their class (``"module:Class"``) and import it when used."""
    from olearn.experiments.baselines import BASELINES, learner

    assert [b.estimator_class.__name__ for b in BASELINES.values()] == [
        "LogisticRegression",
        "LinearSVC",
    ]
    assert learner("svm").estimator_class is registry.get("cs-svm").estimator_class
    assert learner("maxent").make(C=3.0).get_params()["C"] == 3.0
