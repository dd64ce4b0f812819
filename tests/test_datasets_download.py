"""Downloads against a local HTTP server on 127.0.0.1 (no external network).

The server serves small archives made here: LIBSVM-format ``usps.bz2``/``usps.t.bz2`` files
(so the whole load path -- download, verification, parse, cache -- runs end to end) and a
small ``.tar.gz`` with a ``members.sha256`` list.  ``URLS`` entries are pointed at it with
``monkeypatch``; the loaders themselves are unchanged.
"""

from __future__ import annotations

import bz2
import hashlib
import http.server
import io
import socket
import tarfile
import threading
from pathlib import Path

import numpy as np
import pytest

from olearn import datasets
from olearn.datasets import _download
from olearn.datasets._base import DatasetUnavailable


class _Handler(http.server.BaseHTTPRequestHandler):
    routes: dict[str, tuple[bytes, int | None]] = {}  # path -> (body, announced length)

    def do_GET(self):  # noqa: N802 (http.server's name)
        if self.path not in self.routes:
            self.send_error(404)
            return
        body, length = self.routes[self.path]
        self.send_response(200)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()
        self.close_connection = True

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    """A threaded HTTP server on a free loopback port; yields (base URL, routes dict)."""
    routes: dict[str, tuple[bytes, int | None]] = {}
    handler = type("Handler", (_Handler,), {"routes": routes})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", routes
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


