"""``python -m olearn``: list, datasets, reproduce, and one-line errors."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd

from olearn import registry
from olearn.cli import main
from olearn.datasets import _download


def test_list_shows_algorithms_baselines_datasets_and_ids(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for key in registry.keys():
        assert key in out
    for word in (
        "maxent",
        "svm",
        "usps",
        "20news-8",
        "reuters-20",
        "digits",
        "matsushima-table4",
        "n=1,797",
    ):
        assert word in out


def test_datasets_info_prints_the_card(capsys):
    assert main(["datasets", "info", "digits"]) == 0
    out = capsys.readouterr().out
    assert "n_samples" in out and "1797" in out


def test_reproduce_quick_writes_results(tmp_path, capsys):
    code = main(
        [
            "reproduce",
            "matsushima-table4",
            "--datasets",
            "digits",
            "--quick",
            "--algorithms",
            "pa",
            "spa2",
            "--svm",
            "liblinear",
            "--no-progress",
            "--out",
            str(tmp_path),
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "SPA-II" in out and "paper" in out and "Wrote" in out
    table = pd.read_csv(tmp_path / "matsushima-table4.csv")
    assert list(table["algorithm"]) == ["PA", "SPA-II"] * 2  # epochs 1 and 2 (--quick)
    assert list(table["epochs"]) == [1, 1, 2, 2]
    assert {"dataset", "algorithm", "paper", "ours"} <= set(table.columns)
    tests = pd.read_csv(tmp_path / "matsushima-table4-tests.csv")
    assert tests.empty and "p_value" in tests  # no complete pair among PA and SPA-II


def _run(*args):
    return subprocess.run(
        [sys.executable, "-m", "olearn", *args], capture_output=True, text=True, timeout=120
    )


def test_unknown_id_is_one_line_and_nonzero():
    proc = _run("reproduce", "no-such-table")
    assert proc.returncode == 2
    assert proc.stderr.startswith("olearn: error: unknown reproduction 'no-such-table'")
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1


def test_missing_dataset_offline_is_one_line(tmp_path, monkeypatch, capsys):
    # an empty data folder, its own cache, and a download URL nobody listens on
    monkeypatch.setenv("OLEARN_CACHE", str(tmp_path / "cache"))
    monkeypatch.setitem(_download.URLS, "usps.bz2", "http://127.0.0.1:9/usps.bz2")
    code = main(
        [
            "reproduce",
            "matsushima-table4",
            "--datasets",
            "usps",
            "--quick",
            "--data-home",
            str(tmp_path / "data"),
            "--no-progress",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("olearn: error:") and err.count("\n") == 1
    assert "usps.bz2" in err and "127.0.0.1:9" in err


def test_option_a_reproduction_does_not_take(capsys, monkeypatch):
    from olearn.experiments import reproduction

    class Fake:
        @staticmethod
        def run(*, quick=False, jobs=1, progress=None):  # pragma: no cover - never called
            raise AssertionError

    monkeypatch.setattr(reproduction.importlib, "import_module", lambda name: Fake)
    assert main(["reproduce", "matsushima-table4", "--folds", "3"]) == 2
    assert "does not take --folds" in capsys.readouterr().err


def test_bad_grid_is_an_argparse_error():
    proc = _run("reproduce", "matsushima-table4", "--c-grid", "a,b")
    assert proc.returncode == 2 and "expected numbers" in proc.stderr


def test_data_option_reaches_the_loader(tmp_path, capsys):
    import json

    code = main(
        [
            "reproduce",
            "matsushima-table4",
            "--datasets",
            "toy-blobs",
            "--quick",
            "--algorithms",
            "pa",
            "--data-option",
            "toy-blobs:n_samples=90",
            "--data-option",
            "toy-blobs:noise=0.1",
            "--no-progress",
            "--no-curves",
            "--out",
            str(tmp_path),
        ]
    )
    assert code == 0
    details = json.loads((tmp_path / "matsushima-table4.json").read_text())["details"]
    assert details["sizes"]["toy-blobs"]["n_samples"] == 90
    assert details["data_options"] == {"toy-blobs": {"n_samples": 90, "noise": 0.1}}
    assert "loader options" in capsys.readouterr().out


def test_bad_data_option_is_an_argparse_error():
    proc = _run("reproduce", "matsushima-table4", "--data-option", "20news-8")
    assert proc.returncode == 2 and "NAME:KEY=VALUE" in proc.stderr
