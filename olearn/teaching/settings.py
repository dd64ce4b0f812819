"""The app's settings as values: what a Playground run, a hand-over to the SPA page, an SPA
scenario, a CW walk and a comparison *are*, each one frozen (hashable) dataclass.

A page builds one from its widgets and passes it whole to :mod:`olearn.app.cached`, which keys
its caches on it and hands it to teaching and to the figures: no positional tuples between
them.  None of them holds a language: narration (``lang``) is passed beside a setting, never
inside it, so a language switch finds every computation in the cache.

>>> run, same = PlaygroundRun(("pa", "spa"), n=40), PlaygroundRun(["pa", "spa"], n=40.0)
>>> run == same, hash(run) == hash(same)
(True, True)
>>> run.hand_over("spa", 7).learner_run.keys
('spa',)
>>> SpaScenario("pa-failure", None, 0.3) == SpaScenario("pa-failure", None, 0.3)
True
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from olearn.teaching.demo_stream import STREAM as DEMO_STREAM
from olearn.teaching.demo_stream import first_teaching_seed
from olearn.teaching.hypers import algorithm_hyper, view_hyper

if TYPE_CHECKING:
    from olearn.teaching.instances import Instance
    from olearn.teaching.stream import StreamRun


def _points(points) -> tuple | None:
    return None if points is None else tuple((float(a), float(b), int(c)) for a, b, c in points)


@dataclass(frozen=True)
class PlaygroundRun:
    """One Playground setting: learners ``keys`` on a ``kind`` stream of ``n`` examples in
    ``K`` classes (``points``: placed points, then ``kind``, ``n`` and ``test_fraction`` are
    theirs), ``C`` for the learners that take it, ``bias`` the appended constant feature."""

    keys: tuple[str, ...]
    kind: str = "blobs"
    n: int = 150
    K: int = 3
    noise: float = 0.0
    margin: float = 0.5
    seed: int = 0
    C: float = view_hyper("playground", "C").default
    bias: bool = True
    points: tuple | None = None
    test_fraction: float = 0.0

    def __post_init__(self):  # one value, one hash: 1 and 1.0, a list and a tuple agree
        set_ = object.__setattr__
        set_(self, "keys", tuple(self.keys))
        for name, kind in (("n", int), ("K", int), ("seed", int), ("bias", bool)):
            set_(self, name, kind(getattr(self, name)))
        for name in ("noise", "margin", "C", "test_fraction"):
            set_(self, name, float(getattr(self, name)))
        set_(self, "points", _points(self.points))

    @property
    def length(self) -> int:
        """The stream's length (the placed points' number when points are placed)."""
        return len(self.points) if self.points is not None else self.n

    def stream(self) -> StreamRun:
        """Every learner over the stream, every snapshot (:func:`.stream.run_stream`)."""
        from olearn.teaching.stream import run_stream

        return run_stream(
            self.keys,
            self.kind,
            self.n,
            self.K,
            self.noise,
            self.margin,
            seed=self.seed,
            C=self.C,
            bias=self.bias,
            points=self.points,
            test_fraction=self.test_fraction,
        )

    def hand_over(self, learner: str, at: int) -> HandOver:
        return HandOver(self, learner, at)


@dataclass(frozen=True)
class HandOver:
    """The Playground's learner ``learner`` before example ``at``: the SPA page's instance."""

    run: PlaygroundRun
    learner: str
    at: int

    def __post_init__(self):
        object.__setattr__(self, "at", int(self.at))

    @property
    def learner_run(self) -> PlaygroundRun:
        """The run of this learner alone (the others never touch its state: 1 run, not 4)."""
        return replace(self.run, keys=(self.learner,))

    def instance(self) -> Instance:
        """The learner's state before example ``at`` and that example."""
        from olearn.teaching.instances import Instance

        run = self.learner_run.stream()
        t = int(min(max(self.at, 0), run.n - 1))
        W = run.W[self.learner][t].copy()
        return Instance(W, run.features(t), int(run.y[t]), self.run.C, self.run.bias)


@dataclass(frozen=True)
class SpaScenario:
    """One SPA update to walk through: preset scenario ``name`` (or ``"playground"`` with its
    ``playground`` hand-over), rule ``variant`` (None, "I", "II"), ``C``, ``seed`` and ``K``
    (the random scenario's classes)."""

    name: str = "pa-failure"
    variant: str | None = None
    C: float = algorithm_hyper("spa1", "C").default
    seed: int = 0
    K: int | None = None
    playground: HandOver | None = field(default=None)

    def __post_init__(self):
        object.__setattr__(self, "C", float(self.C))
        object.__setattr__(self, "seed", int(self.seed))
        object.__setattr__(self, "K", None if self.K is None else int(self.K))

    def instance(self) -> Instance:
        if self.name == "playground" and self.playground is not None:
            return self.playground.instance()
        from olearn.teaching.spa_walk import scenario

        return scenario(self.name, seed=self.seed, K=self.K, C=self.C)


