"""The out-of-core store (olearn.datasets.store): conversion against independent readers,
resume after an interruption, damage detection, and every online estimator streaming it."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file, load_svmlight_file

from olearn import registry
from olearn.datasets import store as store_mod
from olearn.datasets.hashed import hash_texts
from olearn.datasets.store import (
    convert_csv,
    convert_svmlight,
    convert_texts,
    open_store,
    write_store,
)

STREAMING = [*registry.keys(online=True), "sgd-svm", "sgd-svm-pf"]


def _problem(n=600, d=40, k=3, seed=0):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=0.15, format="csr", random_state=seed)
    y = np.asarray((X @ rng.normal(size=(d, k))).argmax(axis=1)).ravel() + 1
    return X, y


@pytest.fixture
def svm_file(tmp_path):
    X, y = _problem()
    path = tmp_path / "train.svm"
    dump_svmlight_file(X, y, str(path), zero_based=False)
    text = path.read_text().splitlines()
    text.insert(5, "# a comment")
    text.insert(9, "")
    path.write_text("\n".join(text) + "\n")
    return path


@pytest.mark.parametrize("chunk_rows", [50, 599, 10_000])
def test_svmlight_store_equals_scikit_learn_reader(svm_file, tmp_path, chunk_rows):
    X, y = load_svmlight_file(str(svm_file), zero_based=False)
    store = convert_svmlight(svm_file, tmp_path / "s", chunk_rows=chunk_rows)
    assert store.n_chunks == -(-600 // chunk_rows)  # ceil
    Xs, ys = store.to_arrays()
    assert Xs.shape == X.shape and (Xs != X).nnz == 0
    assert np.array_equal(ys, y.astype(np.int64))
    assert store.classes.tolist() == [1, 2, 3]


def test_csv_and_text_stores_equal_their_readers(tmp_path):
    rng = np.random.default_rng(1)
    dense = np.round(rng.normal(size=(50, 4)), 3)
    labels = rng.choice(["spam", "ham"], 50)
    csv = tmp_path / "t.csv"
    csv.write_text("".join(f"{','.join(map(str, r))},{lab}\n" for r, lab in zip(dense, labels)))
    store = convert_csv(csv, tmp_path / "c", chunk_rows=7, label_column=-1)
    Xs, ys = store.to_arrays()
    assert np.array_equal(Xs.toarray(), np.loadtxt(csv, delimiter=",", usecols=range(4)))
    assert ys.tolist() == labels.tolist()

    docs = [f"word{i % 7} other{i % 3} text {i}" for i in range(30)]
    tsv = tmp_path / "t.tsv"
    tsv.write_text("".join(f"{i % 2}\t{doc}\n" for i, doc in enumerate(docs)))
    store = convert_texts(tsv, tmp_path / "h", chunk_rows=8, n_features=2**10)
    Xs, ys = store.to_arrays()
    assert (Xs != hash_texts(docs, False, 2**10)).nnz == 0
    assert ys.tolist() == [i % 2 for i in range(30)]


def _files(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("where", ["before-files", "before-manifest"])
def test_interrupted_conversion_resumes_to_the_identical_store(
    svm_file, tmp_path, monkeypatch, where
):
    reference = _files(convert_svmlight(svm_file, tmp_path / "ref", chunk_rows=64).path)
    calls = {"n": 0}
    real_many, real_save = store_mod.atomic_write_many, store_mod._Writer.save

    def interrupt(*args):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return (real_many if where == "before-files" else real_save)(*args)

    if where == "before-files":
        monkeypatch.setattr(store_mod, "atomic_write_many", interrupt)
    else:  # the chunk's files are written, the manifest does not list them yet
        monkeypatch.setattr(store_mod._Writer, "save", interrupt)
    with pytest.raises(KeyboardInterrupt):
        convert_svmlight(svm_file, tmp_path / "s", chunk_rows=64)
    monkeypatch.undo()
    with pytest.raises(ValueError, match="interrupted"):
        open_store(tmp_path / "s")
    resumed = convert_svmlight(svm_file, tmp_path / "s", chunk_rows=64)
    assert _files(resumed.path) == reference
    assert not [p for p in (tmp_path / "s").iterdir() if p.name.startswith(".")]


def test_damage_and_mismatches_are_clear_errors(svm_file, tmp_path):
    store = convert_svmlight(svm_file, tmp_path / "s", chunk_rows=100)
    chunk = tmp_path / "s" / "chunk-00001.data.npy"
    raw = bytearray(chunk.read_bytes())
    raw[-1] ^= 1
    chunk.write_bytes(bytes(raw))
    with pytest.raises(ValueError, match="checksum mismatch"):
        store.verify()
    with pytest.raises(ValueError, match="checksum mismatch"):
        open_store(tmp_path / "s", verify=True)
    with pytest.raises(ValueError, match="wrong size"):
        chunk.write_bytes(bytes(raw[:-8]))
        open_store(tmp_path / "s")
    with pytest.raises(ValueError, match="other options"):
        convert_svmlight(svm_file, tmp_path / "s", chunk_rows=50)
    manifest = tmp_path / "s" / "manifest.json"
    manifest.write_text(manifest.read_text().replace('"rows": 100', '"rows": 99', 1))
    with pytest.raises(ValueError, match="manifest checksum"):
        open_store(tmp_path / "s")
    bad = tmp_path / "bad.svm"
    bad.write_text("1 1:1\n1 0:2\n")
    with pytest.raises(ValueError, match="index 0"):
        convert_svmlight(bad, tmp_path / "b")
    bad.write_text("1 1:1\n0.5 2:2\n")
    with pytest.raises(ValueError, match="integers"):
        convert_svmlight(bad, tmp_path / "b", overwrite=True)
    bad.write_bytes(b"\x1f\x8b\x08\x00")
    with pytest.raises(ValueError, match="compressed"):
        convert_svmlight(bad, tmp_path / "b", overwrite=True)
    bad.write_bytes(b"1 1:1\n2 \xff:1\n")
    with pytest.raises(ValueError, match="line 2 is not UTF-8"):
        convert_svmlight(bad, tmp_path / "b", overwrite=True)
    with pytest.raises(ValueError, match="not an olearn store"):
        open_store(tmp_path)


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    X, y = _problem(n=900, d=60, k=4, seed=2)
    return X, y, write_store(X, y, tmp_path_factory.mktemp("st"), chunk_rows=250)


@pytest.mark.parametrize("key", STREAMING)
def test_every_online_estimator_streams_a_store_exactly(stored, key):
    X, y, store = stored
    spec = registry.get(key)
    a, b = spec.make(shuffle=False, epochs=2), spec.make(shuffle=False, epochs=2)
    a.fit(X, y)
    b.fit(store)
    _same_state(a, b)
    a, b = spec.make(), spec.make()
    assert np.array_equal(a.learn_stream(X, y), b.learn_stream(store))
    a.partial_fit(X, y)
    b.partial_fit(store)
    _same_state(a, b)


def _same_state(a, b):
    sa, sb = a.get_state(), b.get_state()
    assert sa.keys() == sb.keys()
    for key in sa:
        if key != "params":
            assert np.array_equal(np.asarray(sa[key]), np.asarray(sb[key])), key


def test_shuffled_fit_from_a_store_learns_and_is_seeded(stored):
    X, y, store = stored
    spec = registry.get("pa1")
    a, b = spec.make(random_state=3).fit(store), spec.make(random_state=3).fit(store)
    _same_state(a, b)
    assert a.n_iter_ == a.epochs and a.t_ == a.epochs * X.shape[0]
    assert a.score(X, y) > 0.8


def test_store_arguments_are_checked(stored):
    X, y, store = stored
    clf = registry.get("pa").make()
    with pytest.raises(ValueError, match="without y"):
        clf.fit(store, y)
    with pytest.raises(ValueError, match="sample_weight"):
        clf.partial_fit(store, sample_weight=np.ones(len(y)))
    with pytest.raises(ValueError, match="tol"):
        clf.set_params(tol=1e-3).fit(store)
    with pytest.raises(ValueError, match="chunk_rows"):
        write_store(X, y, "unused", chunk_rows=0)


def _peak(store, clf) -> int:
    tracemalloc.start()
    try:
        clf.fit(store)
        clf.learn_stream(store)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_streaming_memory_is_bounded_by_a_chunk(tmp_path, capsys):
    # the peak over a store 4x longer (15 more chunks) grows by its mistakes array and less
    # than one chunk's data: no chunk is held after its pass (the data of the 15 more chunks
    # would be ~1.9 MB)
    n, d, chunk = 20_000, 500, 1_000
    X = sp.random(n, d, density=0.02, format="csr", random_state=0)
    y = np.arange(n) % 5
    in_memory = X.data.nbytes + X.indices.nbytes + X.indptr.nbytes
    one_chunk = in_memory * chunk // n
    short = write_store(X[: n // 4], y[: n // 4], tmp_path / "short", chunk_rows=chunk)
    long = write_store(X, y, tmp_path / "long", chunk_rows=chunk)
    del X
    clf = registry.get("arow").make(epochs=1)
    clf.fit(short)  # compiled and warmed before measuring
    # the least of 3 peaks: tracemalloc counts every thread's allocations, and a thread left
    # by an earlier test (a closed Dask client's event loop) may allocate during one of them
    peak_short = min(_peak(short, clf) for _ in range(3))
    peak_long = min(_peak(open_store(long.path, progress=True), clf) for _ in range(3))
    assert peak_long - peak_short < n + one_chunk  # (learn_stream's mistakes: a byte a row)
    assert peak_long < in_memory / 3
    assert "row" in capsys.readouterr().err  # the progress bar


def test_the_store_command_converts_describes_and_trains(svm_file, tmp_path, capsys):
    from olearn.cli import main

    dest = str(tmp_path / "cli.store")
    assert main(["store", "convert", str(svm_file), dest, "--chunk-rows", "100"]) == 0
    assert main(["store", "info", dest, "--verify"]) == 0
    assert "600 rows x 40 features" in capsys.readouterr().out
    assert main(["store", "train", dest, "--algorithm", "pa1", "--epochs", "2",
                 "--test", dest]) == 0  # fmt: skip
    out = capsys.readouterr().out
    accuracy = float(out.split("test accuracy: ")[1].split()[0])
    X, y = load_svmlight_file(str(svm_file), zero_based=False)  # the CLI's wiring: the same
    expected = registry.get("pa1").make(epochs=2, random_state=0).fit(open_store(dest))
    expected = expected.score(X, y)  # model as the library's fit(store), scored independently
    assert accuracy == pytest.approx(expected, abs=1e-4)
    assert main(["store", "train", str(tmp_path / "nothing")]) == 2  # a clear error