def _usps_like(n: int, seed: int) -> tuple[bytes, np.ndarray, np.ndarray]:
    """A bz2 LIBSVM file in USPS's convention (label = digit + 1, 256 features)."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.uniform(-1, 1, size=(n, 256)), 3)
    X[X < -0.5] = 0.0
    digits = np.arange(n) % 10
    lines = [
        " ".join([str(d + 1)] + [f"{j + 1}:{v:g}" for j, v in enumerate(row) if v != 0])
        for d, row in zip(digits, X)
    ]
    return bz2.compress(("\n".join(lines) + "\n").encode()), X, digits


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _no_leftovers(folder: Path, name: str) -> None:
    assert not (folder / name).exists()
    leftovers = [p for p in folder.iterdir() if p.name.startswith(f".{name}.")]
    assert not leftovers, leftovers


def test_download_then_load_usps_end_to_end(server, tmp_path, monkeypatch):
    base, routes = server
    train, X, digits = _usps_like(30, 0)
    test, X_t, digits_t = _usps_like(20, 1)
    routes["/usps.bz2"] = (train, None)
    routes["/usps.t.bz2"] = (test, None)
    monkeypatch.setitem(_download.URLS, "usps.bz2", f"{base}/usps.bz2")
    monkeypatch.setitem(_download.URLS, "usps.t.bz2", f"{base}/usps.t.bz2")
    monkeypatch.setenv("OLEARN_CACHE", str(tmp_path / "cache"))
    home = tmp_path / "data"
    ds = datasets.load("usps", home, progress=False)
    assert (home / "usps.bz2").read_bytes() == train  # landed byte for byte
    assert (home / "usps.t.bz2").read_bytes() == test
    np.testing.assert_array_equal(ds.X, X)  # the values written, read back
    np.testing.assert_array_equal(ds.y, digits)  # label - 1
    np.testing.assert_array_equal(ds.X_test, X_t)
    np.testing.assert_array_equal(ds.y_test, digits_t)
    assert ds.X.shape[1] == 256


def test_tar_archive_verified_against_members_list(server, tmp_path, monkeypatch):
    base, routes = server
    buf = io.BytesIO()
    content = b"hello reuters\n"
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo("reut2-000.sgm")
        info.size = len(content)
        tar.addfile(info, io.BytesIO(content))
    routes["/r.tar.gz"] = (buf.getvalue(), None)
    monkeypatch.setitem(_download.URLS, "reuters21578.tar.gz", f"{base}/r.tar.gz")
    home = tmp_path / "data"
    home.mkdir()
    listing = home / "reuters21578.members.sha256"
    listing.write_text(f"{'0' * 64}  reut2-000.sgm\n")  # wrong digest: must be refused
    with pytest.raises(DatasetUnavailable, match="failed verification"):
        _download.ensure_file("reuters21578.tar.gz", home, progress=False)
    _no_leftovers(home, "reuters21578.tar.gz")
    listing.write_text(f"{hashlib.sha256(content).hexdigest()}  reut2-000.sgm\n")
    path = _download.ensure_file("reuters21578.tar.gz", home, progress=False)
    assert path.read_bytes() == buf.getvalue()


@pytest.mark.parametrize("damage", ["truncated-body", "corrupt-bytes"])
def test_bad_download_leaves_nothing(server, tmp_path, monkeypatch, damage):
    base, routes = server
    good, _, _ = _usps_like(30, 0)
    if damage == "truncated-body":  # the server announces the full length, sends half
        routes["/usps.bz2"] = (good[: len(good) // 2], len(good))
    else:  # complete transfer of a damaged file: bz2 CRC/structure check must catch it
        routes["/usps.bz2"] = (good[: len(good) // 2], None)
    monkeypatch.setitem(_download.URLS, "usps.bz2", f"{base}/usps.bz2")
    home = tmp_path / "data"
    with pytest.raises(DatasetUnavailable) as info:
        _download.ensure_file("usps.bz2", home, progress=False)
    assert "usps.bz2" in str(info.value) and base in str(info.value)
    _no_leftovers(home, "usps.bz2")


def test_http_error_names_file_url_and_folder(server, tmp_path, monkeypatch):
    base, _ = server  # no route: 404
    url = f"{base}/missing/usps.t.bz2"
    monkeypatch.setitem(_download.URLS, "usps.t.bz2", url)
    with pytest.raises(DatasetUnavailable) as info:
        _download.ensure_file("usps.t.bz2", tmp_path, progress=False)
    message = str(info.value)
    assert "usps.t.bz2" in message and url in message and str(tmp_path) in message
    _no_leftovers(tmp_path, "usps.t.bz2")


def test_offline_gives_dataset_unavailable(tmp_path, monkeypatch):
    url = f"http://127.0.0.1:{_closed_port()}/usps.bz2"  # connection refused
    monkeypatch.setitem(_download.URLS, "usps.bz2", url)
    monkeypatch.setenv("OLEARN_CACHE", str(tmp_path / "cache"))
    home = tmp_path / "data"
    with pytest.raises(DatasetUnavailable) as info:
        datasets.load("usps", home, progress=False)
    message = str(info.value)
    assert "usps.bz2" in message and url in message and str(home) in message
    assert isinstance(info.value, OSError) and isinstance(info.value, ValueError)
    _no_leftovers(home, "usps.bz2")


def test_download_false_and_read_only_folder(tmp_path, monkeypatch):
    url = f"http://127.0.0.1:{_closed_port()}/usps.bz2"
    monkeypatch.setitem(_download.URLS, "usps.bz2", url)
    with pytest.raises(DatasetUnavailable, match="download=False") as info:
        _download.ensure_file("usps.bz2", tmp_path, download=False)
    assert url in str(info.value) and str(tmp_path) in str(info.value)
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        with pytest.raises(DatasetUnavailable, match="read-only") as info:
            _download.ensure_file("usps.bz2", locked, progress=False)
        assert url in str(info.value) and str(locked) in str(info.value)
    finally:
        locked.chmod(0o755)


def test_fetch_downloads_what_a_dataset_needs(server, tmp_path, monkeypatch):
    base, routes = server
    train, _, _ = _usps_like(12, 2)
    test, _, _ = _usps_like(12, 3)
    routes["/a"], routes["/b"] = (train, None), (test, None)
    monkeypatch.setitem(_download.URLS, "usps.bz2", f"{base}/a")
    monkeypatch.setitem(_download.URLS, "usps.t.bz2", f"{base}/b")
    paths = datasets.fetch("usps", tmp_path, progress=False)
    assert [p.name for p in paths] == ["usps.bz2", "usps.t.bz2"]
    assert paths[0].read_bytes() == train and paths[1].read_bytes() == test
    assert datasets.fetch("toy-blobs", tmp_path) == []
