"""The hashed one-vs-rest sets for the SGD-SVM seed (004), from the real archives, against
document counts stated in the data README and an independent scan for the rare topic."""

from __future__ import annotations

import re
import tarfile

import numpy as np

from olearn import datasets
from tests.test_datasets_real import LDCC_COUNTS, NEWS_COUNTS, require

TECH_NEWS = [g for g in NEWS_COUNTS if g.startswith(("comp.", "sci.", "misc.forsale"))]
TECH_LDCC = ["it-life-hack", "kaden-channel", "smax"]


def _check_common(ds, n_total):
    assert ds.X.shape[1] == ds.X_test.shape[1] == 2**20
    assert ds.X.shape[0] + ds.X_test.shape[0] == n_total
    assert ds.X_test.shape[0] == round(0.1 * n_total)
    assert set(np.unique(ds.y).tolist()) == {-1, 1} == set(np.unique(ds.y_test).tolist())
    norms = np.sqrt(ds.X.multiply(ds.X).sum(axis=1)).A1
    np.testing.assert_allclose(norms, 1.0, rtol=1e-12)  # unit L2 rows
    assert ds.X.data.min() > 0  # alternate_sign=False: term frequencies only


def _empty_news_posts(path) -> dict[str, int]:
    """Per group, posts with no word of 2+ characters after the header (plain scan)."""
    empty: dict[str, int] = {}
    with tarfile.open(path) as archive:
        for member in archive:
            if member.isfile() and member.name.count("/") == 2:
                text = archive.extractfile(member).read().decode("latin-1")
                body = text.split("\n\n", 1)[1] if "\n\n" in text else ""
                if not re.search(r"\w\w", body):
                    group = member.name.split("/")[1]
                    empty[group] = empty.get(group, 0) + 1
    return empty


def test_sgd_balanced():
    home = require("20news-bydate.tar.gz", "ldcc-20140209.tar.gz")
    ds = datasets.load("sgd-balanced", home, download=False)
    empty = _empty_news_posts(home / "20news-bydate.tar.gz")
    n_news = sum(map(sum, NEWS_COUNTS.values())) - sum(empty.values())
    n_total = n_news + sum(LDCC_COUNTS.values())  # README counts, minus empty posts
    _check_common(ds, n_total)
    positives = sum(sum(NEWS_COUNTS[g]) - empty.get(g, 0) for g in TECH_NEWS) + sum(
        LDCC_COUNTS[c] for c in TECH_LDCC
    )
    assert int((ds.y == 1).sum() + (ds.y_test == 1).sum()) == positives
    share_test = (ds.y_test == 1).mean()
    assert abs(share_test - positives / n_total) < 1 / ds.X_test.shape[0] + 1e-12  # stratified


def test_sgd_rare():
    home = require("20news-bydate.tar.gz", "reuters21578.tar.gz", "ldcc-20140209.tar.gz")
    gold, empty = 0, 0
    with tarfile.open(home / "reuters21578.tar.gz") as archive:  # independent plain scan
        for member in archive:
            if member.name.endswith(".sgm"):
                text = archive.extractfile(member).read().decode("latin-1")
                for doc in text.split("<REUTERS ")[1:]:
                    topics = re.search(r"<TOPICS>(.*?)</TOPICS>", doc, re.S).group(1)
                    if "<D>gold</D>" in topics:
                        gold += 1
                    inner = doc.split("<TEXT", 1)[1].split(">", 1)[1].split("</TEXT>")[0]
                    empty += re.sub(r"<[^>]+>|&#\d+;|\s", "", inner) == ""
    ds = datasets.load("sgd-rare", home, download=False)
    n_news = sum(map(sum, NEWS_COUNTS.values())) - sum(
        _empty_news_posts(home / "20news-bydate.tar.gz").values()
    )
    n_total = n_news + 21578 - empty + sum(LDCC_COUNTS.values())
    _check_common(ds, n_total)
    assert int((ds.y == 1).sum() + (ds.y_test == 1).sum()) == gold
    assert 0.001 < gold / n_total < 0.005  # "about 0.25 %", seed 004 Table 1
    assert (ds.y_test == 1).sum() >= 5
