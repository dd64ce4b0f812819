"""docs/migrating-from-sklearn.md's weights section holds the numbers of
benchmarks/migration_weights.py, not typed ones: the block between its markers is the script's
output, recomputed here (regenerate with ``python -m benchmarks.migration_weights --write``)."""

from pathlib import Path

from benchmarks import migration_weights

PAGE = Path(__file__).resolve().parents[1] / "docs" / "migrating-from-sklearn.md"


def test_the_page_has_the_scripts_weights_block():
    text = PAGE.read_text()
    block = f"{migration_weights.BEGIN}\n{migration_weights.report()}\n{migration_weights.END}"
    assert block in text, f"stale page: rerun python -m benchmarks.migration_weights --write {PAGE}"


def test_the_block_shows_the_difference_and_the_option():
    rows = migration_weights.worked_rows()
    differ = [row for row in rows if row.split("|")[3] != row.split("|")[4]]
    assert differ and all(row.split("|")[3] == row.split("|")[5] for row in rows)
