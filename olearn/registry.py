"""Every algorithm, listed once: tests, the CLI and the app iterate over this table.

A new algorithm is one :class:`AlgorithmSpec` in ``ALGORITHMS`` (keep each family's entries
together, in teaching order).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from olearn.core.cs_svm import cs_step
from olearn.core.cw import CW_GRIDS, CW_REFERENCES, arow_step, cw_step, scw_step
from olearn.core.pa import pa_step, perceptron_step
from olearn.core.pcvm import em_step as pcvm_em_step
from olearn.core.sgd_svm import sgd_step
from olearn.core.spa import spa_step
from olearn.estimators import (
    AROWClassifier,
    CrammerSingerSVC,
    CWClassifier,
    PAClassifier,
    PCVMClassifier,
    PerceptronClassifier,
    SCWClassifier,
    SGDSVMClassifier,
    SPAClassifier,
)
from olearn.kernels.additive import additive_epoch
from olearn.kernels.cs_svm import cs_sweep
from olearn.kernels.cw import cw_epoch
from olearn.kernels.sgd_svm import sgd_epoch


@dataclass(frozen=True)
class AlgorithmSpec:
    """One algorithm.

    Attributes
    ----------
    name : display name ("SPA-I").  key : CLI / URL key ("spa1").
    family : "pa" (Perceptron, PA, SPA), "cw", or "batch".
    step : the readable rule in :mod:`olearn.core` (``step(state, x, y, **step_kwargs)``).
    step_kwargs : the rule's fixed arguments (e.g. the variant).
    kernel : the numba kernel in :mod:`olearn.kernels`.
    estimator : the scikit-learn class; ``params`` its fixed arguments, ``defaults`` the
        tunable ones with their default values; ``grid`` the values tuned over (may be empty).
    online : True for online learners (learning curves apply).
    reference : the paper;  seed : the seed file that teaches it ("000".."004").
    colour, dash : the learner's line colour (hex) and plotly dash on every page and figure.
    """

    name: str
    key: str
    family: str
    step: Callable
    kernel: Callable | None
    estimator: type
    reference: str
    seed: str
    online: bool = True
    step_kwargs: dict[str, Any] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    defaults: dict[str, Any] = field(default_factory=dict)
    grid: dict[str, list] = field(default_factory=dict)
    colour: str = "#777777"
    dash: str = "solid"

    def make(self, **overrides):
        """A fresh estimator with the fixed params, the defaults and ``overrides``."""
        return self.estimator(**{**self.params, **self.defaults, **overrides})


_PA = (
    "Crammer, Dekel, Keshet, Shalev-Shwartz, Singer. "
    "Online Passive-Aggressive Algorithms. JMLR 7, 2006"
)
_SPA = (
    "Matsushima, Shimizu, Yoshida, Ninomiya, Nakagawa. Exact Passive-Aggressive Algorithm "
    "for Multiclass Classification Using Support Class. SDM 2010"
)
_C_GRID = [0.001, 0.01, 0.1, 1.0, 10.0]
_SGD = (
    "Bottou. Large-Scale Machine Learning with Stochastic Gradient Descent. COMPSTAT 2010; "
    "Ono, McAllester, Sasaki. Acceleration of SGD SVMs for Large-Scale Text Classification"
)
_LAM_GRID = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2]
_PCVM = (
    "Chen, Tino, Yao. Probabilistic Classification Vector Machines. IEEE TNN 20(6), 2009; "
    "Ikegami, Obata, Kobayashi, Sakashita (seed 002): learned noise precision"
)

ALGORITHMS: list[AlgorithmSpec] = [
    AlgorithmSpec(
        "Perceptron",
        "perceptron",
        "pa",
        perceptron_step,
        additive_epoch,
        PerceptronClassifier,
        "Rosenblatt. Psychological Review 65(6), 1958",
        "000",
        colour="#777777",
        dash="dot",
    ),
    AlgorithmSpec(
        "PA",
        "pa",
        "pa",
        pa_step,
        additive_epoch,
        PAClassifier,
        _PA,
        "000",
        params={"variant": None},
        colour="#0077BB",
        dash="dash",
    ),
    AlgorithmSpec(
        "PA-I",
        "pa1",
        "pa",
        pa_step,
        additive_epoch,
        PAClassifier,
        _PA,
        "000",
        step_kwargs={"variant": "I"},
        params={"variant": "I"},
        defaults={"C": 1.0},
        grid={"C": _C_GRID},
        colour="#33BBEE",
        dash="dashdot",
    ),
    AlgorithmSpec(
        "PA-II",
        "pa2",
        "pa",
        pa_step,
        additive_epoch,
        PAClassifier,
        _PA,
        "000",
        step_kwargs={"variant": "II"},
        params={"variant": "II"},
        defaults={"C": 1.0},
        grid={"C": _C_GRID},
        colour="#004488",
        dash="longdash",
    ),
    AlgorithmSpec(
        "SPA",
        "spa",
        "pa",
        spa_step,
        additive_epoch,
        SPAClassifier,
        _SPA,
        "000",
        params={"variant": None},
        colour="#009988",
        dash="solid",
    ),
    AlgorithmSpec(
        "SPA-I",
        "spa1",
        "pa",
        spa_step,
        additive_epoch,
        SPAClassifier,
        _SPA,
        "000",
        step_kwargs={"variant": "I"},
        params={"variant": "I"},
        defaults={"C": 1.0},
        grid={"C": _C_GRID},
        colour="#117733",
        dash="longdashdot",
    ),
    AlgorithmSpec(
        "SPA-II",
        "spa2",
        "pa",
        spa_step,
        additive_epoch,
        SPAClassifier,
        _SPA,
        "000",
        step_kwargs={"variant": "II"},
        params={"variant": "II"},
        defaults={"C": 1.0},
        grid={"C": _C_GRID},
        colour="#225522",
        dash="5px,3px,1px,3px",
    ),
    # --- confidence-weighted family (seed 001): CW, AROW, SCW-I, SCW-II ---
    AlgorithmSpec(
        "CW",
        "cw",
        "cw",
        cw_step,
        cw_epoch,
        CWClassifier,
        CW_REFERENCES["cw"],
        "001",
        defaults={"eta": 0.7},
        grid={"eta": CW_GRIDS["eta"]},
        colour="#EE7733",
        dash="dot",
    ),
    AlgorithmSpec(
        "AROW",
        "arow",
        "cw",
        arow_step,
        cw_epoch,
        AROWClassifier,
        CW_REFERENCES["arow"],
        "001",
        defaults={"r": 1.0},
        grid={"r": CW_GRIDS["r"]},
        colour="#CC3311",
        dash="solid",
    ),
    AlgorithmSpec(
        "SCW-I",
        "scw1",
        "cw",
        scw_step,
        cw_epoch,
        SCWClassifier,
        CW_REFERENCES["scw"],
        "001",
        step_kwargs={"variant": "I"},
        params={"variant": "I"},
        defaults={"C": 1.0, "eta": 0.75},
        grid={"C": CW_GRIDS["C"], "eta": CW_GRIDS["eta"]},
        colour="#EE3377",
        dash="dash",
    ),
    AlgorithmSpec(
        "SCW-II",
        "scw2",
        "cw",
        scw_step,
        cw_epoch,
        SCWClassifier,
        CW_REFERENCES["scw"],
        "001",
        step_kwargs={"variant": "II"},
        params={"variant": "II"},
        defaults={"C": 1.0, "eta": 0.75},
        grid={"C": CW_GRIDS["C"], "eta": CW_GRIDS["eta"]},
        colour="#AA4499",
        dash="dashdot",
    ),
    # --- batch: Crammer-Singer multiclass SVM (seed 003) ---
    AlgorithmSpec(
        "Crammer-Singer SVM",
        "cs-svm",
        "batch",
        cs_step,
        cs_sweep,
        CrammerSingerSVC,
        "Crammer, Singer. On the algorithmic implementation of multiclass kernel-based "
        "vector machines. JMLR 2, 2001",
        "003",
        online=False,
        defaults={"C": 1.0},
        grid={"C": _C_GRID},
        colour="#332288",
        dash="solid",
    ),
    # --- batch: PCVM with noise precision (seed 002) ---
    AlgorithmSpec(
        "PCVM",
        "pcvm",
        "batch",
        pcvm_em_step,
        None,
        PCVMClassifier,
        _PCVM,
        "002",
        online=False,
        defaults={"lam": 20000.0},
        grid={"lam": [10000.0, 20000.0, 40000.0, 80000.0]},
        colour="#999933",
        dash="dash",
    ),
    AlgorithmSpec(
        "PCVM (gamma=1)",
        "pcvm-chen",
        "batch",
        pcvm_em_step,
        None,
        PCVMClassifier,
        _PCVM,
        "002",
        online=False,
        params={"gamma": 1.0},
        colour="#DDAA33",
        dash="dot",
    ),
    # --- batch: SGD-SVM, global and per-feature rates (seed 004) ---
    AlgorithmSpec(
        "SGD-SVM",
        "sgd-svm",
        "batch",
        sgd_step,
        sgd_epoch,
        SGDSVMClassifier,
        _SGD,
        "004",
        online=False,
        step_kwargs={"schedule": "global"},
        params={"schedule": "global"},
        defaults={"lam": 1e-4},
        grid={"lam": _LAM_GRID},
        colour="#882255",
        dash="solid",
    ),
    AlgorithmSpec(
        "SGD-SVM (per-feature rates)",
        "sgd-svm-pf",
        "batch",
        sgd_step,
        sgd_epoch,
        SGDSVMClassifier,
        _SGD,
        "004",
        online=False,
        step_kwargs={"schedule": "per-feature"},
        params={"schedule": "per-feature"},
        defaults={"lam": 1e-4},
        grid={"lam": _LAM_GRID},
        colour="#AA7744",
        dash="dash",
    ),
]

_BY_KEY = {a.key: a for a in ALGORITHMS}
_BY_NAME = {a.name.lower(): a for a in ALGORITHMS}


def get(name: str) -> AlgorithmSpec:
    """Look an algorithm up by key ("spa1") or display name ("SPA-I"), case-insensitively."""
    spec = _BY_KEY.get(name.lower()) or _BY_NAME.get(name.lower())
    if spec is None:
        raise KeyError(f"unknown algorithm {name!r}; known: {[a.key for a in ALGORITHMS]}")
    return spec


def names(family: str | None = None, online: bool | None = None) -> list[str]:
    """Keys of the registered algorithms, optionally of one family / online or batch only."""
    return [
        a.key
        for a in ALGORITHMS
        if (family is None or a.family == family) and (online is None or a.online == online)
    ]


def check_instances() -> list:
    """One estimator instance per registered algorithm, for scikit-learn's checks."""
    return [
        a.make(random_state=0) if "random_state" in a.estimator().get_params() else a.make()
        for a in ALGORITHMS
    ]
