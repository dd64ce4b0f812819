"""The real archives (``$OLEARN_DATA``, CI: /work/shared/data) against facts stated
independently in the data folder's README and in ESL's zip.info.txt.

An absent archive is downloaded by olearn's own loader (:func:`require`); one that cannot be
had FAILS these tests (it never skips them).  The first run parses and caches
(`olearn.datasets.cache_dir`); later runs read the cache.
"""

from __future__ import annotations

import bz2
import os
import re
import tarfile
from pathlib import Path

import numpy as np
import pytest

from olearn import datasets
from olearn.datasets import livedoor, newsgroups, reuters

# data README, section 2: per group (train, test)
NEWS_COUNTS = {
    "alt.atheism": (480, 319),
    "comp.graphics": (584, 389),
    "comp.os.ms-windows.misc": (591, 394),
    "comp.sys.ibm.pc.hardware": (590, 392),
    "comp.sys.mac.hardware": (578, 385),
    "comp.windows.x": (593, 395),
    "misc.forsale": (585, 390),
    "rec.autos": (594, 396),
    "rec.motorcycles": (598, 398),
    "rec.sport.baseball": (597, 397),
    "rec.sport.hockey": (600, 399),
    "sci.crypt": (595, 396),
    "sci.electronics": (591, 393),
    "sci.med": (594, 396),
    "sci.space": (593, 394),
    "soc.religion.christian": (599, 398),
    "talk.politics.guns": (546, 364),
    "talk.politics.mideast": (564, 376),
    "talk.politics.misc": (465, 310),
    "talk.religion.misc": (377, 251),
}
# data README, section 3 (and ESL's zip.info.txt): digits 0-9
USPS_TRAIN = [1194, 1005, 731, 658, 652, 556, 664, 645, 542, 644]
USPS_TEST = [359, 264, 198, 166, 200, 160, 170, 147, 166, 177]
# data README, section 4
LDCC_COUNTS = {
    "dokujo-tsushin": 870,
    "it-life-hack": 870,
    "kaden-channel": 864,
    "livedoor-homme": 511,
    "movie-enter": 870,
    "peachy": 842,
    "smax": 870,
    "sports-watch": 900,
    "topic-news": 770,
}


def require(*files: str) -> Path:
    """The data folder holding ``files``, fetched by olearn's own loader where absent (a user
    with internet downloads what the tests read); fail (never skip) with the loader's reason
    when a file cannot be had (offline, read-only folder)."""
    from olearn.datasets._download import ensure_file

    home = Path(os.environ.get("OLEARN_DATA") or "~/olearn_data").expanduser()
    for name in files:
        try:
            ensure_file(name, home, download=True, progress=False)
            continue
        except datasets.DatasetUnavailable as exc:
            reason = str(exc)
        pytest.fail(f"real-data test needs {name}: {reason}", pytrace=False)  # (no chain)
    return home


