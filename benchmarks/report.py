"""The results as markdown (``results/benchmarks.md``) and JSON (``results/benchmarks.json``)."""

from __future__ import annotations

import json
import math
import platform
from pathlib import Path

from benchmarks.epochs import REFERENCE


def _fmt(value, spec: str = ".3g", none: str = "—") -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return none
    return format(value, spec)


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def environment() -> dict:
    """Machine and library versions, for the report's header."""
    import importlib.metadata as md
    import os

    versions = {}
    for pkg in ("numpy", "scipy", "numba", "scikit-learn", "river", "vowpalwabbit", "olearn"):
        try:
            versions[pkg] = md.version(pkg)
        except md.PackageNotFoundError:
            versions[pkg] = "not installed" if pkg != "olearn" else "source tree"
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        load = "?"
    return {
        "python": platform.python_version(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "load_average_at_start": load,
        "versions": versions,
    }


def markdown(results: dict) -> str:
    """The whole report as markdown."""
    env = results["environment"]
    lines = [
        "# olearn benchmarks",
        "",
        f"Command: `{results['command']}` ({'quick' if results['quick'] else 'full'} mode), "
        f"{results['started']} UTC, {results['wall_seconds']:.0f} s.",
        "",
        f"Machine: {env['cpu']} ({env['cores']} cores, load average at start "
        f"{env['load_average_at_start']}: the cores are shared, so compare ratios within this "
        f"run, not absolute times across runs). Python {env['python']}; "
        + ", ".join(f"{k} {v}" for k, v in env["versions"].items())
        + ".",
        "",
        "One epoch = every training row once, in the given order, from zero weights. Times are "
        "medians of interleaved repeats after a warm-up (numba compiled). Data conversion to a "
        "peer's format (VW cache, River dicts) is not timed; the estimators' own input "
        "validation is (it is part of the call). See benchmarks/README.md.",
        "",
    ]
    if results.get("targets"):
        lines += ["## Targets", ""]
        lines += _table(
            ["target", "measured", "goal", "met"],
            [
                [t["target"], t["measured"], t["goal"], "yes" if t["met"] else "**no**"]
                for t in results["targets"]
            ],
        )
        lines.append("")
    lines += ["## Datasets", ""]
    cards = results["datasets"]
    lines += _table(
        ["dataset", "n", "d", "K", "nnz", "nnz/row", "n_test", "layout", "source"],
        [
            [
                c["dataset"],
                str(c["n"]),
                str(c["d"]),
                str(c["K"]),
                str(c["nnz"]),
                str(c["nnz_per_row"]),
                str(c["n_test"]),
                c["layout"],
                c["source"],
            ]
            for c in cards
        ],
    )
    lines.append("")
    for card in cards:
        name = card["dataset"]
        rows = [r for r in results["epochs"] if r["dataset"] == name]
        lines += [f"## One epoch: {name}", ""]
        lines += _table(
            [
                "contestant",
                "library",
                "epoch ms",
                "examples/s",
                "M nnz/s",
                f"time / {REFERENCE}",
                "peak MB",
                "test error %",
                "note",
            ],
            [
                [
                    r["contestant"],
                    r["library"],
                    _fmt(r.get("seconds") and r["seconds"] * 1e3, ".4g"),
                    _fmt(r.get("examples_per_s"), ".3g"),
                    _fmt(r.get("nnz_per_s") and r["nnz_per_s"] / 1e6, ".4g"),
                    _fmt(r.get(f"x_{REFERENCE}"), ".3g"),
                    _fmt(r.get("peak_mb"), ".3g")
                    + ("" if r.get("memory_method") in (None, "tracemalloc") else " (RSS)"),
                    _fmt(r.get("test_error") is not None and r["test_error"] * 100 or None, ".2f"),
                    r.get("note", ""),
                ]
                for r in rows
            ],
        )
        lines.append("")
    if results.get("cs_svm"):
        lines += ["## Crammer-Singer SVM: olearn vs LIBLINEAR to the same objective", ""]
        lines += _table(
            [
                "dataset",
                "C",
                "LIBLINEAR s",
                "olearn s",
                "ratio",
                "olearn tol",
                "P LIBLINEAR",
                "P olearn",
                "test error % (LIBLINEAR / olearn)",
                "note",
            ],
            [
                [
                    r["dataset"],
                    _fmt(r.get("C")),
                    _fmt(r.get("liblinear_s"), ".3g"),
                    _fmt(r.get("olearn_s"), ".3g"),
                    _fmt(r.get("ratio"), ".3g"),
                    _fmt(r.get("olearn_tol")),
                    _fmt(r.get("liblinear_objective"), ".7g"),
                    _fmt(r.get("olearn_objective"), ".7g"),
                    f"{_fmt(r.get('liblinear_test_error', 0) * 100, '.2f')} / "
                    f"{_fmt(r.get('olearn_test_error', 0) * 100, '.2f')}",
                    r.get("note", ""),
                ]
                for r in results["cs_svm"]
            ],
        )
        lines.append("")
    if results.get("learn_one"):
        from benchmarks.river_learn_one import table_lines

        lines += [
            "## Per-sample learn_one: olearn inside River vs River's PA",
            "",
            "Each round trains a fresh model of every contestant on the whole stream of dicts "
            "(interleaved); samples/s is the median over rounds, the ratio the median of the "
            "per-round ratios to River's PA in this run: its binary `PAClassifier(C=1, mode=1, "
            "learn_intercept=False)` on two classes (olearn's PA-I with `classes=[False, True]` "
            "and `C=0.5` is the same model), `OneVsRestClassifier(PAClassifier(C=1, mode=1))` on "
            "more. Progressive accuracy: an untimed extra pass (predict, then learn).",
            "",
        ]
        for stream in results["learn_one"]:
            lines += [
                f"{stream['stream']}: {stream['samples']} samples, "
                f"{stream['features_per_sample']:.0f} features per sample, "
                f"{stream['rounds']} rounds.",
                "",
                *table_lines(stream["table"]),
                "",
            ]
    if results.get("learn_one_regression"):
        from benchmarks.river_regressor import table_lines as regression_lines

        lines += [
            "## Per-sample learn_one of PA regression: olearn.river.Regressor vs River's "
            "PARegressor",
            "",
            "River's TrumpApproval stream, raw and standardised; the median microseconds per "
            "sample over interleaved rounds and the median per-round ratio (> 1: olearn is "
            "faster), in this run.",
            "",
            *regression_lines(results["learn_one_regression"]),
            "",
        ]
    if results.get("scaling"):
        lines += ["## Scaling (synthetic sparse data, log-log slope of time per epoch)", ""]
        base = results["scaling"]["grid"]["base"]
        lines += [f"Base point: {base}; one axis varies at a time. Plot: `scaling.html`.", ""]
        slopes = results["scaling"]["slopes"]
        learners = sorted({s["learner"] for s in slopes})
        lines += _table(
            ["axis"] + learners,
            [
                [axis]
                + [
                    _fmt(
                        next(
                            s["slope"] for s in slopes if s["axis"] == axis and s["learner"] == name
                        ),
                        ".2f",
                    )
                    for name in learners
                ]
                for axis in ("n", "nnz", "K")
            ],
        )
        lines.append("")
    if results.get("startup"):
        s = results["startup"]
        lines += ["## Start-up (fresh interpreter each)", ""]
        lines += _table(
            [
                "run",
                "to first fit done s",
                "import olearn s",
                "import estimator s",
                "first fit s",
                "wall incl. exit s",
            ],
            [
                [
                    name,
                    _fmt(s[key]["in_process"] + s["interpreter_s"], ".3f"),
                    _fmt(s[key]["import_olearn"], ".3f"),
                    _fmt(s[key]["import_estimator"], ".3f"),
                    _fmt(s[key]["first_fit"], ".3f"),
                    _fmt(s[key]["wall"], ".3f"),
                ]
                for name, key in (
                    ("cold (empty NUMBA_CACHE_DIR)", "cold"),
                    ("warm (on-disk cache)", "warm"),
                )
                if key in s
            ],
        )
        lines += [
            "",
            f"Bare interpreter start (`python -c pass`): {s['interpreter_s']:.3f} s; "
            '"to first fit done" = that + the in-process time from the first line of the '
            "script to the end of the fit; the wall time also holds the interpreter's exit "
            "(finalising numba and scikit-learn), which a user does not wait for.",
        ]
        from benchmarks.startup import tables

        if s.get("commands") or s.get("first_fits"):
            lines += ["", *tables(s.get("commands"), s.get("first_fits"))]
        app = dict(s.get("app", {}))
        table = app.pop("app_timing_table", None)
        lines += [
            "",
            "App first page render (server side, AppTest, fresh interpreter), "
            "seconds: "
            + (
                ", ".join(
                    f"{k} = {_fmt(v, '.3f') if isinstance(v, float) else v}" for k, v in app.items()
                )
                or "not measured"
            )
            + ".",
        ]
        if table:
            lines += [
                "",
                "Rerun times from `python -m benchmarks.app_timing --repeat 5` "
                "(the app's own benchmark):",
                "",
                "```",
                table,
                "```",
            ]
        lines.append("")
    if results.get("reproductions"):
        lines += ["## Reproductions, quick runs", ""]
        lines += _table(
            ["reproduction", "seconds"],
            [[r["id"], _fmt(r["seconds"], ".1f")] for r in results["reproductions"]],
        )
        lines += [""]
    if results.get("notes"):
        lines += ["## Notes", ""] + [f"- {n}" for n in results["notes"]] + [""]
    return "\n".join(lines)


def write(results: dict, out: Path) -> list[str]:
    """Write ``benchmarks.md`` and ``benchmarks.json`` into ``out``; return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    md_path, json_path = out / "benchmarks.md", out / "benchmarks.json"
    md_path.write_text(markdown(results))
    json_path.write_text(json.dumps(results, indent=1, default=float))
    return [str(md_path), str(json_path)]
