"""Every algorithm, listed once: tests, the CLI, the experiments and the app iterate over it.

A new algorithm is a readable rule (``olearn/core``), a kernel (``olearn/kernels``), an
estimator, and one :class:`AlgorithmSpec` in :data:`ALGORITHMS` (keep each family's entries
together, in teaching order).  Everything else reads this table: the kernel-equality and
estimator tests are parametrised from it, the app's pages take their algorithm lists, colours
and dashes from it, the protocols their grids.

Imports are lazy: rules are named by ``"module:attribute"`` and estimator classes by name,
both loaded on first use (the estimator names its kernel), so ``import olearn.registry``
costs no scikit-learn or numba import.

>>> get("SPA-I").key, dict(get("spa1").fixed)
('spa1', {'variant': 'I'})
>>> [h.name for h in get("scw1").hypers]
['C', 'eta']
>>> keys(view="cw")
['cw', 'arow', 'scw1', 'scw2', 'nherd', 'narow']

Classifiers and regressors: :data:`ALGORITHMS` lists the classifiers (what the app, the CLI,
the protocols and most tests iterate over), :data:`REGRESSORS` the regressors (PA regression);
:func:`get` finds both, :func:`keys`, :func:`specs` and :func:`check_instances` take a
``task`` ("classification" by default, "regression", or None for both), so no
classifier-only consumer receives a regressor.

>>> keys(task="regression")
['pa-reg', 'pa1-reg', 'pa2-reg']
"""

from __future__ import annotations

