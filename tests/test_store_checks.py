"""What a store refuses (issue 30): a damaged or hostile chunk when it is read (item 1), a
hand-edited manifest (15), and, at conversion, what would otherwise be learned wrong or fail
later without a place: labels beyond int64 (9), NaN and infinite values (9), a CSV of another
delimiter (9), indices beyond the reader's 32 bits (12); the store commands' algorithms (14).
The fuzz suites are in ``tests/test_fuzz_stores.py``."""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st

from olearn.cli import main
from olearn.datasets.store import (
    convert_csv,
    convert_svmlight,
    open_store,
    write_store,
)
from olearn.datasets.upload import read_upload
from olearn.estimators import PAClassifier
from olearn.kernels.sparse import CSR_PROBLEMS, csr_problem
from tests.fuzz_support import FUZZ
from tests.store_damage import recompute, write_manifest


@pytest.fixture
def store(tmp_path):
    X = sp.random(40, 6, density=0.4, format="csr", random_state=0)
    return write_store(X, np.arange(40) % 3, tmp_path / "s", chunk_rows=20)


def _rewrite(store, part: str, array: np.ndarray, chunk: int = 1) -> None:
    """Replace one file of a chunk and rewrite the manifest to match (a hostile store)."""
    np.save(store.path / f"chunk-{chunk:05d}.{part}.npy", array, allow_pickle=False)
    recompute(store.path)


def _read(store, part: str, chunk: int = 1) -> np.ndarray:
    return np.load(store.path / f"chunk-{chunk:05d}.{part}.npy")


# ----------------------------------------------------------------- item 1: chunks


