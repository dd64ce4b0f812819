"""The cw-family-claims reproduction runs end to end in quick mode (real data: must not skip)."""

import numpy as np

from olearn import registry
from olearn.experiments import cw_claims
from olearn.experiments.reproduction import reproduction


def test_flip_labels_rate_and_never_keeps_a_flipped_label():
    rng = np.random.default_rng(1)
    y = np.repeat([3, 5], 5000)
    noisy = cw_claims.flip_labels(y, 0.3, rng)
    assert abs(np.mean(noisy != y) - 0.3) < 0.02
    assert set(np.unique(noisy)) == {3, 5}
    assert np.array_equal(cw_claims.flip_labels(y, 0.0, rng), y)


def test_quick_run_reports_every_claim():
    assert reproduction("cw-family-claims") is cw_claims
    result = cw_claims.run(quick=True)
    table = result.table
    assert {"dataset", "algorithm", "paper", "ours", "noise_pct", "passes"} <= set(table)
    assert table["paper"].isna().all()  # the seed gives no numbers
    noise_view = {registry.get(k).name for k in registry.keys(view="noise")}
    assert set(table.algorithm) == noise_view >= {"CW", "AROW", "SCW-I", "NHERD", "NAROW"}
    assert table["ours"].between(0, 100).all()
    clean = table[(table.noise_pct == 0) & (table.passes == 1)]
    assert clean.groupby("dataset")["ours"].min().max() < 20  # the learners really learn
    claims = [v["claim"] for v in result.details["verdicts"]]
    assert len(claims) == 7
    assert all(
        v["verdict"] in ("holds", "mixed", "does not hold") for v in result.details["verdicts"]
    )
    for number in ("1.", "2.", "3.", "4.", "5.", "6.", "7."):
        assert f"- {number}" in result.summary
