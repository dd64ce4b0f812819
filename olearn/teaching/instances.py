"""Finders of teaching instances: small states where two rules visibly disagree.

- :func:`find_pa_failure`: multiclass PA's step leaves the example misclassified (a third class
  still wins) while SPA's step classifies it correctly: the seed's central claim (section 2.3).
- :func:`find_printed_discrepancy`: the seed's printed Table 2 gives another step than the
  solution of its own stated problem (see :mod:`olearn.core.spa`).
- :func:`find_support_rejection`: several wrong classes score above the margin, yet the
  support-class test turns one of them away (the seed's conclusion: "not every class scoring
  above the correct one contributes to the update").
- :func:`find_passive`: every wrong class already has margin >= 1 (nothing moves).

Both search random small integer states with a seeded generator, so a seed names an instance.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from olearn.core.pa import pa_step
from olearn.core.spa import spa_printed_step, spa_step
from olearn.teaching.hypers import algorithm_hyper

C_DEFAULT = algorithm_hyper("spa1", "C").default  # the registry's


@dataclass(frozen=True)
class Instance:
    """A state (W: (K, d) weights), an example x with class y, and the C used.

    ``bias`` says the last feature of x is the constant 1 (the playground's intercept), so
    the plane to draw is that of the first two features.
    """

    W: np.ndarray
    x: np.ndarray
    y: int
    C: float = C_DEFAULT
    bias: bool = False


def _candidates(rng: np.random.Generator, K: int, d: int):
    while True:
        W = rng.integers(-3, 4, size=(K, d)).astype(float)
        x = rng.integers(-2, 3, size=d).astype(float)
        if x.any():
            yield W, x, int(rng.integers(K))


def find_pa_failure(K: int = 3, d: int = 2, seed: int = 0, max_tries: int = 100_000) -> Instance:
    """A state where PA's update still misclassifies x and SPA's does not.

    >>> inst = find_pa_failure(seed=0)
    >>> from olearn.core.pa import pa_step
    >>> from olearn.core.spa import spa_step
    >>> pa = pa_step(inst.W, inst.x, inst.y)[1]
    >>> spa = spa_step(inst.W, inst.x, inst.y)[1]
    >>> pa.correct_after, spa.correct_after
    (False, True)
    """
    if K < 3:
        raise ValueError("with K = 2 classes PA and SPA coincide: a failure needs K >= 3")
    rng = np.random.default_rng(seed)
    for _, (W, x, y) in zip(range(max_tries), _candidates(rng, K, d)):
        if not pa_step(W, x, y)[1].correct_after and spa_step(W, x, y)[1].correct_after:
            return Instance(W, x, y)
    raise RuntimeError(f"no PA failure found in {max_tries} tries (K={K}, d={d})")


def find_printed_discrepancy(
    variant: str,
    K: int = 4,
    d: int = 2,
    C: float = C_DEFAULT,
    seed: int = 0,
    max_tries: int = 100_000,
) -> Instance:
    """A state where the seed's printed Table 2 and the derived SPA-I / SPA-II step differ.

    SPA-II's printed support test differs only once a third class is in question, so ``K``
    must be at least 4 for it (three wrong classes).

    >>> inst = find_printed_discrepancy("II", seed=0)
    >>> from olearn.core.spa import spa_printed_step, spa_step
    >>> a = spa_step(inst.W, inst.x, inst.y, "II", inst.C)[1].tau
    >>> b = spa_printed_step(inst.W, inst.x, inst.y, "II", inst.C)[1].tau
    >>> bool(abs(a - b).max() > 1e-6)
    True
    """
    if variant not in ("I", "II"):
        raise ValueError("the printed and derived forms differ only for variant 'I' or 'II'")
    rng = np.random.default_rng(seed)
    for _, (W, x, y) in zip(range(max_tries), _candidates(rng, K, d)):
        derived = spa_step(W, x, y, variant, C)[1]
        printed = spa_printed_step(W, x, y, variant, C)[1]
        if np.max(np.abs(derived.tau - printed.tau)) > 1e-6 * (1 + np.max(derived.tau)):
            return Instance(W, x, y, C)
    raise RuntimeError(f"no discrepancy found in {max_tries} tries")


def find_support_rejection(
    K: int = 4, d: int = 2, seed: int = 0, max_tries: int = 100_000
) -> Instance:
    """A state where at least three wrong classes have ``Q > 0`` and the support test rejects
    one of them, while PA's single-constraint step leaves x misclassified.

    >>> inst = find_support_rejection(seed=0)
    >>> t = spa_step(inst.W, inst.x, inst.y)[1]
    >>> len(t.order) >= 3 and len(t.support) < len(t.order)
    True
    """
    if K < 4:
        raise ValueError("three wrong classes need K >= 4")
    rng = np.random.default_rng(seed)
    for _, (W, x, y) in zip(range(max_tries), _candidates(rng, K, d)):
        t = spa_step(W, x, y)[1]
        if (
            len(t.order) >= 3
            and len(t.support) < len(t.order)
            and not pa_step(W, x, y)[1].correct_after
        ):
            return Instance(W, x, y)
    raise RuntimeError(f"no support rejection found in {max_tries} tries")


def find_passive(K: int = 3, d: int = 2, seed: int = 0, max_tries: int = 100_000) -> Instance:
    """A state where x is already classified with margin >= 1 over every wrong class.

    >>> inst = find_passive(seed=0)
    >>> spa_step(inst.W, inst.x, inst.y)[1].reason.startswith("passive")
    True
    """
    rng = np.random.default_rng(seed)
    for _, (W, x, y) in zip(range(max_tries), _candidates(rng, K, d)):
        if spa_step(W, x, y)[1].loss == 0.0:
            return Instance(W, x, y)
    raise RuntimeError(f"no passive instance found in {max_tries} tries")


def random_instance(K: int = 4, d: int = 2, seed: int = 0) -> Instance:
    """A random small integer state with an aggressive SPA step (seeded).

    >>> inst = random_instance(K=5, seed=3)
    >>> inst.W.shape, spa_step(inst.W, inst.x, inst.y)[1].reason
    ((5, 2), 'aggressive')
    """
    if not 2 <= K <= 12:
        raise ValueError(f"K must be between 2 and 12, got {K}")
    rng = np.random.default_rng(seed)
    for W, x, y in _candidates(rng, K, d):
        if spa_step(W, x, y)[1].loss > 0.0:
            return Instance(W, x, y)
    raise AssertionError("unreachable")  # pragma: no cover