def _svmlight_by_hand(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """``(X, labels)`` of a LIBSVM text file read line by line with ``str.split`` (no code
    shared with the loader, which uses scikit-learn's reader)."""
    rows, labels = [], []
    for line in bz2.open(path, "rt"):
        label, *pairs = line.split()
        row = np.zeros(256)
        for pair in pairs:
            index, value = pair.split(":")
            row[int(index) - 1] = float(value)
        rows.append(row)
        labels.append(int(label))
    return np.array(rows), np.array(labels)


def test_usps_counts_and_values_match_an_independent_reading():
    """The loader's matrices equal the files read by hand; the class counts are ESL's
    zip.info.txt's (the same samples in LIBSVM's files and in the data folder's conversion)."""
    home = require("usps.bz2", "usps.t.bz2")
    ds = datasets.load("usps", home, download=False)
    assert ds.X.shape == (7291, 256) and ds.X_test.shape == (2007, 256)
    assert np.bincount(ds.y).tolist() == USPS_TRAIN
    assert np.bincount(ds.y_test).tolist() == USPS_TEST
    for X, y, name in ((ds.X, ds.y, "usps.bz2"), (ds.X_test, ds.y_test, "usps.t.bz2")):
        X_hand, labels = _svmlight_by_hand(home / name)
        np.testing.assert_array_equal(y, labels - 1)  # LIBSVM's label is the digit + 1
        np.testing.assert_array_equal(X, X_hand)
        assert X.min() >= -1 and X.max() <= 1
    assert "ESL" in ds.meta["notes"] and "LIBSVM" in ds.meta["notes"]
    assert ds.meta["paper_table"]["n_samples"] == 7291


def test_20news_counts_and_the_8_group_subset():
    home = require(newsgroups.ARCHIVE)
    corpus = newsgroups.read_20news(home / newsgroups.ARCHIVE)
    for group, (n_train, n_test) in NEWS_COUNTS.items():
        in_group = corpus.groups == group
        assert (in_group & (corpus.splits == "train")).sum() == n_train, group
        assert (in_group & (corpus.splits == "test")).sum() == n_test, group
    assert len(corpus.texts) == 18846
    ds = datasets.load("20news-8", home, download=False)
    assert sorted(ds.meta["class_counts"]) == sorted(newsgroups.GROUPS_8)
    assert ds.X.shape[0] == 2586 and set(ds.meta["class_counts"].values()) == {323, 324}
    df = np.asarray((ds.X > 0).sum(axis=0)).ravel()
    assert df.min() >= 3  # the documented vocabulary rule (UCD's)
    assert abs(ds.X.shape[1] - 9971) / 9971 < 0.02  # within 2 % of Table 3's 9,971 terms
    assert "the" not in set(ds.meta["feature_names"].tolist())  # stop words removed
    assert np.array_equal(ds.X.data, np.round(ds.X.data)) and ds.X.data.min() >= 1  # counts
    members = ds.meta["members"]
    assert len(set(members)) == 2586  # drawn without replacement
    assert all(m.split("/")[1] == label for m, label in zip(members, ds.y))


def _independent_reuters_scan(path: Path) -> dict[int, tuple[list[str], bool]]:
    """NEWID -> (TOPICS entries, has a body: <BODY> or unmarked UNPROC text), by plain
    string search (no code shared with the loader)."""
    out = {}
    with tarfile.open(path) as archive:
        for member in archive:
            if not member.name.endswith(".sgm"):
                continue
            text = archive.extractfile(member).read().decode("latin-1")
            for chunk in text.split("<REUTERS ")[1:]:
                newid = int(re.search(r'NEWID="(\d+)"', chunk).group(1))
                block = chunk[chunk.index("<TOPICS>") + 8 : chunk.index("</TOPICS>")]
                topics = [t for t in block.replace("</D>", "").split("<D>") if t]
                out[newid] = (topics, "<BODY>" in chunk or 'TYPE="UNPROC"' in chunk)
    return out


def test_reuters_documents_and_the_20_topic_set():
    home = require(reuters.ARCHIVE)
    corpus = reuters.read_reuters(home / reuters.ARCHIVE)
    assert corpus.newid.tolist() == list(range(1, 21579))  # README: each NEWID exactly once
    scan = _independent_reuters_scan(home / reuters.ARCHIVE)
    assert len(scan) == 21578
    assert all(tuple(scan[i][0]) == t for i, t in zip(corpus.newid.tolist(), corpus.topics))
    eligible = {
        i: t[0]
        for i, (t, body) in scan.items()
        if len(t) == 1 and t[0] in reuters.TOPICS_20 and body
    }
    ds = datasets.load("reuters-20", home, download=False)
    assert sorted(ds.meta["class_counts"]) == sorted(reuters.TOPICS_20)
    kept = [int(m.removeprefix("NEWID=")) for m in ds.meta["members"]]
    assert all(eligible[i] == label for i, label in zip(kept, ds.y))  # single topic, its own
    assert len(eligible) * 0.97 < len(kept) <= len(eligible)  # only exact duplicates dropped
    assert ds.X.shape == (len(kept), len(ds.meta["feature_names"]))


def test_livedoor_counts():
    home = require(livedoor.ARCHIVE)
    corpus = livedoor.read_livedoor(home / livedoor.ARCHIVE)
    labels, counts = np.unique(corpus.categories, return_counts=True)
    assert dict(zip(labels.tolist(), counts.tolist())) == LDCC_COUNTS
    assert all(t and b for t, b in zip(corpus.titles, corpus.bodies))
    iso_date = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")
    assert not any(
        t.startswith("http") or iso_date.match(t) or iso_date.match(b)
        for t, b in zip(corpus.titles, corpus.bodies)
    )  # URL and date lines skipped