@dataclass(frozen=True)
class CwWalk:
    """The CW page's stream under one rule of the registry's CW view, ``hypers`` its
    hyper-parameters as sorted ``(name, value)`` pairs (those of :attr:`AlgorithmSpec.hypers`;
    the others default), ``seed`` the stream's.

    >>> CwWalk.of("scw1", eta=0.8, C=0.5) == CwWalk("scw1", (("C", 0.5), ("eta", 0.8)))
    True
    """

    rule: str = "arow"
    hypers: tuple[tuple[str, float], ...] = ()
    seed: int = 0

    def __post_init__(self):
        pairs = tuple(sorted((str(k), float(v)) for k, v in dict(self.hypers).items()))
        object.__setattr__(self, "hypers", pairs)
        object.__setattr__(self, "seed", int(self.seed))

    @classmethod
    def of(cls, rule: str, seed: int = 0, **hypers: float) -> CwWalk:
        return cls(rule, tuple(hypers.items()), seed)

    @property
    def values(self) -> dict[str, float]:
        return dict(self.hypers)


@dataclass(frozen=True)
class CompareRun:
    """One Compare run: data set ``name`` (or an upload, by its content's ``digest`` and
    ``filename``), ``algorithms`` over ``c_grid``, the protocol (``epochs``, ``folds``,
    ``seed``, ``max_samples``: 0 for all), the feature ``scale`` and the ``intercept``."""

    name: str | None
    algorithms: tuple[str, ...]
    c_grid: tuple[float, ...]
    epochs: int = 1
    folds: int = 3
    seed: int = 0
    max_samples: int = 0
    scale: str = "none"
    digest: str | None = None
    filename: str | None = None
    intercept: bool = False

    def __post_init__(self):
        object.__setattr__(self, "algorithms", tuple(self.algorithms))
        object.__setattr__(self, "c_grid", tuple(float(c) for c in self.c_grid))
        for name in ("epochs", "folds", "seed", "max_samples"):
            object.__setattr__(self, name, int(getattr(self, name)))


@functools.cache
def default_playground() -> PlaygroundRun:
    """The Playground's setting on arrival (its widgets' defaults read this): the registry's
    default learners and C, on the stream :mod:`olearn.teaching.demo_stream`'s rule chooses
    (separable, the Perceptron visibly wrong after the player's start, PA a different curve).

    >>> run = default_playground()
    >>> run.kind, run.n, run.test_fraction, run.seed == first_teaching_seed()
    ('separable', 150, 0.2, True)
    """
    from olearn import registry

    keys = tuple(registry.keys(view="playground", default=True))
    s = DEMO_STREAM
    return PlaygroundRun(
        keys,
        s["kind"],
        s["n"],
        s["K"],
        s["noise"],
        s["margin"],
        seed=first_teaching_seed(),
        C=view_hyper("playground", "C").default,
        test_fraction=s["test"],
    )


# the SPA page on arrival: PA's failure, SPA-I/II's C at the registry's default
DEFAULT_SPA = SpaScenario("pa-failure", None, algorithm_hyper("spa1", "C").default, 0, None)


def default_cw(rule: str | None = None) -> CwWalk:
    """The CW page's setting on arrival (with ``rule``: when that rule is chosen): the
    registry's default rule of the CW view, each hyper-parameter it takes at the default of
    the page's slider (the value most of the view's rules share,
    :func:`olearn.app.hypers.view_hypers`).

    >>> default_cw(), default_cw("cw").values
    (CwWalk(rule='arow', hypers=(('r', 1.0),), seed=0), {'eta': 0.75})
    """
    from olearn import registry

    rule = rule or registry.keys(view="cw", default=True)[0]
    found: dict[str, list] = {}
    for key in registry.keys(view="cw"):
        for hyper in registry.get(key).hypers:
            found.setdefault(hyper.name, []).append(hyper.default)
    mine = {h.name for h in registry.get(rule).hypers}
    return CwWalk.of(rule, 0, **{k: max(v, key=v.count) for k, v in found.items() if k in mine})
