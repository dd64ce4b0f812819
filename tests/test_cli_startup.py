"""``olearn --version``, ``--help`` and ``list`` answer at once (issue 32, item 2): they import
no heavy library.  Each command runs in a fresh interpreter under ``python -X importtime``,
whose report on stderr names every module the command imported.  How long they take is
measured in ``benchmarks/startup.py``, never asserted here.

Before: building the parser imported the app's launcher, and through it the upload parser
(numpy, scipy); ``list`` imported scikit-learn (the batch baselines), pandas (the table of
reproductions) and scipy (the data layer), and then numpy (the cache's module) every time."""

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
def test_list_imports_no_heavy_library_and_then_not_even_numpy(data, tmp_path):
    """``olearn list``: the registry, the baselines, the reproductions' IDs and the dataset
    cards without scikit-learn, scipy or pandas.  A new user has no archives and no cache
    (the cards' static part, from each corpus's module), and no cache folder, which listing
    does not make; a configured data folder has one.  The first ``list`` there computes the
    toys' and digits' cards (their generator, numpy) and stores them; the next reads them
    (before: generated at every ``list``).  With every archive's card stored too, ``list``
    imports no numpy at all (measured in ``benchmarks/startup.py``)."""
    env = {"OLEARN_CACHE": str(tmp_path / "cache")}
    if data == "new user":
        env["OLEARN_DATA"] = str(tmp_path / "data")
    else:
        (tmp_path / "cache").mkdir()  # a fresh one: the toys' cards are not stored yet
    modules = _olearn("list", **env)
    assert {"olearn.registry", "olearn.experiments.baselines"} <= modules  # it listed them
    assert _heavy(modules, allowed=("numpy",)) == []
    generated = _generates_toys(env)  # a second list
    if data == "new user":
        assert not (tmp_path / "cache").exists()  # listing made no folder
        assert generated  # so the toys' cards are generated again
    else:
        assert not generated  # read, not generated


def _generates_toys(env: dict) -> bool:
    """Whether ``olearn list`` imports the toys' generator (``olearn.datasets.toy``; read
    from ``sys.modules``: ``-X importtime`` did not report that module here)."""
    code = "import sys; from olearn.cli import main; main(['list']); "
    code += "print('olearn.datasets.toy' in sys.modules, file=sys.stderr)"
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": path, **env},
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stderr.strip().splitlines()[-1] == "True"


def test_the_baselines_list_without_scikit_learn_and_fit_with_it():
    """The batch baselines name their class (``"module:Class"``) and import it when used."""
    from olearn.experiments.baselines import BASELINES, learner

    assert [b.estimator_class.__name__ for b in BASELINES.values()] == [
        "LogisticRegression",
        "LinearSVC",
    ]
    assert learner("svm").estimator_class is registry.get("cs-svm").estimator_class
    assert learner("maxent").make(C=3.0).get_params()["C"] == 3.0
