"""The matsushima-table4 reproduction: paper column, table shape, quick runs (digits, USPS)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from olearn import registry
from olearn.experiments import paired, table4
from olearn.experiments.report import format_table, write_all
from olearn.experiments.reproduction import REPRODUCTIONS, reproduction


def test_registered_under_its_id():
    assert REPRODUCTIONS[table4.ID] == "olearn.experiments.table4"
    assert reproduction("matsushima-table4") is table4
    assert table4.SEED == "000"


def test_paper_column_has_every_cell_of_table_4():
    labels = [label for label, _ in table4.ALGORITHMS]
    assert labels == ["Perc", "PA", "PA-I", "PA-II", "SPA", "SPA-I", "SPA-II", "Maxent", "SVM"]
    assert set(table4.PAPER) == set(table4.DATASETS) == {"20news-8", "usps", "reuters-20"}
    for cells in table4.PAPER.values():
        assert set(cells) == set(labels)
        assert all(0 < v < 15 for v in cells.values())
    # the seed's text, as a check of the typing: "on USPS SPA-II beats the batch learners",
    # "on 20 Newsgroups the batch learners are more accurate"
    assert table4.PAPER["usps"]["SPA-II"] < min(table4.PAPER["usps"][k] for k in ("Maxent", "SVM"))
    assert table4.PAPER["20news-8"]["Maxent"] < table4.PAPER["20news-8"]["SPA-II"]


@pytest.fixture(scope="module")
def quick_digits():
    calls = []
    result = table4.run(
        quick=True,
        datasets=["digits"],
        svm="liblinear",
        progress=lambda d, t, m: calls.append((d, t, m)),
    )
    return result, calls


def test_quick_run_on_digits(quick_digits, tmp_path):
    result, calls = quick_digits
    table = result.table
    labels = [label for label, _ in table4.ALGORITHMS]
    labels += [label for label, key in table4.DIAGNOSTICS if key in registry.keys()]
    for epochs in (1, 2):  # quick: epochs 1 and 2, every learner at both
        assert list(table.loc[table["epochs"] == epochs, "algorithm"]) == labels
    assert table["paper"].isna().all()  # digits is not in Table 4
    assert table["ours"].between(0, 100).all() and table["ours"].notna().all()
    assert calls[-1][0] == calls[-1][1] > 0
    assert "3-fold" in result.summary and "digits" in result.summary
    curves = pd.DataFrame(result.details["curves"])
    assert {"Perceptron", "PA", "PA-I", "PA-II", "SPA", "SPA-I", "SPA-II"} <= set(
        curves["algorithm"]
    )
    paths = write_all(result, tmp_path)
    written = pd.read_csv(tmp_path / "matsushima-table4.csv")
    required = ["dataset", "algorithm", "epochs", "paper", "ours", "ours_other_folds", "std"]
    assert set(required + ["params", "converged", "tuning_fold_spread"]) <= set(written.columns)
    runs = pd.read_csv(tmp_path / "matsushima-table4-runs.csv")
    assert {"dataset", "algorithm", "params", "fold", "epochs", "error", "train_time"} <= set(
        runs.columns
    )
    assert all(p.exists() for p in paths)


def test_tests_file_is_the_paired_tests_of_the_fold_errors(quick_digits, tmp_path):
    """Recompute every row of matsushima-table4-tests.csv from the per-fold errors with scipy."""
    result, _ = quick_digits
    write_all(result, tmp_path)
    tests = pd.read_csv(tmp_path / "matsushima-table4-tests.csv")
    assert {"dataset", "epochs", "a", "b", "mean_diff", "p_value", "p_wilcoxon"} <= set(tests)
    pairs = {("SPA", "PA"), ("SPA-I", "PA-I"), ("SPA-II", "PA-II")}
    assert pairs <= set(zip(tests["a"], tests["b"]))
    folds = pd.DataFrame(result.details["fold_errors"])

    def errors(label, epochs):
        mine = folds[(folds["label"] == label) & (folds["epochs"] == epochs)]
        return mine.sort_values("fold")["error"].to_numpy()

    for row in tests.itertuples():
        a, b = errors(row.a, row.epochs), errors(row.b, row.epochs)
        assert row.mean_diff == pytest.approx(np.mean(a - b))
        if np.allclose(a, b):
            assert row.p_value == 1.0
        else:
            assert row.p_value == pytest.approx(stats.ttest_rel(a, b).pvalue, nan_ok=True)
        assert row.n_folds == 3
    for dataset in set(tests["dataset"]):
        assert f"  {dataset}: " in result.summary  # one verdict sentence per dataset


def test_paired_test_detects_a_planted_difference_and_not_noise():
    rng = np.random.default_rng(0)
    b = rng.uniform(5, 10, size=10)
    shifted = paired.paired_test(b - 1.0 + rng.normal(0, 0.1, 10), b)
    assert shifted["p_value"] < 1e-6 and shifted["p_wilcoxon"] <= 0.002 and shifted["wins"] == 10
    noise = paired.paired_test(b + rng.normal(0, 1.0, 10), b)
    assert noise["p_value"] > 0.05
    sentence = paired.verdict(
        pd.DataFrame(
            [{"dataset": "d", "epochs": 10, "a": "SPA", "b": "PA", **shifted, "paper_diff": -3.3}]
        ),
        "d",
    )
    assert "SPA better in SPA/PA at 10 epochs" in sentence and "-3.30" in sentence


def test_diagnostic_row_is_labelled_and_never_replaces_pa(quick_digits):
    assert table4.MISTAKES_ONLY in registry.keys()
    result, _ = quick_digits
    table = result.table
    diag = table[table["algorithm"] == "PA (mistakes only)"]
    assert len(diag) == 2 and diag["note"].str.contains("diagnostic").all()
    assert (table["algorithm"] == "PA").sum() == 2  # PA is still there, as itself
    assert "PA (mistakes only)" in result.summary
    tests = result.tables["tests"]
    assert ("SPA", "PA (mistakes only)") in set(zip(tests["a"], tests["b"]))


def test_quick_run_on_usps_fills_the_paper_column():
    """Needs the real USPS archive (fails, not skips, when it is absent)."""
    result = table4.run(
        quick=True, datasets=["usps"], algorithms=["spa2", "maxent"], curves=False, svm="liblinear"
    )
    table = result.table[result.table["epochs"] == 2].set_index("algorithm")
    assert table.loc["SPA-II", "paper"] == 4.46 and table.loc["Maxent", "paper"] == 4.98
    assert np.allclose(table["diff"], table["ours"] - table["paper"])
    assert result.details["sizes"]["usps"] == {"n_samples": 600, "n_features": 256, "n_classes": 10}
    assert "Table 3: K=10, n=7,291, d=256" in result.summary


def test_format_table_shows_paper_ours_and_signed_diff():
    t = pd.DataFrame(
        {
            "dataset": ["usps", "x"],
            "algorithm": ["PA", "PA"],
            "paper": [7.12, np.nan],
            "ours": [6.5, 3.0],
        }
    )
    text = format_table(t)
    assert "-0.62" in text and "7.12" in text and "NaN" not in text


def test_claims_verdicts_follow_the_tests_and_the_table():
    """Planted numbers: a significant SPA win reproduces, a tie does not, a -0.00 is no
    direction; Perc 0.5 above PA (mistakes only) holds, 4 above PA does not."""
    rows = [("Perc", 14.0), ("PA", 10.0), ("PA (mistakes only)", 13.5), ("SPA", 9.0)]
    table = pd.DataFrame(
        [
            {
                "dataset": "20news-8",
                "algorithm": a,
                "epochs": 10,
                "ours": v,
                "paper": table4.PAPER["20news-8"].get(a, np.nan),
            }
            for a, v in rows
        ]
    )
    base = {"dataset": "20news-8", "epochs": 10, "wins": 10, "n_folds": 10}
    tests = pd.DataFrame(
        [
            {
                **base,
                "a": "SPA",
                "b": "PA",
                "mean_diff": -1.0,
                "p_value": 0.001,
                "p_wilcoxon": 0.002,
                "paper_diff": -3.33,
            },
            {
                **base,
                "a": "SPA-I",
                "b": "PA-I",
                "mean_diff": -0.00001,
                "p_value": 0.9,
                "p_wilcoxon": 0.9,
                "paper_diff": -3.25,
            },
            {
                **base,
                "a": "SPA",
                "b": "PA (mistakes only)",
                "mean_diff": 0.2,
                "p_value": 0.5,
                "p_wilcoxon": 0.5,
                "paper_diff": np.nan,
            },
        ]
    )
    verdicts = table4.claims(table, tests).set_index("claim")["verdict"]
    assert verdicts["SPA below PA"] == "reproduces"
    assert verdicts["SPA-I below PA-I"] == "does not reproduce"
    assert verdicts["diagnostic: SPA below PA (mistakes only)"] == "does not hold"
    assert verdicts["Perc within 1 point of PA"] == "does not reproduce"  # 4 points apart
    assert verdicts["diagnostic: Perc within 1 point of PA (mistakes only)"] == "holds"
