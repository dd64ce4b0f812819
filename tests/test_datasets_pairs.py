"""The PCVM document pairs (seed 002 protocol: 400 training / 800 test documents, binary
word presence) built from the real archives.  An absent archive fails the test."""

from __future__ import annotations

import numpy as np
import pytest

from olearn import datasets
from olearn.datasets import pairs
from tests.test_datasets_real import LDCC_COUNTS, NEWS_COUNTS, require


@pytest.mark.parametrize("name", datasets.names("pairs"))
def test_pair_protocol(name):
    spec = pairs.PAIRS[name]
    home = require(*datasets._registry.SPECS[name].files)
    ds = datasets.load(name, home, download=False)
    n_features = ds.X.shape[1]
    assert ds.X.shape == (400, n_features) and ds.X_test.shape == (800, n_features)
    assert np.bincount(ds.y == 1).tolist() == [200, 200]
    assert np.bincount(ds.y_test == 1).tolist() == [400, 400]
    assert set(np.unique(ds.y).tolist()) == {-1, 1}
    assert set(np.unique(ds.X.data).tolist()) == {1.0} == set(np.unique(ds.X_test.data).tolist())
    assert (ds.X.getnnz(axis=1) > 0).all()  # no empty training document (cosine kernel)
    df = np.asarray((ds.X > 0).sum(axis=0)).ravel()
    assert df.min() >= 2  # vocabulary: terms of >= min_df training documents
    train, test = set(ds.meta["members"]), set(ds.meta["test_members"])
    assert len(train) == 400 and len(test) == 800 and not train & test
    # labels follow the archive: +1 is the positive category's member path
    if spec.corpus in ("ldcc", "20news"):
        for member, label in zip(ds.meta["members"], ds.y):
            category = member.split("/")[1]
            assert category == (spec.positive if label == 1 else spec.negative)
        counts = (
            LDCC_COUNTS if spec.corpus == "ldcc" else {k: sum(v) for k, v in NEWS_COUNTS.items()}
        )
        assert counts[spec.positive] >= 600 and counts[spec.negative] >= 600
    assert ds.meta["paper_table"]["n_samples"] == 400
    assert ds.meta["positive"] == spec.positive


def test_ldcc_pairs_mirror_the_seed_pairs():
    mirrored = sorted(p.seed_pair for name, p in pairs.PAIRS.items() if p.corpus == "ldcc")
    assert mirrored == ["Cu./Ec.", "Cu./Sp.", "Ec./In.", "En./In."]  # seed 002 Table 1 rows


def test_pair_is_deterministic_and_seeded():
    home = require("20news-bydate.tar.gz")
    a = pairs.build_pair(
        {"20news-bydate.tar.gz": home / "20news-bydate.tar.gz"},
        pair="pair-20news-space-med",
        random_state=1,
    )
    b = datasets.load("pair-20news-space-med", home, download=False, random_state=1)
    assert (a.X != b.X).nnz == 0 and np.array_equal(a.y, b.y)
    c = datasets.load("pair-20news-space-med", home, download=False)
    assert set(c.meta["members"]) != set(a.meta["members"])
