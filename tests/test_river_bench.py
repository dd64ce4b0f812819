"""The per-sample benchmark (benchmarks/river_learn_one.py) runs and its numbers are well
formed, alone and as a section of ``python -m benchmarks`` (its rows in the report, its ratio
checked as issue 18's target); speed itself is never asserted (CONVENTIONS: ratios live in
benchmarks/)."""

from benchmarks import report, river_learn_one, river_regressor
from benchmarks.run import targets


def test_learn_one_benchmark_runs(capsys):
    results = river_learn_one.main(["--quick", "--rounds", "1"])
    # the binary pair is one model: the same progressive accuracy, to the sample
    phishing = {row["contestant"]: row for row in results[0]["table"]}
    assert (
        phishing["olearn PA-I"]["progressive_accuracy"]
        == phishing[river_learn_one.RIVER_BINARY]["progressive_accuracy"]
    )
    names = [stream["stream"] for stream in results]
    assert names[:3] == ["Phishing (River, two classes)", "ImageSegments (River, 7 classes)",
                         "digits"] and len(results) == 4  # fmt: skip
    for stream in results:
        rows = {row["contestant"]: row for row in stream["table"]}
        binary = stream["reference"] == river_learn_one.RIVER_BINARY
        assert binary == (stream is results[0])
        assert set(rows) == set(river_learn_one.contestants(binary))
        assert rows[stream["reference"]]["ratio_to_river"] == 1.0
        for row in stream["table"]:
            assert row["samples_per_s"] > 0 and 0.0 <= row["progressive_accuracy"] <= 1.0
            lo, hi = row["ratio_range"]
            assert lo <= row["ratio_to_river"] <= hi
    assert "| olearn SPA-I |" in capsys.readouterr().out

    regression = river_regressor.main(["--rounds", "1"])
    assert {r["rule"] for r in regression} == {"pa-reg", "pa1-reg", "pa2-reg"}
    assert len(regression) == 6 and all(r["ratio"] > 0 for r in regression)

    # as a section of the main report: a table per stream, and the target from its ratio
    results_dict = {"learn_one": results, "learn_one_regression": regression, "epochs": [],
                    "datasets": []}  # fmt: skip
    found = targets(results_dict)
    assert len(found) == 4 + 6
    assert [t["value"] for t in found[4:]] == [r["ratio"] for r in regression]
    for t, stream in zip(found, results):
        pa = next(r for r in stream["table"] if r["contestant"] == "olearn PA-I")
        assert t["value"] == pa["ratio_to_river"] and t["met"] == (t["value"] >= 1)
    text = report.markdown(
        {
            **results_dict,
            "command": "python -m benchmarks --quick",
            "quick": True,
            "started": "now",
            "wall_seconds": 1.0,
            "environment": report.environment(),
            "targets": found,
        }
    )
    assert "## Per-sample learn_one" in text
    assert text.count("| olearn AROW |") == 4
    assert "## Per-sample learn_one of PA regression" in text and "| pa2-reg |" in text
