"""A reproduction that runs in a lecture hall without the internet (issue 31, item 6):
Matsushima et al. (2010)'s Table 4 protocol on scikit-learn's digits, shipped inside
scikit-learn, with an empty ``OLEARN_DATA`` and every socket refused; the paper's numbers do
not apply to digits, so its paper column is empty and the summary says it is not the paper's
data."""

from __future__ import annotations

import socket

import pytest

from olearn.experiments.reproduction import REPRODUCTIONS, reproduction
from olearn.teaching.reproduce import catalogue


@pytest.fixture
def hall(monkeypatch, tmp_path):
    """No corpora (an empty data folder) and no network."""
    data = tmp_path / "olearn_data"
    data.mkdir()
    monkeypatch.setenv("OLEARN_DATA", str(data))

    def refuse(*args, **kwargs):
        raise OSError("no network in the lecture hall")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    return data


def test_the_digits_reproduction_runs_without_data_or_network(hall):
    result = reproduction("matsushima-digits").run(quick=True)
    table = result.table
    assert set(table["dataset"]) == {"digits"} and table["ours"].notna().all()
    assert table["paper"].isna().all()  # the paper's figures apply only to its own data
    labels = set(table["algorithm"])
    assert {"Perc", "PA", "SPA", "SPA-II", "Maxent", "SVM"} <= labels  # the paper's learners
    assert len(result.tables["claims"]) and len(result.tables["tests"])
    assert "not the paper's data" in result.summary.splitlines()[1]
    assert not any(hall.iterdir())  # nothing fetched into the data folder


def test_the_paper_corpora_reproduction_needs_them(hall):
    """The check can fail: Table 4 on the paper's corpora cannot run in the same hall."""
    with pytest.raises(OSError):
        reproduction("matsushima-table4").run(
            quick=True, datasets=("usps",), curves=False, data_home=str(hall)
        )  # (named: a process that loaded USPS before keeps it in memory under no name)


def test_the_page_offers_the_offline_reproduction_first():
    cat = catalogue().set_index("id")
    assert bool(cat.loc["matsushima-digits", "offline"])
    assert not cat.loc["matsushima-table4", "offline"]
    offline = [i for i in REPRODUCTIONS if cat.loc[i, "offline"]]
    assert offline == ["matsushima-digits"]


streamlit = pytest.importorskip("streamlit")


def test_the_reproduce_page_runs_it_from_its_link_offline(hall, monkeypatch):
    from tests.test_app_pages import assert_clean, open_page

    monkeypatch.setenv("OLEARN_APP_RAISE", "1")
    at = open_page("pages/reproduce.py", {"mode": "quick"})  # no id: the offline one first
    assert_clean(at)
    assert at.selectbox(key="rep.id").value == "matsushima-digits"
    assert at.dataframe  # its table
    assert any("not the paper's data" in m.value for m in at.markdown)
