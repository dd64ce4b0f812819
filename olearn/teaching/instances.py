"""Finders of teaching instances: small states where two rules visibly disagree.

- :func:`find_pa_failure`: multiclass PA's step leaves the example misclassified (a third class
  still wins) while SPA's step classifies it correctly: the seed's central claim (section 2.3).
- :func:`find_printed_discrepancy`: the seed's printed Table 2 gives another step than the
  solution of its own stated problem (see :mod:`olearn.core.spa`).

Both search random small integer states with a seeded generator, so a seed names an instance.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from olearn.core.pa import pa_step
from olearn.core.spa import spa_printed_step, spa_step


@dataclass(frozen=True)
class Instance:
    """A state (W: (K, d) weights), an example x with class y, and the C used."""

    W: np.ndarray
    x: np.ndarray
    y: int
    C: float = 1.0


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
    variant: str, K: int = 4, d: int = 2, C: float = 1.0, seed: int = 0, max_tries: int = 100_000
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
