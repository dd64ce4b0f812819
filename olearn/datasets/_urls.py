"""``URLS``: each archive's file name -> its canonical public URL (a leaf module: the
downloader fetches from it, and :mod:`olearn.datasets._archive` names it in the error for a
damaged file).  Tests point entries at a local server with
``monkeypatch.setitem(_download.URLS, ...)`` (the same dict)."""

from __future__ import annotations

_LIBSVM = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/multiclass"

URLS: dict[str, str] = {
    "usps.bz2": f"{_LIBSVM}/usps.bz2",
    "usps.t.bz2": f"{_LIBSVM}/usps.t.bz2",
    "20news-bydate.tar.gz": "https://qwone.com/~jason/20Newsgroups/20news-bydate.tar.gz",
    "reuters21578.tar.gz": "https://kdd.ics.uci.edu/databases/reuters21578/reuters21578.tar.gz",
    "ldcc-20140209.tar.gz": "https://www.rondhuit.com/download/ldcc-20140209.tar.gz",
}
