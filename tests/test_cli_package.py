"""The CLI tells the truth about itself: one version, ``python -m olearn`` is ``olearn``,
help for every option, ``olearn app --help`` is olearn's, the cache can be seen and cleaned,
and parsing a corpus is announced."""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

import olearn
from olearn.cli import _parser, main
from olearn.datasets._housekeeping import archive_names

ROOT = Path(__file__).resolve().parents[1]
# what the `olearn` console script runs ([project.scripts] olearn = "olearn.cli:console")
CONSOLE = "import sys; from olearn.cli import console; sys.argv[0] = 'olearn'; console()"
ENTRIES = {
    "olearn": [sys.executable, "-c", CONSOLE],
    "python -m olearn": [sys.executable, "-m", "olearn"],
}


def _env() -> dict[str, str]:
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path}


def test_version_is_the_installed_metadata():
    assert olearn.__version__ == importlib.metadata.version("olearn")


@pytest.mark.parametrize("entry", ENTRIES)
def test_version_flag(entry):
    proc = subprocess.run(
        [*ENTRIES[entry], "--version"], capture_output=True, text=True, env=_env(), timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"olearn {olearn.__version__}"


@pytest.mark.parametrize("entry", ENTRIES)
def test_a_reader_that_leaves_early_is_not_an_error(entry):
    """``olearn list | head``: the pipe's reader is gone before olearn writes; both entries
    end quietly with status 0 (``python -m olearn`` once ended in a BrokenPipeError)."""
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        [*ENTRIES[entry], "list"], stdout=write_end, stderr=subprocess.PIPE, env=_env()
    )
    os.close(write_end)
    os.close(read_end)  # the reader leaves before the first line is written
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert err.decode() == ""


def _actions(parser: argparse.ArgumentParser, prog: str):
    for action in parser._actions:  # argparse has no public walk over its actions
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                yield f"{prog} {name}", helps.get(name)
                yield from _actions(sub, f"{prog} {name}")
        else:
            yield f"{prog} {'/'.join(action.option_strings) or action.dest}", action.help


def test_every_command_and_option_has_help():
    found = list(_actions(_parser(), "olearn"))
    assert len(found) > 30  # the walk reached the sub-commands
    missing = [name for name, text in found if not text or not text.strip()]
    assert not missing, f"no help text: {missing}"


