"""Every algorithm, listed once: tests, the CLI, the experiments and the app iterate over it.

A new algorithm is a readable rule (``olearn/core``), a kernel (``olearn/kernels``), an
estimator, and one :class:`AlgorithmSpec` in :data:`ALGORITHMS` (keep each family's entries
together, in teaching order).  Everything else reads this table: the kernel-equality and
estimator tests are parametrised from it, the app's pages take their algorithm lists, colours
and dashes from it, the protocols their grids.

Imports are lazy: rules, kernels and estimator classes are named by ``"module:attribute"``
and loaded on first use, so ``import olearn.registry`` costs no scikit-learn or numba import.

>>> get("SPA-I").key, dict(get("spa1").fixed)
('spa1', {'variant': 'I'})
>>> [h.name for h in get("scw1").hypers]
['C', 'eta']
>>> keys(view="cw")
['cw', 'arow', 'scw1', 'scw2']
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, NamedTuple

# --- the declarations --------------------------------------------------------------------------


@dataclass(frozen=True)
class Hyper:
    """A tunable hyper-parameter of an algorithm.

    Its type and constraint are declared once, in the estimator's scikit-learn
    ``_parameter_constraints`` (which validates every ``fit``); :attr:`AlgorithmSpec.hypers`
    adds what the protocols and the app need: the default, the grid the protocols tune over
    and the range a slider offers (``log`` for a log-scale slider).
    """

    name: str
    default: float
    grid: tuple[float, ...] = ()
    low: float | None = None
    high: float | None = None
    log: bool = True


class ReadableLearner(NamedTuple):
    """An online learner driven through its readable rule (the teaching views, the tests).

    ``init(d, K) -> state``; ``step(state, x, y) -> (state, trace)``; ``weights(state)`` the
    (K, d) weights (means for the confidence-weighted family); ``covariance(state)`` the
    (d, d) covariance or None; ``grow(state, position) -> state`` adds a class that joins
    mid-stream: a zero weight (mean) row at ``position``, the covariance shared as it is.
    """

    init: Callable
    step: Callable
    weights: Callable
    covariance: Callable
    grow: Callable


@dataclass(frozen=True)
class AlgorithmSpec:
    """One algorithm.

    Attributes
    ----------
    name : display name ("SPA-I").  key : CLI / URL key ("spa1").
    family : "pa" (Perceptron, PA, SPA), "cw" (CW, AROW, SCW), or "batch".
    rule : the readable rule in :mod:`olearn.core`, as ``"module:function"``.
    kernel : the numba kernel in :mod:`olearn.kernels` (``"module:function"``), or None.
    estimator : the scikit-learn class's name in :mod:`olearn.estimators`.
    fixed : arguments that make this algorithm of its estimator / rule (e.g. the variant);
        given to the estimator, and to the rule where its signature takes them.
    hypers : the tunable hyper-parameters (:class:`Hyper`), defaults and grids.
    online : True for online learners (learning curves, the playground apply).
    reference : the paper;  seed : the seed file that teaches it ("000".."004").
    colour, dash : the learner's line colour (hex) and plotly dash on every page and figure
        (Paul Tol's colour-blind-safe sets; distinct per learner).
    views : the app views that offer it (``"playground"``, ``"cw"``, ``"compare"``, ...);
        ``default_in`` those that pre-select it.
    walk : the page that explains one of its steps (``"spa"``, ``"cw"``, ``"cs_svm"``, ...).
    diagnostic : not an algorithm of the papers but a labelled probe of a claim about them.
    """

    name: str
    key: str
    family: str
    rule: str
    kernel: str | None
    estimator: str
    reference: str
    seed: str
    online: bool = True
    fixed: Mapping[str, Any] = field(default_factory=dict)
    hypers: tuple[Hyper, ...] = ()
    colour: str = "#777777"
    dash: str = "solid"
    views: frozenset[str] = frozenset()
    default_in: frozenset[str] = frozenset()
    walk: str | None = None
    diagnostic: bool = False

    def __post_init__(self):
        object.__setattr__(self, "fixed", MappingProxyType(dict(self.fixed)))

    # --- lazily loaded code ------------------------------------------------------------
    @property
    def step(self) -> Callable:
        """The readable rule."""
        return _load(self.rule)

    @property
    def kernel_function(self) -> Callable | None:
        """The numba kernel (None for PCVM, whose EM has no kernel)."""
        return _load(self.kernel) if self.kernel else None

    @property
    def estimator_class(self) -> type:
        """The scikit-learn class."""
        return getattr(importlib.import_module("olearn.estimators"), self.estimator)

    # --- hyper-parameters --------------------------------------------------------------
    @property
    def defaults(self) -> dict[str, float]:
        """Tunable hyper-parameters at their defaults."""
        return {h.name: h.default for h in self.hypers}

    @property
    def grid(self) -> dict[str, list]:
        """The values the protocols tune over (hyper-parameters with a grid only)."""
        return {h.name: list(h.grid) for h in self.hypers if h.grid}

    def hyper(self, name: str) -> Hyper:
        """The :class:`Hyper` called ``name`` (KeyError if the algorithm has none)."""
        for h in self.hypers:
            if h.name == name:
                return h
        raise KeyError(f"{self.name} has no hyper-parameter {name!r}")

    def constraint(self, name: str) -> list:
        """The estimator's scikit-learn constraint list for parameter ``name``."""
        return self.estimator_class._parameter_constraints[name]

    def make(self, **overrides):
        """A fresh estimator with the fixed arguments, the defaults and ``overrides``."""
        return self.estimator_class(**{**self.fixed, **self.defaults, **overrides})

    def rule_kwargs(self, **overrides) -> dict[str, Any]:
        """The rule's keyword arguments: fixed ones, defaults and overrides it accepts."""
        accepted = inspect.signature(self.step).parameters
        given = {**self.fixed, **self.defaults, **overrides}
        return {k: v for k, v in given.items() if k in accepted}

    def readable(self, covariance: str = "full", **overrides) -> ReadableLearner:
        """This online learner through its readable rule, from zero weights.

        ``covariance`` ("full" or "diagonal") applies to the confidence-weighted family.

        >>> learner = get("spa").readable()
        >>> state, trace = learner.step(learner.init(2, 3), [1.0, 0.0], 0)
        >>> learner.weights(state).shape, trace.support
        ((3, 2), (1, 2))
        """
        if not self.online:
            raise ValueError(f"{self.name} is a batch algorithm: it has no online stream")
        import numpy as np

        step, kwargs = self.step, self.rule_kwargs(**overrides)
        if self.family == "cw":
            from olearn.core.cw import cw_init

            a = float(overrides.get("a", 1.0))
            return ReadableLearner(
                lambda d, K: cw_init(d, K, covariance=covariance, a=a),
                lambda s, x, y: step(s, x, y, **kwargs),
                lambda s: s.mu,
                lambda s: s.Sigma if s.Sigma.ndim == 2 else None,
                lambda s, at: s._replace(mu=np.insert(s.mu, at, 0.0, axis=0)),
            )
        return ReadableLearner(
            lambda d, K: np.zeros((K, d)),
            lambda s, x, y: step(s, x, y, **kwargs),
            lambda s: s,
            lambda s: None,
            lambda s, at: np.insert(s, at, 0.0, axis=0),
        )


def _load(path: str) -> Any:
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


# --- the table ---------------------------------------------------------------------------------

_PA = (
    "Crammer, Dekel, Keshet, Shalev-Shwartz, Singer. "
    "Online Passive-Aggressive Algorithms. JMLR 7, 2006"
)
_SPA = (
    "Matsushima, Shimizu, Yoshida, Ninomiya, Nakagawa. Exact Passive-Aggressive Algorithm "
    "for Multiclass Classification Using Support Class. SDM 2010"
)
_CW = "Crammer, Dredze, Pereira. Exact Convex Confidence-Weighted Learning. NIPS 2008"
_AROW = "Crammer, Kulesza, Dredze. Adaptive Regularization of Weight Vectors. NIPS 2009"
_SCW = "Wang, Zhao, Hoi. Exact Soft Confidence-Weighted Learning. ICML 2012"
_CS = (
    "Crammer, Singer. On the algorithmic implementation of multiclass kernel-based "
    "vector machines. JMLR 2, 2001"
)
_PCVM = (
    "Chen, Tino, Yao. Probabilistic Classification Vector Machines. IEEE TNN 20(6), 2009; "
    "Ikegami, Obata, Kobayashi, Sakashita (seed 002): learned noise precision"
)
_SGD = (
    "Bottou. Large-Scale Machine Learning with Stochastic Gradient Descent. COMPSTAT 2010; "
    "Ono, McAllester, Sasaki. Acceleration of SGD SVMs for Large-Scale Text Classification"
)

_C_GRID = (0.001, 0.01, 0.1, 1.0, 10.0)
C_PA = Hyper("C", 1.0, _C_GRID, 0.001, 100.0)
C_CW = Hyper("C", 1.0, (0.01, 0.1, 1.0, 10.0), 0.001, 100.0)
ETA = Hyper("eta", 0.75, (0.55, 0.65, 0.75, 0.85, 0.95), 0.51, 0.99, log=False)
ETA_CW = Hyper("eta", 0.7, ETA.grid, 0.51, 0.99, log=False)
R = Hyper("r", 1.0, (0.01, 0.1, 1.0, 10.0, 100.0), 0.01, 100.0)
LAM_SGD = Hyper("lam", 1e-4, (1e-6, 1e-5, 1e-4, 1e-3, 1e-2), 1e-7, 1e-1)
LAM_PCVM = Hyper("lam", 20000.0, (10000.0, 20000.0, 40000.0, 80000.0), 100.0, 1e6)

_ADDITIVE = "olearn.kernels.additive:additive_epoch"
_CW_KERNEL = "olearn.kernels.cw:cw_epoch"
_STREAM = frozenset({"playground", "compare", "lesson"})


def _views(*names: str) -> frozenset[str]:
    return frozenset(names)


def _pa(name, key, rule, estimator, reference, variant, style, **kw) -> AlgorithmSpec:
    """An entry of the PA family (seed 000): the additive kernel, the SPA page explains it."""
    fixed = kw.pop("fixed", {"variant": variant})
    hypers = (C_PA,) if variant else ()
    kw.setdefault("views", _STREAM)
    kw.setdefault("walk", "spa")
    return AlgorithmSpec(
        name,
        key,
        "pa",
        f"olearn.core.{rule}",
        _ADDITIVE,
        estimator,
        reference,
        "000",
        fixed=fixed,
        hypers=hypers,
        colour=style[0],
        dash=style[1],
        **kw,
    )


def _cw(name, key, rule, estimator, reference, hypers, style, **kw) -> AlgorithmSpec:
    """An entry of the confidence-weighted family (seed 001): the CW kernel and page."""
    return AlgorithmSpec(
        name,
        key,
        "cw",
        f"olearn.core.cw:{rule}",
        _CW_KERNEL,
        estimator,
        reference,
        "001",
        hypers=hypers,
        colour=style[0],
        dash=style[1],
        views=_STREAM | {"cw", "noise"},
        walk="cw",
        **kw,
    )


def _batch(name, key, rule, kernel, estimator, reference, seed, style, **kw) -> AlgorithmSpec:
    """A batch reference: no stream, offered on the Compare page."""
    return AlgorithmSpec(
        name,
        key,
        "batch",
        f"olearn.core.{rule}",
        kernel,
        estimator,
        reference,
        seed,
        online=False,
        colour=style[0],
        dash=style[1],
        views=_views("compare"),
        **kw,
    )


ALGORITHMS: list[AlgorithmSpec] = [
    # the PA family (seed 000), in teaching order; style = (colour, dash)
    _pa(
        "Perceptron",
        "perceptron",
        "pa:perceptron_step",
        "PerceptronClassifier",
        "Rosenblatt. Psychological Review 65(6), 1958",
        None,
        ("#777777", "dot"),
        fixed={},
        views=_STREAM | {"noise"},
        default_in=_views("playground", "compare", "noise"),
    ),
    _pa(
        "PA",
        "pa",
        "pa:pa_step",
        "PAClassifier",
        _PA,
        None,
        ("#0077BB", "dash"),
        default_in=_views("playground"),
    ),
    _pa(
        "PA-I",
        "pa1",
        "pa:pa_step",
        "PAClassifier",
        _PA,
        "I",
        ("#33BBEE", "dashdot"),
        views=_STREAM | {"noise"},
        default_in=_views("compare", "noise"),
    ),
    _pa("PA-II", "pa2", "pa:pa_step", "PAClassifier", _PA, "II", ("#004488", "longdash")),
    _pa(
        "PA (mistakes only)",
        "pa-mistakes",
        "pa:pa_step",
        "PAClassifier",
        _PA,
        None,
        ("#BBBBBB", "dot"),
        fixed={"variant": None, "mistakes_only": True},
        views=_views("compare"),
        walk=None,
        diagnostic=True,
    ),
    _pa(
        "SPA",
        "spa",
        "spa:spa_step",
        "SPAClassifier",
        _SPA,
        None,
        ("#009988", "solid"),
        default_in=_views("playground"),
    ),
    _pa(
        "SPA-I",
        "spa1",
        "spa:spa_step",
        "SPAClassifier",
        _SPA,
        "I",
        ("#117733", "longdashdot"),
        default_in=_views("compare"),
    ),
    _pa(
        "SPA-II",
        "spa2",
        "spa:spa_step",
        "SPAClassifier",
        _SPA,
        "II",
        ("#225522", "5px,3px,1px,3px"),
        default_in=_views("compare"),
    ),
    # the confidence-weighted family (seed 001)
    _cw(
        "CW",
        "cw",
        "cw_step",
        "CWClassifier",
        _CW,
        (ETA_CW,),
        ("#EE7733", "dot"),
        default_in=_views("noise"),
    ),
    _cw(
        "AROW",
        "arow",
        "arow_step",
        "AROWClassifier",
        _AROW,
        (R,),
        ("#CC3311", "solid"),
        default_in=_views("compare", "noise", "cw"),
    ),
    _cw(
        "SCW-I",
        "scw1",
        "scw_step",
        "SCWClassifier",
        _SCW,
        (C_CW, ETA),
        ("#EE3377", "dash"),
        fixed={"variant": "I"},
        default_in=_views("noise"),
    ),
    _cw(
        "SCW-II",
        "scw2",
        "scw_step",
        "SCWClassifier",
        _SCW,
        (C_CW, ETA),
        ("#AA4499", "dashdot"),
        fixed={"variant": "II"},
        default_in=_views("noise"),
    ),
    # batch references: Crammer-Singer (seed 003), PCVM (seed 002), SGD-SVM (seed 004)
    _batch(
        "Crammer-Singer SVM",
        "cs-svm",
        "cs_svm:cs_step",
        "olearn.kernels.cs_svm:cs_sweep",
        "CrammerSingerSVC",
        _CS,
        "003",
        ("#332288", "solid"),
        hypers=(C_PA,),
        walk="cs_svm",
    ),
    _batch(
        "PCVM",
        "pcvm",
        "pcvm:em_step",
        None,
        "PCVMClassifier",
        _PCVM,
        "002",
        ("#999933", "dash"),
        hypers=(LAM_PCVM,),
        walk="pcvm",
    ),
    _batch(
        "PCVM (gamma=1)",
        "pcvm-chen",
        "pcvm:em_step",
        None,
        "PCVMClassifier",
        _PCVM,
        "002",
        ("#DDAA33", "dot"),
        fixed={"gamma": 1.0},
        walk="pcvm",
    ),
    _batch(
        "SGD-SVM",
        "sgd-svm",
        "sgd_svm:sgd_step",
        "olearn.kernels.sgd_svm:sgd_epoch",
        "SGDSVMClassifier",
        _SGD,
        "004",
        ("#882255", "solid"),
        fixed={"schedule": "global"},
        hypers=(LAM_SGD,),
        walk="sgd",
    ),
    _batch(
        "SGD-SVM (per-feature rates)",
        "sgd-svm-pf",
        "sgd_svm:sgd_step",
        "olearn.kernels.sgd_svm:sgd_epoch",
        "SGDSVMClassifier",
        _SGD,
        "004",
        ("#AA7744", "dash"),
        fixed={"schedule": "per-feature"},
        hypers=(LAM_SGD,),
        walk="sgd",
    ),
]


def _averaged(spec: AlgorithmSpec) -> AlgorithmSpec:
    """The same online learner with ``average=True`` (the mean of its iterates predicts:
    :mod:`olearn.estimators._average`), offered on the Compare page; key ``"<key>-avg"``."""
    return replace(
        spec,
        name=f"{spec.name} (averaged)",
        key=f"{spec.key}-avg",
        fixed={**spec.fixed, "average": True},
        dash="dashdot",
        views=_views("compare"),
        default_in=frozenset(),
    )


# averaged variants: looked up like the others, listed by ``keys(..., averaged=True)`` only
# (the registry-wide tests and views iterate over ALGORITHMS, the learners themselves)
AVERAGED: list[AlgorithmSpec] = [_averaged(a) for a in ALGORITHMS if a.online and not a.diagnostic]

_BY_KEY = {a.key: a for a in [*ALGORITHMS, *AVERAGED]}
_BY_NAME = {a.name.lower(): a for a in [*ALGORITHMS, *AVERAGED]}


def get(name: str) -> AlgorithmSpec:
    """Look an algorithm up by key ("spa1") or display name ("SPA-I"), case-insensitively."""
    spec = _BY_KEY.get(str(name).lower()) or _BY_NAME.get(str(name).lower())
    if spec is None:
        raise KeyError(f"unknown algorithm {name!r}; known: {[a.key for a in ALGORITHMS]}")
    return spec


def keys(
    family: str | None = None,
    online: bool | None = None,
    view: str | None = None,
    default: bool = False,
    kernel: str | None = None,
    averaged: bool = False,
) -> list[str]:
    """Keys of the registered algorithms, in teaching order, optionally filtered: of one
    ``family``; online or batch; offered by an app ``view`` (with ``default=True``: the ones
    that view pre-selects); run by a ``kernel`` (e.g. ``"additive"``).  ``averaged=True``
    adds the averaged variants (:data:`AVERAGED`, ``"<key>-avg"``) after the learners.

    >>> keys(view="compare", averaged=True)[-2:]
    ['scw1-avg', 'scw2-avg']
    """
    return [
        a.key
        for a in [*ALGORITHMS, *(AVERAGED if averaged else [])]
        if (family is None or a.family == family)
        and (online is None or a.online == online)
        and (view is None or view in (a.default_in if default else a.views))
        and (kernel is None or (a.kernel or "").startswith(f"olearn.kernels.{kernel}:"))
    ]


def check_instances() -> list:
    """One estimator instance per registered algorithm, for scikit-learn's checks."""
    return [
        a.make(random_state=0) if "random_state" in a.estimator_class().get_params() else a.make()
        for a in ALGORITHMS
    ]