import functools
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
    and the range a slider offers, ``[low, high]`` (``log`` for a log-scale slider).  Every
    hyper-parameter has its range: ``low <= default <= high`` and the grid inside it (checked
    here; that the range is valid for the estimator is checked in ``tests/test_registry.py``).

    >>> Hyper("C", 1.0, (0.1, 1.0), low=0.01, high=10.0).slider_values()
    (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
    >>> Hyper("C", 1.0, low=2.0, high=10.0)
    Traceback (most recent call last):
    ...
    ValueError: hyper-parameter 'C': need low <= default <= high, got 2.0 <= 1.0 <= 10.0
    """

    name: str
    default: float
    grid: tuple[float, ...] = ()
    low: float | None = None
    high: float | None = None
    log: bool = True

    def __post_init__(self):
        if self.low is None or self.high is None:
            raise ValueError(f"hyper-parameter {self.name!r}: give the slider's range low, high")
        if not self.low <= self.default <= self.high:
            raise ValueError(
                f"hyper-parameter {self.name!r}: need low <= default <= high, got "
                f"{self.low} <= {self.default} <= {self.high}"
            )
        if any(not self.low <= g <= self.high for g in self.grid):
            raise ValueError(f"hyper-parameter {self.name!r}: grid {self.grid} leaves the range")
        if self.log and self.low <= 0.0:
            raise ValueError(f"hyper-parameter {self.name!r}: a log-scale range needs low > 0")

    def slider_values(self) -> tuple[float, ...]:
        """The values a slider offers: ``[low, high]`` in steps of 1-3-10 (log) or ninths
        (linear, two significant digits), with the default and the grid, sorted.

        >>> Hyper("eta", 0.7, low=0.51, high=0.99, log=False).slider_values()[:4]
        (0.51, 0.56, 0.62, 0.67)
        """
        import numpy as np

        if self.log:
            decades = range(
                int(np.floor(np.log10(self.low))), int(np.ceil(np.log10(self.high))) + 1
            )
            steps = [float(f"{m}e{e}") for e in decades for m in (1, 3)]
        else:
            steps = [float(f"{v:.2g}") for v in np.linspace(self.low, self.high, 10)]
        values = {self.low, self.high, self.default, *self.grid, *steps}
        return tuple(sorted(v for v in values if self.low <= v <= self.high))


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


@dataclass(frozen=True, kw_only=True)
class AlgorithmSpec:
    """One algorithm.

    Attributes
    ----------
    name : display name ("SPA-I").  key : CLI / URL key ("spa1").
    family : "pa" (Perceptron, PA, SPA), "cw" (CW, AROW, SCW), or "batch".
    rule : the readable rule in :mod:`olearn.core`, as ``"module:function"``
        (:attr:`step` loads it, :meth:`apply` calls it with this algorithm's arguments).
    estimator : the scikit-learn class's name in :mod:`olearn.estimators`.  The estimator
        names the numba kernel it runs (:attr:`kernel`): the kernel's arguments are the
        estimator's own, so the registry does not repeat it.
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
    task : "classification" (labels; :data:`ALGORITHMS`) or "regression" (real targets;
        :data:`REGRESSORS`).
    """

    name: str
    key: str
    family: str
    rule: str
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
    task: str = "classification"

    def __post_init__(self):
        object.__setattr__(self, "fixed", MappingProxyType(dict(self.fixed)))

    # --- lazily loaded code ------------------------------------------------------------
    @property
    def step(self) -> Callable:
        """The readable rule."""
        return _load(self.rule)

    @property
    def kernel(self) -> str | None:
        """The numba kernel in :mod:`olearn.kernels` (``"module:function"``) the estimator
        runs, as the estimator class declares it (an online estimator's ``engine_class.kernel``,
        a batch one's ``numba_kernel``); None for PCVM (no kernel)."""
        cls = self.estimator_class
        engine = getattr(cls, "engine_class", None)
        return engine.kernel if engine is not None else cls.numba_kernel

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

    def make(self, **overrides):
        """A fresh estimator with the fixed arguments, the defaults and ``overrides``."""
        return self.estimator_class(**{**self.fixed, **self.defaults, **overrides})

    @property
    def hyper_names(self) -> tuple[str, ...]:
        """The names of the tunable hyper-parameters this rule has (the sliders a page shows).

        >>> get("scw2").hyper_names, get("arow").hyper_names, get("pa").hyper_names
        (('C', 'eta'), ('r',), ())
        """
        return tuple(h.name for h in self.hypers)

    def rule_kwargs(self, **overrides) -> dict[str, Any]:
        """The rule's keyword arguments: fixed ones, defaults and overrides it accepts
        (overrides it does not take, e.g. another rule's hyper-parameter, are dropped)."""
        accepted = _parameters(self.rule)
        given = {**self.fixed, **self.defaults, **overrides}
        return {k: v for k, v in given.items() if k in accepted}

    def apply(self, state, x, y, **overrides):
        """One step of the readable rule: ``step(state, x, y, **rule_kwargs(**overrides))``.

        >>> import numpy as np
        >>> from olearn.core.cw import cw_init
        >>> _, trace = get("scw1").apply(cw_init(1), np.array([1.0]), 1, C=0.01, r=5.0)
        >>> trace.rule, trace.alpha
        ('SCW-I', 0.01)
        """
        return self.step(state, x, y, **self.rule_kwargs(**overrides))

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
        if self.task == "regression":  # one weight vector; K is ignored, no class can join

            def no_class(state, at):
                raise ValueError(f"{self.name} is a regressor: it has no classes")

            return ReadableLearner(
                lambda d, K=1: np.zeros(d),
                lambda s, x, y: step(s, x, y, **kwargs),
                lambda s: s[None, :],
                lambda s: None,
                no_class,
            )
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


@functools.cache
def _parameters(path: str) -> frozenset[str]:
    """The parameter names of the function at ``path`` (read once)."""
    return frozenset(inspect.signature(_load(path)).parameters)


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
_NHERD = "Crammer, Lee. Learning via Gaussian Herding. NIPS 2010"
_NAROW = "Orabona, Crammer. New Adaptive Algorithms for Online Classification. NIPS 2010"
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
C_PA = Hyper("C", 1.0, _C_GRID, low=0.001, high=100.0)
C_CW = Hyper("C", 1.0, (0.01, 0.1, 1.0, 10.0), low=0.001, high=100.0)
ETA = Hyper("eta", 0.75, (0.55, 0.65, 0.75, 0.85, 0.95), low=0.51, high=0.99, log=False)
ETA_CW = Hyper("eta", 0.7, ETA.grid, low=0.51, high=0.99, log=False)
R = Hyper("r", 1.0, (0.01, 0.1, 1.0, 10.0, 100.0), low=0.01, high=100.0)
# NAROW's b: 10, not the papers' 1, because with the prior I and unit-norm rows (the usual
# scaling) a binary margin variance is 1 <= 1/b at b = 1, and NAROW would never update
B_NAROW = Hyper("b", 10.0, (0.1, 1.0, 10.0, 100.0), low=0.01, high=1000.0)
LAM_SGD = Hyper("lam", 1e-4, (1e-6, 1e-5, 1e-4, 1e-3, 1e-2), low=1e-7, high=1e-1)
EPSILON = Hyper("epsilon", 0.1, (0.01, 0.1, 0.5, 1.0), low=0.001, high=10.0)
LAM_PCVM = Hyper("lam", 20000.0, (10000.0, 20000.0, 40000.0, 80000.0), low=10.0, high=1e6)

_STREAM = frozenset({"playground", "compare", "lesson"})


def _views(*names: str) -> frozenset[str]:
    return frozenset(names)


def _pa(*, rule: str, variant: str | None, **kw) -> AlgorithmSpec:
    """An entry of the PA family (seed 000): its rule in :mod:`olearn.core` (``"pa:pa_step"``),
    the variant (None, "I", "II") fixed and C tunable for a soft variant; the SPA page
    explains it."""
    kw.setdefault("fixed", {"variant": variant})
    kw.setdefault("hypers", (C_PA,) if variant else ())
    kw.setdefault("views", _STREAM)
    kw.setdefault("walk", "spa")
    return AlgorithmSpec(family="pa", rule=f"olearn.core.{rule}", seed="000", **kw)


def _cw(*, rule: str, **kw) -> AlgorithmSpec:
    """An entry of the confidence-weighted family (seed 001): its rule in
    :mod:`olearn.core.cw` (``"arow_step"``); offered on the streams and the CW page."""
    kw.setdefault("views", _STREAM | {"cw", "noise"})
    return AlgorithmSpec(family="cw", rule=f"olearn.core.cw:{rule}", seed="001", walk="cw", **kw)


def _batch(*, rule: str, **kw) -> AlgorithmSpec:
    """A batch reference (its rule in :mod:`olearn.core`): no stream, offered on Compare."""
    return AlgorithmSpec(
        family="batch", rule=f"olearn.core.{rule}", online=False, views=_views("compare"), **kw
    )


ALGORITHMS: list[AlgorithmSpec] = [
    # the PA family (seed 000), in teaching order
    _pa(
        name="Perceptron",
        key="perceptron",
        rule="pa:perceptron_step",
        estimator="PerceptronClassifier",
        reference="Rosenblatt. Psychological Review 65(6), 1958",
        variant=None,
        fixed={},
        colour="#777777",
        dash="dot",
        views=_STREAM | {"noise"},
        default_in=_views("playground", "compare", "noise"),
    ),
    _pa(
        name="PA",
        key="pa",
        rule="pa:pa_step",
        estimator="PAClassifier",
        reference=_PA,
        variant=None,
        colour="#0077BB",
        dash="dash",
        default_in=_views("playground"),
    ),
    _pa(
        name="PA-I",
        key="pa1",
        rule="pa:pa_step",
        estimator="PAClassifier",
        reference=_PA,
        variant="I",
        colour="#33BBEE",
        dash="dashdot",
        views=_STREAM | {"noise"},
        default_in=_views("compare", "noise"),
    ),
    _pa(
        name="PA-II",
        key="pa2",
        rule="pa:pa_step",
        estimator="PAClassifier",
        reference=_PA,
        variant="II",
        colour="#004488",
        dash="longdash",
    ),
    _pa(
        name="PA (mistakes only)",
        key="pa-mistakes",
        rule="pa:pa_step",
        estimator="PAClassifier",
        reference=_PA,
        variant=None,
        fixed={"variant": None, "mistakes_only": True},
        colour="#BBBBBB",
        dash="dot",
        views=_views("compare"),
        walk=None,
        diagnostic=True,
    ),
    _pa(
        name="SPA",
        key="spa",
        rule="spa:spa_step",
        estimator="SPAClassifier",
        reference=_SPA,
        variant=None,
        colour="#009988",
        dash="solid",
        default_in=_views("playground"),
    ),
    _pa(
        name="SPA-I",
        key="spa1",
        rule="spa:spa_step",
        estimator="SPAClassifier",
        reference=_SPA,
        variant="I",
        colour="#117733",
        dash="longdashdot",
        default_in=_views("compare"),
    ),
    _pa(
        name="SPA-II",
        key="spa2",
        rule="spa:spa_step",
        estimator="SPAClassifier",
        reference=_SPA,
        variant="II",
        colour="#225522",
        dash="5px,3px,1px,3px",
        default_in=_views("compare"),
    ),
    # the confidence-weighted family (seed 001)
    _cw(
        name="CW",
        key="cw",
        rule="cw_step",
        estimator="CWClassifier",
        reference=_CW,
        hypers=(ETA_CW,),
        colour="#EE7733",
        dash="dot",
        default_in=_views("noise"),
    ),
    _cw(
        name="AROW",
        key="arow",
        rule="arow_step",
        estimator="AROWClassifier",
        reference=_AROW,
        hypers=(R,),
        colour="#CC3311",
        dash="solid",
        default_in=_views("compare", "noise", "cw"),
    ),
    _cw(
        name="SCW-I",
        key="scw1",
        rule="scw_step",
        estimator="SCWClassifier",
        reference=_SCW,
        fixed={"variant": "I"},
        hypers=(C_CW, ETA),
        colour="#EE3377",
        dash="dash",
        default_in=_views("noise"),
    ),
    _cw(
        name="SCW-II",
        key="scw2",
        rule="scw_step",
        estimator="SCWClassifier",
        reference=_SCW,
        fixed={"variant": "II"},
        hypers=(C_CW, ETA),
        colour="#AA4499",
        dash="dashdot",
        default_in=_views("noise"),
    ),
    _cw(
        name="NHERD",
        key="nherd",
        rule="nherd_step",
        estimator="NHERDClassifier",
        reference=_NHERD,
        hypers=(C_CW,),
        colour="#CC6677",
        dash="longdash",
    ),
    _cw(
        name="NAROW",
        key="narow",
        rule="narow_step",
        estimator="NAROWClassifier",
        reference=_NAROW,
        hypers=(B_NAROW,),
        colour="#997700",
        dash="longdashdot",
    ),
    # batch references: Crammer-Singer (seed 003), PCVM (seed 002), SGD-SVM (seed 004)
    _batch(
        name="Crammer-Singer SVM",
        key="cs-svm",
        rule="cs_svm:cs_step",
        estimator="CrammerSingerSVC",
        reference=_CS,
        seed="003",
        hypers=(C_PA,),
        colour="#332288",
        dash="solid",
        walk="cs_svm",
    ),
    _batch(
        name="PCVM",
        key="pcvm",
        rule="pcvm:em_step",
        estimator="PCVMClassifier",
        reference=_PCVM,
        seed="002",
        hypers=(LAM_PCVM,),
        colour="#999933",
        dash="dash",
        walk="pcvm",
    ),
    _batch(
        name="PCVM (gamma=1)",
        key="pcvm-chen",
        rule="pcvm:em_step",
        estimator="PCVMClassifier",
        reference=_PCVM,
        seed="002",
        fixed={"gamma": 1.0},
        colour="#DDAA33",
        dash="dot",
        walk="pcvm",
    ),
    _batch(
        name="SGD-SVM",
        key="sgd-svm",
        rule="sgd_svm:sgd_step",
        estimator="SGDSVMClassifier",
        reference=_SGD,
        seed="004",
        fixed={"schedule": "global"},
        hypers=(LAM_SGD,),
        colour="#882255",
        dash="solid",
        walk="sgd",
    ),
    _batch(
        name="SGD-SVM (per-feature rates)",
        key="sgd-svm-pf",
        rule="sgd_svm:sgd_step",
        estimator="SGDSVMClassifier",
        reference=_SGD,
        seed="004",
        fixed={"schedule": "per-feature"},
        hypers=(LAM_SGD,),
        colour="#AA7744",
        dash="dash",
        walk="sgd",
    ),
]


def _regression(*, variant: str | None, **kw) -> AlgorithmSpec:
    """A PA regression entry (Crammer et al. 2006, section 4; seed 001 cites PA): the rule
    :func:`olearn.core.pa_regression.pa_regression_step` with its variant fixed, epsilon (and
    C for a soft variant) tunable; no app view yet."""
    return AlgorithmSpec(
        family="pa",
        task="regression",
        rule="olearn.core.pa_regression:pa_regression_step",
        estimator="PARegressor",
        reference=_PA,
        seed="001",
        fixed={"variant": variant},
        hypers=(C_PA, EPSILON) if variant else (EPSILON,),
        **kw,
    )


# the regressors: looked up by get() like the others, listed by keys(task="regression")
REGRESSORS: list[AlgorithmSpec] = [
    _regression(name="PA regression", key="pa-reg", variant=None, colour="#0077BB", dash="dash"),
    _regression(
        name="PA-I regression", key="pa1-reg", variant="I", colour="#33BBEE", dash="dashdot"
    ),  # fmt: skip
    _regression(
        name="PA-II regression", key="pa2-reg", variant="II", colour="#004488", dash="longdash"
    ),  # fmt: skip
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

_BY_KEY = {a.key: a for a in [*ALGORITHMS, *AVERAGED, *REGRESSORS]}
_BY_NAME = {a.name.lower(): a for a in [*ALGORITHMS, *AVERAGED, *REGRESSORS]}


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
    *,
    task: str | None = "classification",
) -> list[str]:
    """Keys of the registered algorithms, in teaching order, optionally filtered: of one
    ``family``; online or batch; offered by an app ``view`` (with ``default=True``: the ones
    that view pre-selects); run by a ``kernel`` (e.g. ``"additive"``; this filter imports the
    estimator classes, which name their kernels).  ``averaged=True`` adds the averaged variants
    (:data:`AVERAGED`, ``"<key>-avg"``) after the learners.  ``task``: "classification" (the
    default), "regression" (:data:`REGRESSORS`) or None (both).

    >>> keys(view="compare", averaged=True)[-2:]
    ['nherd-avg', 'narow-avg']
    """
    return [
        a.key
        for a in specs(
            task,
            family,
            online=online,
            view=view,
            default=default,
            kernel=kernel,
            averaged=averaged,
        )  # fmt: skip
    ]


def specs(
    task: str | None = "classification",
    family: str | None = None,
    *,
    online: bool | None = None,
    view: str | None = None,
    default: bool = False,
    kernel: str | None = None,
    averaged: bool = False,
) -> list[AlgorithmSpec]:
    """The entries :func:`keys` lists (same filters), as :class:`AlgorithmSpec` objects.

    >>> [s.estimator for s in specs("regression")]
    ['PARegressor', 'PARegressor', 'PARegressor']
    """
    if task not in (None, "classification", "regression"):
        raise ValueError(f"task must be 'classification', 'regression' or None, got {task!r}")
    listed = [*ALGORITHMS, *(AVERAGED if averaged else [])] if task != "regression" else []
    listed += REGRESSORS if task != "classification" else []
    return [
        a
        for a in listed
        if (family is None or a.family == family)
        and (online is None or a.online == online)
        and (view is None or view in (a.default_in if default else a.views))
        and (kernel is None or (a.kernel or "").startswith(f"olearn.kernels.{kernel}:"))
    ]


def check_instances(task: str | None = "classification") -> list:
    """One estimator instance per registered algorithm of ``task``, for scikit-learn's checks."""
    return [
        a.make(random_state=0) if "random_state" in a.estimator_class().get_params() else a.make()
        for a in specs(task)
    ]
