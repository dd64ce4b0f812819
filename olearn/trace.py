"""Traces: frozen records of what one update did, and a helper to tabulate them.

A trace is a frozen, slotted dataclass (one class per family, defined next to its rule in
:mod:`olearn.core`).  Array fields are read-only copies, so a trace can be kept, shown
and compared without fear that a later update changes it.  Estimators never build
traces: full runs pay nothing for them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

import numpy as np


def frozen_array(a: Any, dtype: Any = float) -> np.ndarray:
    """Return a read-only copy of ``a`` as an ndarray.

    >>> v = frozen_array([1, 2])
    >>> v.flags.writeable
    False
    """
    out = np.array(a, dtype=dtype, copy=True)
    out.setflags(write=False)
    return out


def _cell(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.item() if value.ndim == 0 else value.tolist()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _cell(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple):
        return [_cell(v) for v in value]
    return value


def to_dict(trace: Any) -> dict[str, Any]:
    """One trace as a plain dict (arrays become lists), e.g. for JSON."""
    return {f.name: _cell(getattr(trace, f.name)) for f in dataclasses.fields(trace)}


def to_frame(traces: Iterable[Any]):
    """A list of traces as a pandas DataFrame, one row per update.

    Array fields are kept as lists in their cells; a ``step`` column numbers the rows.

    >>> from olearn.core.pa import pa_step
    >>> import numpy as np
    >>> W = np.zeros((3, 2))
    >>> _, t = pa_step(W, np.array([1.0, 0.0]), 0)
    >>> to_frame([t])[["step", "rival", "loss", "tau"]]
       step  rival  loss   tau
    0     0      1   1.0  0.5
    """
    import pandas as pd

    rows = []
    for i, t in enumerate(traces):
        row = {"step": i}
        row.update(to_dict(t))
        rows.append(row)
    return pd.DataFrame(rows)
