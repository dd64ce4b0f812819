"""Scaling: time per epoch as n, non-zeros per row and K grow, on synthetic sparse data.

One axis varies at a time around a base point; every size is timed for olearn's SPA-I and
PA-I estimators and scikit-learn's one-vs-rest SGD "pa1", all sizes of an axis interleaved in
the same rounds (so load from other processes does not bend the curve).  The slope of
log(time) against log(size) (least squares) is the empirical exponent: 1 means linear; an
online learner can stay below 1 in n because later rows are more often passive.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np

from benchmarks.data import make_sparse
from benchmarks.measure import interleaved_medians

FULL = {
    "base": {"n": 20000, "nnz": 50, "K": 10, "d": 2**16},
    "n": [5000, 10000, 20000, 40000, 80000],
    "nnz": [12, 25, 50, 100, 200],
    "K": [2, 5, 10, 20, 40],
}
QUICK = {
    "base": {"n": 1000, "nnz": 20, "K": 4, "d": 2**12},
    "n": [500, 1000, 2000],
    "nnz": [10, 20, 40],
    "K": [2, 4, 8],
}


def _learners(X, y) -> dict[str, Callable[[], object]]:
    from sklearn.linear_model import SGDClassifier

    from olearn.estimators import PAClassifier, SPAClassifier

    def sgd():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return SGDClassifier(
                loss="hinge",
                penalty=None,
                learning_rate="pa1",
                eta0=1.0,
                max_iter=1,
                tol=None,
                shuffle=False,
            ).fit(X, y)

    return {
        "olearn SPA-I": lambda: SPAClassifier(variant="I", epochs=1, shuffle=False).fit(X, y),
        "olearn PA-I": lambda: PAClassifier(variant="I", epochs=1, shuffle=False).fit(X, y),
        "sklearn SGD pa1 OvR": sgd,
    }


def fit_slope(sizes, seconds) -> float:
    """Least-squares slope of log(seconds) on log(sizes).

    Examples
    --------
    >>> round(fit_slope([1, 2, 4, 8], [3.0, 6.0, 12.0, 24.0]), 6)
    1.0
    """
    return float(np.polyfit(np.log(sizes), np.log(seconds), 1)[0])


def run_scaling(quick: bool, repeats: int, log: Callable[[str], None] = print) -> dict:
    """Time every axis; returns ``{"points": [...], "slopes": [...], "grid": ...}``."""
    grid = QUICK if quick else FULL
    points = []
    for axis in ("n", "nnz", "K"):
        calls, info = {}, {}
        for size in grid[axis]:  # every size of one axis is timed in the same rounds
            shape = {**grid["base"], axis: size}
            data = make_sparse(shape["n"], shape["d"], shape["K"], shape["nnz"], seed=size)
            for name, fn in _learners(data.X, data.y).items():
                fn()  # warm
                calls[(size, name)] = fn
                info[(size, name)] = {**shape, "total_nnz": data.nnz}
        times = interleaved_medians(calls, repeats, min_total=0.02 if quick else 0.3)
        for (size, name), t in times.items():
            points.append(
                {
                    "axis": axis,
                    "size": size,
                    "learner": name,
                    "seconds": t["median"],
                    **info[(size, name)],
                }
            )
        log(
            f"  scaling {axis}: "
            + ", ".join(
                f"{name} @{size} {t['median'] * 1e3:.1f} ms"
                for (size, name), t in times.items()
                if name.startswith("olearn SPA")
            )
        )
    slopes = []
    for axis in ("n", "nnz", "K"):
        for name in {p["learner"] for p in points}:
            pts = [p for p in points if p["axis"] == axis and p["learner"] == name]
            slope = fit_slope([p["size"] for p in pts], [p["seconds"] for p in pts])
            slopes.append({"axis": axis, "learner": name, "slope": slope})
    slopes.sort(key=lambda s: (s["axis"], s["learner"]))
    return {"points": points, "slopes": slopes, "grid": grid}


def plot_scaling(result: dict, html_path, png_path=None) -> list[str]:
    """Log-log plots (one panel per axis) as self-contained HTML; PNG only if plotly can
    export without downloading anything (kaleido installed).  Returns the files written."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    axes = ("n", "nnz", "K")
    titles = {"n": "rows n", "nnz": "non-zeros per row", "K": "classes K"}
    slope = {(s["axis"], s["learner"]): s["slope"] for s in result["slopes"]}
    fig = make_subplots(rows=1, cols=3, subplot_titles=[titles[a] for a in axes])
    colours = {
        "olearn SPA-I": "#1f77b4",
        "olearn PA-I": "#2ca02c",
        "sklearn SGD pa1 OvR": "#d62728",
    }
    for col, axis in enumerate(axes, start=1):
        for name, colour in colours.items():
            pts = sorted(
                (p for p in result["points"] if p["axis"] == axis and p["learner"] == name),
                key=lambda p: p["size"],
            )
            fig.add_trace(
                go.Scatter(
                    x=[p["size"] for p in pts],
                    y=[p["seconds"] for p in pts],
                    mode="lines+markers",
                    name=f"{name}",
                    legendgroup=name,
                    showlegend=col == 1,
                    line={"color": colour},
                    hovertemplate=f"{name}<br>{axis}=%{{x}}<br>%{{y:.4f}} s<br>slope "
                    f"{slope.get((axis, name), float('nan')):.2f}<extra></extra>",
                ),
                row=1,
                col=col,
            )
        fig.update_xaxes(type="log", title_text=titles[axis], row=1, col=col)
        fig.update_yaxes(
            type="log", title_text="seconds per epoch" if col == 1 else None, row=1, col=col
        )
    fig.update_layout(
        title="Time per epoch (log-log); hover for the fitted slope", height=450, width=1200
    )
    written = []
    fig.write_html(str(html_path), include_plotlyjs=True)
    written.append(str(html_path))
    if png_path is not None:
        try:
            import kaleido  # noqa: F401  (plotly's exporter; needs no download when installed)

            fig.write_image(str(png_path))
            written.append(str(png_path))
        except Exception:  # noqa: BLE001 - PNG is optional by design
            pass
    return written
