"""docs/migrating-from-sklearn.md holds the numbers of benchmarks/migration.py, not typed ones:
the digits rows and the binary parity rows are recomputed here and must be on the page (the
20news-8 rows come from the same function; regenerate with ``--write``)."""

from pathlib import Path

import pytest

from benchmarks import migration
from olearn import datasets

PAGE = Path(__file__).resolve().parents[1] / "docs" / "migrating-from-sklearn.md"


def test_the_page_has_the_scripts_digits_rows():
    text = PAGE.read_text()
    assert migration.BEGIN in text and migration.END in text
    rows = migration.multiclass_rows("digits", *migration.data("digits"))
    assert len(rows) >= 3  # the two olearn rows and SGDClassifier's, at least
    for row in rows:
        assert row in text, f"stale page: rerun python -m benchmarks.migration --write {PAGE}"


@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_the_page_has_the_scripts_binary_parity_rows():
    pair = datasets.load("pair-20news-space-med")  # fetched where absent (a new user online)
    rows = migration.binary_rows(pair.X, pair.y)
    text = PAGE.read_text()
    for row in rows:
        assert row in text and row.endswith("| yes |")
