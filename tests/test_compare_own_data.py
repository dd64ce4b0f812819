"""Compare on a lecturer's own data (issue 31, item 7; issue 30, item 11).

The issue's file: 60 rows, 2 features, 3 classes, a header, measurements far from the origin.
Under the page's former settings (raw columns, no intercept, 1 epoch) every online learner
was at 53-68 % error where logistic regression with an intercept made 1.7 %.  An upload now
starts from standardised columns (per training part), an intercept and 10 epochs: the
learners must come within a few points of that logistic regression on the same folds.  The
page always states the trivial baseline (the majority class) and warns when every learner is
no better, or when the data's mean lies far from the origin and the columns are not centred.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from olearn._budget import APP_BYTES
from olearn.experiments.protocol import ProtocolConfig, fold_indices, standardized
from olearn.teaching.compare import (
    DEFAULT_ALGORITHMS,
    UPLOAD_SETTINGS,
    Comparison,
    Settings,
    compare,
    dataset_from,
    notes,
)


def lecturer_csv(seed: int = 0, gap: float = 3.5) -> bytes:
    """60 rows, 2 features, 3 classes and a header: three clusters of measurements (std 1,
    ``gap`` apart) around (53, 62), far from the origin: the issue's kind of file."""
    rng = np.random.default_rng(seed)
    centres = np.array([[51.5, 61.0], [51.5 + gap, 61.0], [53.0, 61.0 + gap]])
    rows = ["length_mm,width_mm,species"]
    for c, centre in enumerate(centres):
        for x in rng.normal(centre, 1.0, size=(20, 2)):
            rows.append(f"{x[0]:.2f},{x[1]:.2f},{('setosa', 'versicolor', 'virginica')[c]}")
    return ("\n".join(rows) + "\n").encode()


def run(settings: Settings, algorithms=DEFAULT_ALGORITHMS, seed: int = 0) -> Comparison:
    data = dataset_from(upload=lecturer_csv(seed), filename="own.csv")
    return compare(
        data,
        algorithms,
        settings.c_grid,
        settings.epochs,
        settings.folds,
        max_samples=settings.max_samples,
        curves=False,
        scale=settings.scale,
        fit_intercept=settings.intercept,
        budget=APP_BYTES,
    )


def logistic_with_intercept(seed: int = 0, folds: int = 3) -> float:
    """The issue's reference: scikit-learn's logistic regression with an intercept, on the
    raw columns, over the protocol's folds (error %)."""
    from sklearn.linear_model import LogisticRegression

    data = dataset_from(upload=lecturer_csv(seed), filename="own.csv")
    errors = []
    for train, test in fold_indices(data.y, folds, seed=0):
        model = LogisticRegression(max_iter=1000).fit(data.X[train], data.y[train])
        errors.append(np.mean(model.predict(data.X[test]) != data.y[test]) * 100.0)
    return float(np.mean(errors))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_learners_do_as_well_as_logistic_regression_on_a_lecturers_file(seed):
    reference = logistic_with_intercept(seed)
    before = run(Settings(), seed=seed)  # the former page: raw, no intercept, 1 epoch
    after = run(UPLOAD_SETTINGS, seed=seed)
    print(
        f"\nseed {seed}: logistic regression + intercept {reference:.1f} %; "
        f"before {before.table.set_index('key')['error %'].round(1).to_dict()}; "
        f"after {after.table.set_index('key')['error %'].round(1).to_dict()}; "
        f"majority {after.baseline:.1f} %"
    )
    assert (before.table["error %"] > 50).all()  # the symptom, kept as the reference
    assert (after.table["error %"] <= reference + 10).all(), after.table
    assert after.table["error %"].min() <= reference + 2
    assert 60 <= after.baseline <= 75  # 3 balanced classes: about 2/3 wrong


def test_the_page_warns_when_the_data_sit_far_from_the_origin_uncentred():
    before = run(Settings())
    keys = [key for key, _ in notes(before)]
    assert before.off_centre > 10 and "cmp.note.off_centre" in keys
    assert "cmp.note.off_centre" not in [key for key, _ in notes(run(UPLOAD_SETTINGS))]


def test_a_note_when_every_learner_is_no_better_than_the_majority_class():
    table = pd.DataFrame({"algorithm": ["A", "B"], "key": ["a", "b"], "error %": [70.0, 66.7]})
    worse = Comparison("own", table, pd.DataFrame(), "", {}, baseline=66.7)
    assert [key for key, _ in notes(worse)] == ["cmp.note.baseline", "cmp.note.trivial"]
    better = Comparison("own", table.assign(**{"error %": [70.0, 60.0]}), pd.DataFrame(), "",
                        {}, baseline=66.7)  # fmt: skip
    assert [key for key, _ in notes(better)] == ["cmp.note.baseline"]


def test_standardising_uses_the_training_part_alone():
    rng = np.random.default_rng(0)
    train, test = rng.normal(50, 2, (30, 3)), rng.normal(50, 2, (10, 3))
    scaled_train, scaled_test = standardized(train, test)
    np.testing.assert_allclose(scaled_train.mean(axis=0), 0, atol=1e-12)
    np.testing.assert_allclose(scaled_train.std(axis=0), 1)
    np.testing.assert_allclose(scaled_test, (test - train.mean(0)) / train.std(0))
    _, other = standardized(train, test + 100)  # the test part never moves the numbers
    np.testing.assert_allclose(other - scaled_test, np.broadcast_to(100 / train.std(0), (10, 3)))


def test_the_baselines_run_on_an_uploaded_file():
    """Issue 30, item 11: the memory check before a comparison looked every learner up in
    the registry, where the SVM and Maxent baselines are not: KeyError 'svm'."""
    result = run(Settings(folds=3), algorithms=("perceptron", "svm", "maxent"))
    assert result.table["key"].tolist() == ["perceptron", "svm", "maxent"]
    assert result.table["error %"].notna().all()


def test_the_protocol_refuses_an_unknown_scaling():
    with pytest.raises(ValueError, match="scale must be one of"):
        ProtocolConfig(scale="columns")


# --- the page -----------------------------------------------------------------------------------

streamlit = pytest.importorskip("streamlit")

from tests.test_app_pages import assert_clean, open_page  # noqa: E402


@pytest.fixture
def _raise_errors(monkeypatch):
    monkeypatch.setenv("OLEARN_APP_RAISE", "1")


def test_an_upload_starts_standardised_with_an_intercept_and_ten_epochs(_raise_errors):
    at = open_page("pages/compare.py")
    assert at.toggle(key="cmp.intercept").value is False  # digits: the small settings
    at.radio(key="cmp.source").set_value("upload").run()
    assert_clean(at)
    assert at.radio(key="cmp.scale").value == "standard"
    assert at.toggle(key="cmp.intercept").value is True
    assert at.number_input(key="cmp.epochs").value == 10


def test_the_protocol_and_the_baseline_are_said_above_the_table(_raise_errors):
    from olearn.teaching.strings import t

    at = open_page(
        "pages/compare.py",
        {"data": "digits", "algos": "perceptron,pa1", "max": "300", "folds": "2", "run": "1"},
    )
    captions = [c.value for c in at.caption]
    ran = t("cmp.ran", "en", folds=2, epochs=1, scale=t("cmp.scale.none", "en"),
            intercept=t("cmp.intercept.off", "en"))  # fmt: skip
    assert ran in captions
    assert any("most frequent class" in c for c in captions)
    assert list(at.table[0].value.columns)[:2] == ["error %", "std"]  # no internal key
