"""The per-sample benchmark row (benchmarks/river_learn_one.py) runs and its numbers are
well formed; speed itself is never asserted (CONVENTIONS: ratios live in benchmarks/)."""

from benchmarks import river_learn_one


def test_learn_one_benchmark_runs(capsys):
    results = river_learn_one.main(["--quick", "--rounds", "1"])
    assert [name for name, _ in results][0] == "digits" and len(results) == 2
    for _, table in results:
        rows = {row["contestant"]: row for row in table}
        assert set(rows) == set(river_learn_one.contestants())
        assert rows[river_learn_one.RIVER]["ratio_to_river"] == 1.0
        for row in table:
            assert row["samples_per_s"] > 0 and 0.0 <= row["progressive_accuracy"] <= 1.0
    assert "| olearn SPA-I |" in capsys.readouterr().out
