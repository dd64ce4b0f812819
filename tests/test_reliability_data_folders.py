"""A data folder that is a file, empty or absent: the message says which and how to fix it
(issue 22, unclear errors).  Before: "that folder is read-only" for a file, and nothing
pointing at a wrong $OLEARN_DATA for an empty folder."""

from __future__ import annotations

import pytest

from olearn import datasets


@pytest.fixture(autouse=True)
def _no_user_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("OLEARN_CACHE", str(tmp_path / "cache"))


@pytest.mark.parametrize("download", [True, False])
def test_a_data_folder_that_is_a_file(tmp_path, monkeypatch, download):
    a_file = tmp_path / "olearn_data"
    a_file.write_text("not a folder")
    monkeypatch.setenv("OLEARN_DATA", str(a_file))
    with pytest.raises(datasets.DatasetUnavailable) as err:
        datasets.load("usps", download=download)
    message = str(err.value)
    assert f"the data folder {a_file} (from $OLEARN_DATA) is a file, not a folder" in message
    assert "read-only" not in message and "Set OLEARN_DATA" in message


def test_an_empty_data_folder_says_it_holds_no_archives(tmp_path, monkeypatch):
    empty = tmp_path / "data"
    empty.mkdir()
    monkeypatch.setenv("OLEARN_DATA", str(empty))
    with pytest.raises(datasets.DatasetUnavailable, match="holds none of olearn's archives"):
        datasets.load("usps", download=False)
    empty.chmod(0o555)  # read-only and empty: both said
    try:
        with pytest.raises(datasets.DatasetUnavailable) as err:
            datasets.load("usps")
    finally:
        empty.chmod(0o755)
    assert "holds none of olearn's archives" in str(err.value)
    assert "read-only" in str(err.value)


def test_an_absent_folder_and_a_folder_with_other_archives(tmp_path):
    with pytest.raises(datasets.DatasetUnavailable, match="from the data_home argument; that"):
        datasets.load("usps", tmp_path / "nowhere", download=False)
    (tmp_path / "reuters21578.tar.gz").write_bytes(b"x")
    with pytest.raises(datasets.DatasetUnavailable) as err:
        datasets.load("usps", tmp_path, download=False)
    assert "usps.bz2 is not in" in str(err.value) and "none of" not in str(err.value)