@pytest.mark.parametrize("argv", [["app", "--help"], ["app", "--server.port", "8600", "-h"]])
def test_app_help_is_olearns(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: olearn app")
    assert "--streamlit-help" in out and "--server.maxUploadSize=" in out
    assert len(out.splitlines()) < 40  # not Streamlit's thousands of lines


def test_app_streamlit_help_lists_streamlits_options():
    pytest.importorskip("streamlit")
    proc = subprocess.run(
        [sys.executable, "-m", "olearn", "app", "--streamlit-help"],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "--server.port" in proc.stdout


# --- olearn datasets: sizes and cleaning ------------------------------------------------------


@pytest.fixture
def folders(tmp_path, monkeypatch):
    """A data folder with one archive and a stranger's file; a cache folder with two parsed
    files of olearn, a stale temp file of an interrupted write, and a stranger's file."""
    data, cache = tmp_path / "data", tmp_path / "cache"
    data.mkdir()
    cache.mkdir()
    monkeypatch.setenv("OLEARN_CACHE", str(cache))
    archive = archive_names()[0]
    (data / archive).write_bytes(b"a" * 3000)
    (data / "mine.txt").write_text("keep")
    (cache / "usps-p3-0123456789ab.npz").write_bytes(b"x" * 2048)
    (cache / "usps-p3-0123456789ab.card.json").write_bytes(b"{}")
    stale = cache / ".usps-p3-0123456789ab.npz.olearn-host-1-abcdefgh.tmp"
    stale.write_bytes(b"t")
    os.utime(stale, (0, 0))  # older than the hour: stale whoever wrote it
    (cache / "notes.npz").write_bytes(b"not olearn's")
    return data, cache, archive


def test_datasets_shows_both_folders_and_sizes(folders, capsys):
    data, cache, archive = folders
    assert main(["datasets", "--data-home", str(data)]) == 0
    out = capsys.readouterr().out
    assert f"Data folder: {data}" in out and f"Parse cache: {cache} ($OLEARN_CACHE)" in out
    assert "1 file(s), 2.9 KiB" in out and archive in out  # the archive, not mine.txt
    assert "2 file(s), 2.0 KiB" in out and "usps" in out  # npz + card, not notes.npz


def test_clean_cache_keeps_archives_and_strangers(folders, capsys):
    data, cache, archive = folders
    assert main(["datasets", "--data-home", str(data), "--clean-cache"]) == 0
    out = capsys.readouterr().out
    assert "Removed 3 cache file(s), 2.0 KiB" in out and "archives were kept" in out
    assert sorted(p.name for p in cache.iterdir()) == ["notes.npz"]
    assert sorted(p.name for p in data.iterdir()) == sorted([archive, "mine.txt"])


def test_clean_archives_is_its_own_flag(folders, capsys):
    data, cache, archive = folders
    assert main(["datasets", "--data-home", str(data), "--clean-cache", "--clean-archives"]) == 0
    out = capsys.readouterr().out
    assert "Removed 1 archive(s), 2.9 KiB" in out
    assert sorted(p.name for p in data.iterdir()) == ["mine.txt"]
    assert sorted(p.name for p in cache.iterdir()) == ["notes.npz"]


def test_clean_flags_go_without_an_action(folders, capsys):
    data, _, _ = folders
    assert main(["datasets", "--clean-cache", "info", "digits"]) == 2
    assert "without an action" in capsys.readouterr().err


# --- parsing is announced on stderr -------------------------------------------------------------


def _fake_reproduction(monkeypatch, tmp_path):
    from olearn.datasets._status import parsing
    from olearn.experiments import report, reproduction

    class Fake:
        @staticmethod
        def run(*, quick=False, jobs=1, progress=None):
            with parsing("20news-8", ("20news-bydate.tar.gz",)):
                pass
            return "result"

    monkeypatch.setattr(reproduction.importlib, "import_module", lambda name: Fake)
    monkeypatch.setattr(report, "render", lambda result: "table\n")
    monkeypatch.setattr(report, "write_all", lambda result, out: [])
    return ["reproduce", "matsushima-table4", "--out", str(tmp_path)]


def test_reproduce_says_which_corpus_it_parses(monkeypatch, tmp_path, capsys):
    assert main(_fake_reproduction(monkeypatch, tmp_path)) == 0
    err = capsys.readouterr().err
    assert "olearn: 20news-8: parsing 20news-bydate.tar.gz (first time only" in err
    assert "olearn: 20news-8: parsed in " in err


def test_no_progress_silences_the_parse_messages(monkeypatch, tmp_path, capsys):
    assert main([*_fake_reproduction(monkeypatch, tmp_path), "--no-progress"]) == 0
    assert "parsing" not in capsys.readouterr().err


def test_fetch_announces_a_real_parse(tmp_path, monkeypatch, capsys):
    """usps parsed from its archive into an empty cache: the loader itself announces it."""
    from tests.test_datasets_real import require

    source = require("usps.bz2", "usps.t.bz2")  # a missing archive fails, never skips
    data = tmp_path / "data"
    data.mkdir()
    for f in ("usps.bz2", "usps.t.bz2"):
        (data / f).symlink_to(source / f)
    monkeypatch.setenv("OLEARN_CACHE", str(tmp_path / "cache"))
    assert main(["datasets", "fetch", "usps", "--data-home", str(data)]) == 0
    err = capsys.readouterr().err
    assert "olearn: usps: parsing usps.bz2, usps.t.bz2" in err and "parsed in" in err
