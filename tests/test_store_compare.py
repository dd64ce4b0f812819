"""Learners compared on a store: ``olearn reproduce store-compare --store`` and the Compare
page's store mode (streamlit's AppTest), against each learner fitted on the same chunks
written as a separate store and scored in memory."""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.sparse as sp

from olearn import registry
from olearn.cli import main
from olearn.datasets.store import MANIFEST, open_store, write_store
from olearn.experiments.store_compare import split


def _store(path, n=1200, chunk_rows=200, seed=0):
    rng = np.random.default_rng(seed)
    X = sp.random(n, 40, density=0.15, format="csr", random_state=seed)
    y = np.asarray((X @ rng.normal(size=(40, 3))).argmax(axis=1)).ravel()
    return write_store(X, y, path, chunk_rows=chunk_rows), X, y


def _expected(tmp_path, X, y, key, epochs, n_train):
    """The learner fitted on the training rows as a store of its own, scored in memory."""
    train = write_store(X[:n_train], y[:n_train], tmp_path / f"train-{key}", chunk_rows=200)
    model = registry.get(key).make(epochs=epochs, random_state=0).fit(train)
    return 100.0 * np.mean(model.predict(X[n_train:]) != y[n_train:])


def test_the_split_holds_out_the_last_fifth_of_the_chunks(tmp_path):
    store, _, _ = _store(tmp_path / "s", n=2000, chunk_rows=200)  # 10 chunks: 8 + 2
    train, test = split(store)
    assert (train.ids, test.ids, train.n_rows, test.n_rows) == (list(range(8)), [8, 9], 1600, 400)
    one, _, _ = _store(tmp_path / "one", n=100, chunk_rows=200)
    with pytest.raises(ValueError, match="one chunk"):
        split(one)


def test_reproduce_store_compare_against_separate_stores(tmp_path, capsys):
    _, X, y = _store(tmp_path / "s")  # 6 chunks: 4 train, 2 held out (ceil(6 / 5))
    args = ["reproduce", "store-compare", "--store", str(tmp_path / "s"), "--no-progress"]
    out = tmp_path / "out"
    assert main([*args, "--algorithms", "pa1", "arow", "--epochs", "2", "--out", str(out)]) == 0
    table = json.loads((out / "store-compare.json").read_text())["table"]
    for row in table:
        assert row["ours"] == pytest.approx(_expected(tmp_path, X, y, row["key"], 2, 800))
    assert main(["reproduce", "matsushima-table4", "--store", str(tmp_path / "s")]) == 2
    assert "does not take --store" in capsys.readouterr().err
    assert main([*args, "--store", str(tmp_path / "nothing"), "--out", str(out)]) == 2
    assert main(["list"]) == 0
    listed = capsys.readouterr().out
    assert "Experiments (python -m olearn reproduce ID):\n  store-compare" in listed


@pytest.fixture
def page(tmp_path, monkeypatch):
    pytest.importorskip("streamlit")
    from streamlit.testing.v1 import AppTest

    from tests.app_support import APP, page_file

    monkeypatch.setenv("OLEARN_DATA", str(tmp_path))
    monkeypatch.setenv("OLEARN_APP_RAISE", "1")  # a traceback would fail the test, not hide

    def open_():
        at = AppTest.from_file(str(APP), default_timeout=120)
        at.run()
        at.switch_page(page_file("pages/compare.py")).run()
        at.radio(key="cmp.source").set_value("store").run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    return open_


def test_the_compare_page_on_a_store_and_on_a_damaged_one(tmp_path, page):
    at = page()
    assert any("No store under" in i.value for i in at.info) and not at.error
    _, X, y = _store(tmp_path / "stores" / "good")
    _store(tmp_path / "stores" / "bad")
    manifest = tmp_path / "stores" / "bad" / MANIFEST
    manifest.write_text(manifest.read_text().replace('"rows": 200', '"rows": 201', 1))
    at = page()
    assert at.selectbox(key="cmp.store").options == ["bad", "good"]
    at.selectbox(key="cmp.store").set_value("good").run()
    at.multiselect(key="cmp.store_algos").set_value(["perceptron", "spa1"]).run()
    at.button(key="cmp.store_run").click().run()
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert table.iloc[:, 0].tolist() == ["Perceptron", "SPA-I"]
    for key, error in zip(["perceptron", "spa1"], table["held-out error %"]):
        assert error == pytest.approx(_expected(tmp_path, X, y, key, 1, 800))

    at.selectbox(key="cmp.store").set_value("bad").run()
    at.button(key="cmp.store_run").click().run()
    assert not at.exception
    assert "checksum" in at.error[0].value and "cannot be used" in at.error[0].value
    with pytest.raises(ValueError, match="checksum"):
        open_store(tmp_path / "stores" / "bad")
