"""The Compare page's one call: the seed-000 protocol on one dataset (a registered name or an
upload), the online learning curves at the chosen C, and the paper's column where one exists.

Everything is delegated to :mod:`olearn.experiments` (``run_protocol``, ``learning_curves``);
this module only assembles what the page shows.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from olearn import registry
from olearn._budget import model_bytes, require
from olearn.experiments.engine import Execution
from olearn.experiments.protocol import DataRef, ProtocolConfig, run_protocol
from olearn.teaching.hypers import quick_c_grid, view_hyper

DEFAULT_ALGORITHMS = tuple(registry.keys(view="compare", default=True))
QUICK_C_GRID = quick_c_grid("compare")  # the registry's default C and two decades below


@dataclass(frozen=True)
class Settings:
    """The Compare page's protocol settings (``max_samples=0``: all the data; ``intercept``:
    every learner that can fits a bias)."""

    folds: int = 3
    epochs: int = 1
    max_samples: int = 600
    scale: str = "none"
    c_grid: tuple = QUICK_C_GRID
    intercept: bool = False


# The Table 4 reproduction's protocol (olearn.experiments.table4 / protocol defaults): full
# data, 10 folds, 10 epochs (the last epochs of its table), unit rows, the registry's C grid.
PAPER_SETTINGS = Settings(
    folds=10, epochs=10, max_samples=0, scale="l2", c_grid=view_hyper("compare", "C").grid
)


# A lecturer's own file: measurements whose mean may lie far from the origin, few rows.
# Standardised columns (per training part) and an intercept let a linear model separate
# classes wherever they sit; 10 passes, since one pass over a few dozen rows leaves an
# online learner short (60 rows of 3 classes around (53, 62): 65 % error raw, with or
# without an intercept; 0-1.7 % so, as logistic regression with an intercept: 1.7 %;
# tests/test_compare_own_data.py measures it).
UPLOAD_SETTINGS = Settings(epochs=10, scale="standard", intercept=True)


def starting_settings(name: str | None, upload: bool = False) -> Settings:
    """Where the page starts: the reproduction's protocol on a dataset of seed 000's Table 4
    (so its paper column compares like with like), :data:`UPLOAD_SETTINGS` for an upload,
    small and quick settings elsewhere.

    >>> starting_settings("usps").folds, starting_settings("digits").folds
    (10, 3)
    >>> starting_settings(None, upload=True).scale, starting_settings(None, True).intercept
    ('standard', True)
    """
    from olearn.experiments.table4 import PAPER

    if upload:
        return UPLOAD_SETTINGS
    return PAPER_SETTINGS if name in PAPER else Settings()


# datasets shipped with scikit-learn or generated: no download, seconds to run
EMBEDDED = ("digits", "toy-blobs", "toy-separable", "toy-xor", "toy-moons", "toy-drift")


def runs_from_a_link(name: str | None, settings: Settings) -> bool:
    """May a shared link (``run=1``) start this comparison without a click?  Only a short
    one: embedded data, at most 1,000 samples, folds x epochs <= 30; a long run (a paper
    dataset, the full protocol) waits for the button.

    >>> runs_from_a_link("digits", Settings(3, 1, 600, "none", (1.0,)))
    True
    >>> runs_from_a_link("usps", PAPER_SETTINGS)
    False
    """
    return (
        name in EMBEDDED
        and 0 < settings.max_samples <= 1000
        and settings.folds * settings.epochs <= 30
    )


def departures(name: str | None, settings: Settings) -> list[tuple[str, object, object]]:
    """``(setting, ours, paper protocol)`` for each setting that differs from the Table 4
    reproduction's protocol, on a dataset of the paper's table (else ``[]``).

    >>> departures("usps", Settings(folds=3, epochs=10, max_samples=0, scale="l2",
    ...            c_grid=PAPER_SETTINGS.c_grid))
    [('folds', 3, 10)]
    >>> departures("digits", Settings())
    []
    """
    from olearn.experiments.table4 import PAPER

    if name not in PAPER:
        return []
    out = []
    for field_name in ("folds", "epochs", "max_samples", "scale", "c_grid", "intercept"):
        ours, paper = getattr(settings, field_name), getattr(PAPER_SETTINGS, field_name)
        if field_name == "c_grid":
            ours, paper = tuple(float(c) for c in ours), tuple(float(c) for c in paper)
        if ours != paper:
            out.append((field_name, ours, paper))
    return out


@dataclass(frozen=True)
class Comparison:
    """table : one row per algorithm: error % (mean, std over folds), the paper's value where
    seed 000 Table 4 has one, the chosen parameters, mean training time (s).
    curves : long table (algorithm, key, t, rate %) of online mistake rates at the chosen C.
    config : the protocol's choices, printed.  sizes : the data as used.
    baseline : the test error (%) of always answering the training part's most frequent
    class, over the same folds.  off_centre : how far the data's mean lies from the origin,
    in standard deviations of the data (:func:`off_centre`).  protocol : the settings run."""

    dataset: str
    table: pd.DataFrame
    curves: pd.DataFrame
    config: str
    sizes: dict
    baseline: float = float("nan")
    off_centre: float = 0.0
    protocol: ProtocolConfig | None = None


def dataset_from(
    name: str | None = None,
    upload: bytes | None = None,
    filename: str | None = None,
    data_home: str | None = None,
):
    """A :class:`DataRef` for a registered name, or the validated :class:`Dataset` of an upload
    (``olearn.datasets.read_upload``: a clear ValueError when the file is not usable)."""
    if upload is not None:
        from olearn.datasets import read_upload

        return read_upload(upload, filename or "upload")
    if not name:
        raise ValueError("choose a dataset or upload a file")
    from olearn import datasets

    if name not in datasets.names():
        raise ValueError(f"unknown dataset {name!r}; known: {datasets.names()}")
    return DataRef(name, data_home)


def run_bytes(data, algorithms: Sequence[str], folds: int) -> tuple[int, str]:
    """(bytes, description) of the models a comparison of ``data`` may hold at once: every
    learner on every fold, each ``classes x (features + 1)`` float64 numbers times the copies
    its family keeps (the confidence-weighted family: mean, diagonal covariance and their
    averages, 4; the others: weights and an average or a dual's work arrays, 2).  A
    registered dataset (a :class:`DataRef`, sizes unknown before loading) counts 0: the
    library's own budget guards it.

    >>> from olearn.datasets.toy import make_toy
    >>> nbytes, what = run_bytes(make_toy("blobs", n_samples=30), ["perceptron", "cw"], 5)
    >>> nbytes, what
    (2160, '2 learners x 5 folds of 3 classes x 3 features (6 model copies per fold)')
    >>> run_bytes(make_toy("blobs", n_samples=30), ["svm", "maxent"], 5)[0]  # the baselines
    1440
    """
    if not hasattr(data, "X"):
        return 0, ""
    n_classes = int(np.unique(np.asarray(data.y)).size)
    n_features = int(data.X.shape[1]) + 1  # + the bias column
    from olearn.experiments.baselines import learner  # any key the protocol takes

    copies = sum(4 if learner(k).family == "cw" else 2 for k in algorithms)
    nbytes = model_bytes(n_classes, n_features, copies * int(folds))
    what = (
        f"{len(algorithms)} learners x {int(folds)} folds of {n_classes:,} classes x "
        f"{n_features:,} features ({copies} model copies per fold)"
    )
    return nbytes, what


def compare(
    data,
    algorithms: Sequence[str] = DEFAULT_ALGORITHMS,
    c_grid=QUICK_C_GRID,
    epochs: int = 1,
    folds: int = 5,
    seed: int = 0,
    *,
    max_samples: int | None = 1000,
    curves: bool = True,
    progress: Callable | None = None,
    scale: str = "none",
    budget: int | None = None,
    fit_intercept: bool = False,
) -> Comparison:
    """Run the protocol (K-fold CV, C tuned on one random fold) and the learning curves.

    ``progress(share, message)`` is called across both phases (the curves count as the
    last part); ``scale`` is the protocol's scaling ("none", "l2" or "standard"), and
    ``fit_intercept`` gives every learner that can a bias.  Before any work,
    the models it may hold (:func:`run_bytes`) are checked against ``budget`` (bytes; the
    library's by default): over it, :class:`olearn._budget.BudgetError` names the sizes.

    >>> from olearn.datasets.toy import make_toy
    >>> res = compare(make_toy("blobs", n_samples=90), ["perceptron", "spa1"], folds=3,
    ...               c_grid=(0.1, 1.0), max_samples=None)
    >>> res.table["algorithm"].tolist(), sorted(res.curves["key"].unique())
    (['Perceptron', 'SPA-I'], ['perceptron', 'spa1'])
    """
    from olearn.experiments.curves import learning_curves
    from olearn.experiments.table4 import PAPER, paper_label

    algorithms = list(dict.fromkeys(algorithms))
    if not algorithms:
        raise ValueError("choose at least one algorithm")
    nbytes, what = run_bytes(data, algorithms, folds)
    require(nbytes, f"this comparison ({what})", budget=budget)
    config = ProtocolConfig(
        folds=int(folds),
        seed=int(seed),
        epochs=int(epochs),
        c_grid=tuple(c_grid) if c_grid else None,
        max_samples=int(max_samples) if max_samples else None,
        scale=scale,
        fit_intercept=bool(fit_intercept),
    )

    def phase(offset: float, share: float):
        if progress is None:
            return None
        return lambda done, total, msg: progress(offset + share * done / max(total, 1), msg)

    execution = Execution(progress=phase(0.0, 0.8 if curves else 1.0))
    res = run_protocol([data], algorithms, config, execution)
    s = res.summary
    name = str(s["dataset"].iloc[0])
    paper = PAPER.get(name, {})
    table = pd.DataFrame(
        {
            "algorithm": s["algorithm"],
            "key": s["key"],
            "error %": s["error"],
            "std": s["error_std"],
            "paper %": [
                paper.get(paper_label(k, a), np.nan) for k, a in zip(s["key"], s["algorithm"])
            ],
            "params": s["params"],
            "train time (s)": s["train_time"],
        }
    )
    if not table["paper %"].notna().any():
        table = table.drop(columns="paper %")
    curve_table = pd.DataFrame(columns=["algorithm", "key", "t", "rate"])
    if curves:
        chosen = {(name, k): json.loads(p) for k, p in zip(s["key"], s["params"])}
        curve_table = learning_curves(
            [data],
            algorithms,
            config,
            params=chosen,
            points=150,
            execution=Execution(progress=phase(0.8, 0.2)),
        )
    if progress is not None:
        progress(1.0, "done")
    return Comparison(
        name,
        table,
        curve_table,
        config.describe(),
        res.sizes,
        majority_error(data, config),
        off_centre(data),
        config,
    )


def majority_error(data, config: ProtocolConfig) -> float:
    """The trivial baseline: test error (%) of always answering the most frequent class of
    each outer fold's training part, averaged over the protocol's folds.

    >>> from olearn.datasets.toy import make_toy
    >>> round(majority_error(make_toy("blobs", n_samples=90), ProtocolConfig(folds=3)), 2)
    66.67
    """
    from olearn.experiments.protocol import prepared, split

    _, y = prepared(data, config)
    errors = []
    for fold in range(config.folds):
        train, test = split(y, config, fold)
        labels, counts = np.unique(y[train], return_counts=True)
        errors.append(float(np.mean(y[test] != labels[np.argmax(counts)])) * 100.0)
    return float(np.mean(errors))


OFF_CENTRE = 2.0  # the data's mean this many standard deviations from the origin: a warning


def off_centre(data) -> float:
    """The distance of the data's mean from the origin, in units of the data's spread
    (``||mean|| / sqrt(total variance)``): far above 1, a model through the origin (or a
    unit intercept column dwarfed by the features) cannot separate the classes until the
    columns are centred.  0 for a registered dataset (not loaded here).

    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> round(off_centre(SimpleNamespace(X=np.array([[50.0, 60.0], [52.0, 62.0]]))), 1)
    56.2
    """
    if not hasattr(data, "X"):
        return 0.0
    X = data.X
    if hasattr(X, "toarray"):  # sparse: the column means and variances without densifying
        mean = np.asarray(X.mean(axis=0)).ravel()
        variance = np.asarray(X.multiply(X).mean(axis=0)).ravel() - mean**2
    else:
        mean, variance = X.mean(axis=0), X.var(axis=0)
    spread = float(np.sqrt(max(np.sum(variance), 0.0)))
    distance = float(np.linalg.norm(mean))
    return distance / spread if spread > 0 else (np.inf if distance > 0 else 0.0)


def notes(result: Comparison) -> list[tuple[str, dict]]:
    """What the page says under the table, as (``cmp.note.*`` key, values): the trivial
    baseline always; a warning when every learner is no better than it; a warning when the
    data's mean lies more than :data:`OFF_CENTRE` spreads from the origin and the columns are
    not centred."""
    from olearn.teaching.strings import num

    out = [("cmp.note.baseline", {"error": num(result.baseline, 3)})]
    errors = result.table["error %"].to_numpy(dtype=float)
    if len(errors) and np.all(errors >= result.baseline):
        out.append(("cmp.note.trivial", {"error": num(result.baseline, 3)}))
    scale = result.protocol.scale if result.protocol else "none"
    if result.off_centre > OFF_CENTRE and scale != "standard":
        out.append(("cmp.note.off_centre", {"spreads": num(result.off_centre, 2)}))
    return out


# the result table's columns -> their UI string keys (olearn.teaching.strings.compare)
COLUMN_KEYS = {
    "algorithm": "cmp.col.algorithm",
    "key": "cmp.col.key",
    "error %": "cmp.col.error",
    "std": "cmp.col.std",
    "paper %": "cmp.col.paper",
    "params": "cmp.col.params",
    "train time (s)": "cmp.col.train_time",
}


def params_text(params) -> str:
    """Chosen hyper-parameters (a dict or its JSON) as a lecturer writes them.

    >>> params_text('{"C": 0.1, "eta": 0.7}'), params_text("{}"), params_text("not json")
    ('C = 0.1, eta = 0.7', '', 'not json')
    """
    from olearn.teaching.strings import num

    if isinstance(params, str):
        try:
            params = json.loads(params) if params.strip() else {}
        except ValueError:
            return params
    if not isinstance(params, dict):
        return str(params)
    return ", ".join(
        f"{k} = {num(v) if isinstance(v, int | float) and not isinstance(v, bool) else v}"
        for k, v in params.items()
    )


def learner_label(key: str, lang: str) -> str:
    """A learner's name as the page shows it: the registry's, an averaged variant's
    (``"<key>-avg"``, :data:`olearn.registry.AVERAGED`) with "(averaged)" in ``lang``, and the
    two baselines' labels.

    >>> learner_label("pa1-avg", "ja"), learner_label("spa", "en")
    ('PA-I (平均化)', 'SPA')
    """
    from olearn.teaching.strings import t

    if key in ("maxent", "svm"):
        return t(f"cmp.algo.{key}", lang)
    if key.endswith("-avg"):
        return t("cmp.algo.averaged", lang, name=registry.get(key.removesuffix("-avg")).name)
    return registry.get(key).name


# how the page writes each number column: a class reads 12.3 %, not 12.3457
FORMATS = {"error %": "{:.1f}", "std": "{:.1f}", "paper %": "{:.2f}", "train time (s)": "{:.2g}"}


def display_table(table: pd.DataFrame, lang: str) -> pd.DataFrame:
    """The result table as the page shows it: indexed by the learner's name in ``lang``, the
    internal ``key`` left out, the chosen parameters as text, the column names in ``lang``
    (the data and the CSV keep their names, keys and JSON; :func:`table_formats` says how
    each number is written).

    >>> shown = display_table(pd.DataFrame({"algorithm": ["PA-I (averaged)"],
    ...                       "key": ["pa1-avg"], "error %": [1.25], "params": ['{"C": 0.1}']}),
    ...                       "ja")
    >>> shown.index.name, shown.index[0], shown.columns.tolist(), shown.iloc[0, 1]
    ('アルゴリズム', 'PA-I (平均化)', ['誤り率 %', 'パラメータ'], 'C = 0.1')
    """
    from olearn.teaching.strings import t

    if "params" in table:
        table = table.assign(params=[params_text(p) for p in table["params"]])
    if "key" in table and "algorithm" in table:  # averaged variants' names in lang
        averaged = table["key"].astype(str).str.endswith("-avg")
        names = [
            learner_label(k, lang) if a else n
            for k, n, a in zip(table["key"], table["algorithm"], averaged)
        ]
        table = table.assign(algorithm=names)
    table = table.drop(columns=[c for c in ("key",) if c in table])
    if "algorithm" in table:
        table = table.set_index("algorithm")
        table.index.name = t(COLUMN_KEYS["algorithm"], lang)
    return table.rename(columns={c: t(k, lang) for c, k in COLUMN_KEYS.items()})


def table_formats(lang: str) -> dict[str, str]:
    """:data:`FORMATS` by the column names :func:`display_table` gives in ``lang``."""
    from olearn.teaching.strings import t

    return {t(COLUMN_KEYS[c], lang): f for c, f in FORMATS.items()}
