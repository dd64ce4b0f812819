"""Example weights in the kernels (``sample_weight`` x ``class_weight``).

A kernel takes ``weights=None`` (the plain path: numba compiles it apart, with ``s = 1.0`` a
constant) or a (n,) float64 array indexed by row.  What a weight means per rule is derived in
the readable rules' docstrings (:mod:`olearn.core.pa`, :mod:`olearn.core.cw`, ...).
"""

from __future__ import annotations

from olearn._jit import jit


@jit
def example_weight(weights, i):
    """Row ``i``'s weight ``s``: 1.0 without weights."""
    if weights is None:
        return 1.0
    return weights[i]