def _hostile(store, what: str):
    indptr, indices, data = (_read(store, p) for p in ("indptr", "indices", "data"))
    labels = _read(store, "labels")
    middle = len(indptr) // 2
    if what == "indptr does not start at 0":
        return "indptr", indptr + 1
    if what == "indptr decreases":
        indptr[middle] = indptr[-1] + 5  # also beyond nnz: a read out of bounds
        return "indptr", indptr
    if what == "indptr does not end at the number of stored values":
        indptr[-1] -= 1
        return "indptr", indptr
    if what == "an index is out of range":
        indices[len(indices) // 2] = 6  # = n_features: the intercept's row in a kernel
        return "indices", indices
    if what == "a negative index":
        indices[0] = -(2**31)
        return "indices", indices
    if what == "a value is NaN or infinite":
        data[3] = np.inf
        return "data", data
    if what == "a NaN value":
        data[-1] = np.nan
        return "data", data
    if what == "labels shorter than the rows":
        return "labels", labels[:-1]
    if what == "a label that is no class":
        labels[0] = 7
        return "labels", labels
    if what == "float labels":
        return "labels", labels.astype(np.float64)
    if what == "int64 indices, int32 indptr":
        return "indices", indices.astype(np.int64)
    raise AssertionError(what)


HOSTILE = {
    "indptr does not start at 0": "indptr does not start at 0",
    "indptr decreases": "indptr decreases",
    "indptr does not end at the number of stored values": "does not end at",
    "an index is out of range": "an index is out of range",
    "a negative index": "an index is out of range",
    "a value is NaN or infinite": "NaN or infinite",
    "a NaN value": "NaN or infinite",
    "labels shorter than the rows": "holds shape",
    "a label that is no class": "not among the store's classes",
    "float labels": "float64, not the store's type",
    "int64 indices, int32 indptr": "holds int32, the indices int64",
}


@pytest.mark.parametrize("what", HOSTILE)
def test_a_hostile_chunk_is_refused_by_name_before_scipy_reads_it(store, what):
    part, array = _hostile(store, what)
    _rewrite(store, part, array)
    before = {p.name: p.read_bytes() for p in store.path.iterdir()}
    opened = open_store(store.path)  # the manifest matches the files: only reading finds it
    opened.chunk(0)
    file = "indptr" if what == "int64 indices, int32 indptr" else part
    expected = f"store {store.path}: chunk 1, file chunk-00001.{file}.npy: "
    for read in (lambda: opened.chunk(1), opened.to_arrays, lambda: PAClassifier().fit(opened)):
        with pytest.raises(ValueError) as info:
            read()
        message = str(info.value)
        assert message.startswith(expected) and HOSTILE[what] in message, message
        assert message.endswith("damaged; convert again")
    assert before == {p.name: p.read_bytes() for p in store.path.iterdir()}


def test_damage_that_keeps_the_structure_is_found_by_the_checksum(store):
    file = store.path / "chunk-00001.data.npy"
    raw = bytearray(file.read_bytes())
    raw[-3] ^= 0x01  # a finite value a little different: the structure cannot tell
    file.write_bytes(bytes(raw))
    opened = open_store(store.path)  # sizes only, as before
    with pytest.raises(ValueError, match=r"chunk 1, .*data\.npy: checksum mismatch; damaged"):
        opened.to_arrays()
    assert opened.chunk(0)[0].shape == (20, 6)  # the intact chunk still reads
    # verify=False: no SHA-256 when read (documented: such a value is read as it is), but the
    # structure checks stay
    assert open_store(store.path, verify=False).to_arrays()[0].shape == (40, 6)
    indptr = _read(store, "indptr")
    indptr[3] = 10**6
    np.save(store.path / "chunk-00001.indptr.npy", indptr)  # same size, manifest unchanged
    with pytest.raises(ValueError, match="indptr decreases; damaged; convert again"):
        open_store(store.path, verify=False).to_arrays()


def test_the_damaged_store_command_is_a_clear_error(store, capsys):
    file = store.path / "chunk-00001.indptr.npy"
    raw = bytearray(file.read_bytes())
    raw[-8] ^= 0x40  # a row's end far beyond nnz (SIGSEGV in fit before)
    file.write_bytes(bytes(raw))
    for command in (["store", "info", str(store.path), "--verify"],
                    ["store", "train", str(store.path), "--epochs", "1"],
                    ["store", "train", str(write_store(sp.eye(3), [0, 1, 2], store.path.parent
                     / "ok").path), "--test", str(store.path)]):  # fmt: skip
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "damaged; convert again" in err and "unexpected" not in err, err


@pytest.mark.kernel_equality  # re-run without the JIT (tests/test_no_jit.py)
@FUZZ
@given(
    indptr=st.lists(st.integers(-3, 8), min_size=0, max_size=5),
    indices=st.lists(st.integers(-3, 6), max_size=8),
    values=st.lists(st.sampled_from([0.5, -2.0, np.nan, np.inf, -np.inf, 1e308]), max_size=8),
    n_features=st.integers(0, 5),
)
def test_csr_problem_agrees_with_scipys_full_check(indptr, indices, values, n_features):
    indptr, indices = np.array(indptr, dtype=np.int64), np.array(indices, dtype=np.int32)
    data = np.array(values, dtype=np.float64)
    code = csr_problem(indptr, indices, data, n_features)
    try:  # the reference: scipy's full structure check, and numpy's isfinite
        matrix = sp.csr_matrix((data, indices, indptr), shape=(max(len(indptr) - 1, 0),
                               n_features))  # fmt: skip
        matrix.check_format(full_check=True)
        sound = len(indptr) > 0 and bool(np.all(np.isfinite(data)))
    except ValueError:
        sound = False
    assert (code == 0) == sound, (code, CSR_PROBLEMS[code])


# ----------------------------------------------------------------- item 15: the manifest


def test_hand_edited_manifests_name_the_field(store):
    manifest = json.loads((store.path / "manifest.json").read_text())
    edits = {
        "chunks must be a list, got dict": {**manifest, "chunks": {"0": manifest["chunks"][0]}},
        "the manifest lacks ['label_kind']": {k: v for k, v in manifest.items()
                                              if k != "label_kind"},
        "chunks[1].rows must be an integer": {**manifest, "chunks": [manifest["chunks"][0],
                                              {**manifest["chunks"][1], "rows": "20"}]},
        "n_features = -1 is outside": {**manifest, "n_features": -1},
        "classes are not sorted": {**manifest, "classes": [2, 1, 0]},
        "chunks[0].bytes.indptr = 9 cannot hold": {**manifest, "chunks": [
            {**manifest["chunks"][0], "bytes": {**manifest["chunks"][0]["bytes"], "indptr": 9}},
            manifest["chunks"][1]]},
    }  # fmt: skip
    for expected, edited in edits.items():
        write_manifest(store.path, edited)
        with pytest.raises(ValueError) as info:
            open_store(store.path)
        message = str(info.value).replace('"', "'")
        assert str(store.path / "manifest.json") in message and expected in message, message


def test_a_deep_manifest_is_refused_before_it_is_parsed(store):
    (store.path / "manifest.json").write_text("[" * 200_000 + "]" * 200_000)
    with pytest.raises(ValueError, match="nested deeper than 8 levels"):
        open_store(store.path)
    assert main(["store", "info", str(store.path)]) == 2


# ----------------------------------------------------------------- item 9: conversion


def test_svmlight_labels_beyond_int64_stay_apart_as_in_an_upload(tmp_path):
    labels = ["1e20", "-1e20", "9223372036854775807", "1", "+1", "3.0", "100000000000000000001"]
    text = "".join(f"{lab} {i % 3 + 1}:{i + 1}\n" for i, lab in enumerate(labels * 2))
    source = tmp_path / "big.svm"
    source.write_text(text)
    store = convert_svmlight(source, tmp_path / "s", chunk_rows=100)
    upload = read_upload(text.encode(), "big.svm")  # the upload parser, independently
    assert sorted(store.classes.tolist()) == sorted(np.unique(upload.y).tolist())
    assert len(store.classes) == 6  # 1 and +1 one class, the rest apart
    assert store.to_arrays()[1].tolist() == upload.y.tolist()


def test_a_label_that_no_longer_fits_the_stores_kind_is_refused_by_line(tmp_path):
    source = tmp_path / "late.svm"
    source.write_text("1 1:1\n2 2:1\n# a comment\n\n3 1:1\n1e20 2:1\n")
    with pytest.raises(ValueError, match=r"late\.svm, line 6: label '1e20' is not an integer "
                       r"within int64.*labels='str'"):  # fmt: skip
        convert_svmlight(source, tmp_path / "s", chunk_rows=2)
    store = convert_svmlight(source, tmp_path / "t", chunk_rows=2, labels="str")
    assert store.classes.tolist() == ["1", "100000000000000000000", "2", "3"]
    csv = tmp_path / "late.csv"
    csv.write_text("1,0.5\n2,0.5\n18446744073709551616,1\n")
    with pytest.raises(ValueError, match=r"late\.csv, line 3: label '18446744073709551616'"):
        convert_csv(csv, tmp_path / "c", chunk_rows=2)
    wide = convert_csv(csv, tmp_path / "w", chunk_rows=5)  # one chunk: text labels, exact
    assert wide.classes.tolist() == ["1", "18446744073709551616", "2"]


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400"])
def test_nan_and_infinite_values_are_refused_at_conversion_by_line(tmp_path, value):
    svm = tmp_path / "v.svm"
    svm.write_text(f"1 1:1\n# comment\n\n2 2:1 3:{value}\n")
    with pytest.raises(ValueError, match=r"v\.svm, line 4: feature 3 is -?(nan|inf)"):
        convert_svmlight(svm, tmp_path / "s")
    csv = tmp_path / "v.csv"
    csv.write_text(f"1,2,3\n\n1,{value},3\n")
    with pytest.raises(ValueError, match=rf"v\.csv, line 3, column 2: '{value}' is NaN or inf"):
        convert_csv(csv, tmp_path / "c")


def test_a_csv_of_another_delimiter_is_refused_naming_the_one_that_splits_it(tmp_path, capsys):
    source = tmp_path / "eu.csv"
    source.write_text("1;0.5;2\n2;1.5;0\n" * 3)
    with pytest.raises(ValueError, match=r"eu\.csv, line 1 is a single cell with delimiter ','"
                       r".*semicolon \(';'\) splits the lines into 3 cells"):  # fmt: skip
        convert_csv(source, tmp_path / "s")
    store = convert_csv(source, tmp_path / "s", delimiter=";")
    assert store.n_features == 2 and store.classes.tolist() == [1, 2]
    dest = str(tmp_path / "cli")
    assert main(["store", "convert", str(source), dest, "--format", "csv"]) == 2
    assert "--delimiter semicolon" in capsys.readouterr().err
    assert main(["store", "convert", str(source), dest, "--format", "csv",
                 "--delimiter", "semicolon"]) == 0  # fmt: skip
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("1,2,3\n1,2,3\n1,2\n")
    with pytest.raises(ValueError, match=r"ragged\.csv, line 3 has 2 cells, the file's first"):
        convert_csv(ragged, tmp_path / "r", chunk_rows=2)  # another chunk, another width


def test_a_file_without_features_is_refused(tmp_path):
    source = tmp_path / "labels.svm"
    source.write_text("1\n2\n1\n")
    with pytest.raises(ValueError, match="no line has a feature .*'index:value' pair"):
        convert_svmlight(source, tmp_path / "s")


def test_a_store_wider_than_int32_keeps_its_indices(tmp_path):
    X = sp.csr_matrix(([1.0, 2.0], [5, 2**32 + 1], [0, 1, 2]), shape=(2, 2**33))
    store = write_store(X, [0, 1], tmp_path / "s")  # int32 indices would wrap the second
    assert store.to_arrays()[0].indices.tolist() == [5, 2**32 + 1]


# ----------------------------------------------------------------- item 12: wide indices


def test_an_index_beyond_the_readers_32_bits_is_refused_by_line(tmp_path, capsys):
    source = tmp_path / "wide.svm"
    source.write_text("1 1:1\n2 2147483647:1\n# comment\n1 2147483648:1\n")
    with pytest.raises(ValueError, match=r"wide\.svm, line 4: feature index 2147483648 is "
                       r"beyond 2,147,483,647"):  # fmt: skip
        convert_svmlight(source, tmp_path / "s")
    assert main(["store", "convert", str(source), str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err
    assert "line 4: feature index 2147483648" in err and "unexpected" not in err


# ----------------------------------------------------------------- item 14: algorithms


@pytest.mark.parametrize("key", ["cs-svm", "pcvm", "pcvm-chen"])
def test_store_commands_refuse_batch_algorithms_at_parsing(store, key, capsys, tmp_path):
    with pytest.raises(SystemExit) as info:
        main(["store", "train", str(store.path), "--algorithm", key])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert f"'{key}' is a batch algorithm" in err and "pa1, pa2" in err and "sgd-svm" in err
    out = tmp_path / "results"
    assert main(["reproduce", "store-compare", "--store", str(store.path), "--algorithms",
                 "pa1", key, "--out", str(out), "--no-progress"]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert f"'{key}' is a batch algorithm" in err and "unexpected" not in err
    assert not out.exists()  # refused before any work


def test_every_listed_store_algorithm_trains_from_a_store(store):
    from olearn import registry
    from olearn.experiments.store_compare import store_algorithms

    listed = store_algorithms()
    assert set(registry.keys(online=True)) < set(listed)
    for key in listed:
        registry.get(key).make(epochs=1).fit(store)
