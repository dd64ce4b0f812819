"""The ``ono-sgd-figure1`` reproduction: contract, quick run (well under a minute), and the
F-measure helper against scikit-learn.  Needs the real ``sgd-balanced`` / ``sgd-rare`` sets:
fails (does not skip) when they are missing."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import f1_score

from olearn.experiments import sgd_figure1
from olearn.experiments.report import write_all
from olearn.experiments.reproduction import REPRODUCTIONS, ReproResult, reproduction


def test_f_measure_equals_sklearn():
    rng = np.random.default_rng(0)
    for _ in range(50):
        y = np.where(rng.random(200) < rng.uniform(0.01, 0.6), 1.0, -1.0)
        s = rng.normal(size=200)
        assert sgd_figure1.f_measure(y, s) == f1_score(y > 0, s > 0, zero_division=0.0)


def test_module_follows_the_reproduction_contract():
    assert REPRODUCTIONS[sgd_figure1.ID] == "olearn.experiments.sgd_figure1"
    assert reproduction(sgd_figure1.ID) is sgd_figure1
    assert sgd_figure1.SEED == "004" and sgd_figure1.TITLE


@pytest.mark.slow
def test_quick_run_prints_its_table(tmp_path):
    """Its run time is measured by ``python -m benchmarks`` (section "reproductions"), not
    asserted here."""
    calls = []
    result = sgd_figure1.run(quick=True, progress=lambda d, t, m: calls.append((d, t)))
    assert isinstance(result, ReproResult)
    table = result.table
    assert {"dataset", "algorithm", "paper", "ours", "time"} <= set(table.columns)
    assert set(table.dataset) == {"sgd-balanced", "sgd-rare"}
    assert set(table.algorithm) == set(sgd_figure1.SEED_ROWS)
    assert table.paper.isna().all()  # the seed gives a figure only
    assert ((table.ours >= 0) & (table.ours <= 100)).all()
    assert (table.time > 0).all()
    # one epoch of SGD on 4,000 balanced documents is far better than chance (F of "all +1"
    # would be about 2p/(1+p) ~ 64 % at 47 % positives)
    balanced = table[table.dataset == "sgd-balanced"]
    assert (balanced.ours > 75.0).all()
    assert calls[-1][0] == calls[-1][1] == 4
    assert "sgd-balanced:" in result.summary and "sgd-rare:" in result.summary
    # every curve is in checkpoint order with a growing training time
    for c in result.details["curves"]:
        pts = np.array(c["points"])
        assert np.all(np.diff(pts[:, 0]) > 0) and np.all(np.diff(pts[:, 1]) >= 0)
    paths = write_all(result, tmp_path)
    assert pd.read_csv(paths[0]).shape[0] == table.shape[0]


def test_cli_style_options():
    result = sgd_figure1.run(
        datasets=["sgd-balanced"],
        algorithms=["global", "per-feature-all"],
        seed=3,
        shuffles=2,
        epochs=1,
        max_samples=800,
    )
    assert set(result.table.algorithm) == {
        sgd_figure1.ALGORITHM_KEYS["global"],
        sgd_figure1.ALGORITHM_KEYS["per-feature-all"],
    }
    assert sorted({r["seed"] for r in result.details["runs"]}) == [3, 4]
    assert max(p[0] for c in result.details["curves"] for p in c["points"]) == 1.0
    with pytest.raises(ValueError):
        sgd_figure1.run(quick=True, algorithms=["adagrad"])
