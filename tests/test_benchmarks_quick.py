"""``python -m benchmarks --quick`` runs and writes well-formed results; its measuring parts
are checked against independent computations (speed itself is never asserted)."""

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from benchmarks.cs_svm import primal
from benchmarks.data import make_sparse
from benchmarks.limit import stream_dot, stream_scores
from benchmarks.measure import interleaved_medians
from benchmarks.peers_vw import vw_lines
from benchmarks.scaling import fit_slope
from benchmarks.startup import COMMANDS, readme_snippet, snippet_probe

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}  # times need jit
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--out", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out, json.loads((out / "benchmarks.json").read_text())


def test_every_dataset_has_olearn_peers_and_the_limit(quick_run):
    _, res = quick_run
    assert len(res["datasets"]) == 3
    for card in res["datasets"]:
        rows = {r["contestant"]: r for r in res["epochs"] if r["dataset"] == card["dataset"]}
        libraries = {r["library"] for r in rows.values() if r.get("seconds")}
        assert {"olearn", "scikit-learn", "River", "limit"} <= libraries
        for name in ("Perceptron", "PA-I", "SPA", "SPA-I", "SPA-II", "SPA-I (kernel only)"):
            assert rows[name]["seconds"] > 0
        assert rows["SPA-I"]["x_SPA-I"] == 1.0


def test_rows_are_consistent(quick_run):
    _, res = quick_run
    cards = {c["dataset"]: c for c in res["datasets"]}
    for r in res["epochs"]:
        if r.get("seconds") is None:
            assert r["note"].startswith("skipped"), r
            continue
        card = cards[r["dataset"]]
        assert r["seconds"] > 0 and r["repeats"] >= 3
        assert math.isclose(r["examples_per_s"], card["n"] / r["seconds"], rel_tol=1e-9)
        assert math.isclose(r["nnz_per_s"], card["nnz"] / r["seconds"], rel_tol=1e-9)
        assert r["peak_mb"] >= 0
        if r["library"] != "limit":
            assert 0.0 <= r["test_error"] <= 1.0, r
        if r["rows_timed"] < card["n"]:
            assert "extrapolated" in r["note"]


def test_markdown_tables_are_rectangular_and_cover_every_section(quick_run):
    out, res = quick_run
    text = (out / "benchmarks.md").read_text()
    for heading in (
        "## Targets",
        "## Datasets",
        "## One epoch: digits",
        "## Scaling",
        "## Start-up",
        "## Crammer-Singer SVM",
        "## Per-sample learn_one",
    ):
        assert heading in text
    table = []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            table.append(line)
        elif table:
            widths = {len(re.findall(r"(?<!\\)\|", row)) for row in table}
            assert len(widths) == 1, table[:3]
            table = []
    for t in res["targets"]:
        assert isinstance(t["met"], bool) and t["goal"]


def test_scaling_slopes_and_plot(quick_run):
    out, res = quick_run
    slopes = res["scaling"]["slopes"]
    assert {s["axis"] for s in slopes} == {"n", "nnz", "K"}
    assert all(math.isfinite(s["slope"]) for s in slopes)
    html = (out / "scaling.html").read_text()
    assert "plotly" in html.lower() and "seconds per epoch" in html


def test_startup_was_measured_in_fresh_interpreters(quick_run):
    _, res = quick_run
    warm = res["startup"]["warm"]
    assert 0 < warm["import_olearn"] <= warm["in_process"] < warm["wall"]
    assert warm["first_fit"] > 0


def test_startup_times_the_cli_commands_as_whole_processes(quick_run):
    out, res = quick_run
    rows = res["startup"]["commands"]
    assert list(rows) == list(COMMANDS)
    for row in rows.values():
        assert len(row["samples"]) == 3
        assert 0 < row["min"] <= row["median"] <= row["max"]
        assert row["min"] == min(row["samples"]) and row["max"] == max(row["samples"])
    assert "olearn --version" in (out / "benchmarks.md").read_text()


def test_the_snippet_probe_runs_readmes_snippet_to_its_score():
    lines = readme_snippet()
    assert lines[-1].startswith("clf.score(") and "```" not in "\n".join(lines)
    probe = snippet_probe(lines).splitlines()
    assert [line for line in probe if line in lines] == lines[:-1]  # all of it, in order
    assert f"score = {lines[-1]}" in probe
    compile("\n".join(probe), "probe", "exec")


# --- the measuring parts, against independent computations ---------------------------------


def test_limit_kernels_compute_what_they_claim():
    data = make_sparse(300, 200, 5, 12, seed=3)
    X = data.X
    rng = np.random.default_rng(0)
    w, W = rng.normal(size=200), rng.normal(size=(200, 5))
    assert math.isclose(stream_dot(X.indptr, X.indices, X.data, w), (X @ w).sum(), rel_tol=1e-12)
    got = stream_scores(X.indptr, X.indices, X.data, W, np.empty(5))
    assert math.isclose(got, (X @ W).max(axis=1).sum(), rel_tol=1e-12)


def test_fit_slope_recovers_a_power_law():
    sizes = np.array([10.0, 30.0, 100.0, 300.0])
    assert math.isclose(fit_slope(sizes, 0.5 * sizes**1.7), 1.7, rel_tol=1e-9)


def test_vw_lines_round_trip():
    X = sp.random(20, 30, density=0.2, random_state=1, format="csr")
    y = np.arange(20) % 3
    back = np.zeros((20, 30))
    labels = []
    for i, line in enumerate(vw_lines(X, y)):
        label, feats = line.split(" |f")
        labels.append(int(label) - 1)
        for item in feats.split():
            j, v = item.split(":")
            back[i, int(j)] = float(v)
    assert labels == y.tolist() and np.array_equal(back, X.toarray())


def test_cs_primal_matches_a_plain_loop():
    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(15, 4)), rng.integers(3, size=15)
    coef, b, C = rng.normal(size=(3, 4)), rng.normal(size=3), 0.7
    loss = sum(
        max((m != y[i]) + coef[m] @ X[i] + b[m] - coef[y[i]] @ X[i] - b[y[i]] for m in range(3))
        for i in range(15)
    )
    expected = 0.5 * (np.sum(coef**2) + np.sum(b**2)) + C * loss
    assert math.isclose(primal(coef, b, X, y, C), expected, rel_tol=1e-12)


def test_interleaved_medians_takes_enough_samples():
    calls = {"fast": lambda: None, "slow": lambda: sum(range(20000))}
    out = interleaved_medians(calls, repeats=3, min_total=0.01, max_repeats=7)
    assert all(3 <= len(v["samples"]) <= 7 for v in out.values())
    assert all(v["median"] == float(np.median(v["samples"])) for v in out.values())
