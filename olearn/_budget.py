"""One memory budget, in bytes, that the library and the app consult *before* they allocate.

A model is ``classes x features`` float64 numbers, times the copies its algorithm keeps (the
confidence-weighted family's diagonal covariance doubles it; the full covariance is
``features^2``; averaging keeps another copy).  Allocating an oversized one does not fail at
once: numpy gets the zero pages lazily and the first epoch then pages the machine to death.
So every place that sizes a model, a trace or a frame set asks :func:`require` first, and a
refusal names the sizes.

Two budgets:

- **the library's** (:func:`library_bytes`): ``$OLEARN_MAX_BYTES`` (``"16GiB"``, ``"500MB"``
  or a byte count), else 4 GiB: far above every corpus of the seeds (20 Newsgroups' largest
  model is 20 x 62k x 8 B = 10 MB; a full covariance over USPS is 256^2 x 8 B = 0.5 MB) and
  far below what pages a 2-core, 24 GiB teaching machine when a few run at once;
- **the app's** (:data:`APP_BYTES`, 256 MiB per computation a page asks for): a Streamlit
  server holds one such computation per visitor, so 40 students stay within ~10 GiB even if
  each asks for the largest the URL allows.

>>> require(model_bytes(3, 10), "a PA model", budget=1000)
>>> try:
...     require(model_bytes(50, 2**24), "an SVM model")
... except BudgetError as err:
...     print(str(err).split(";")[0])
an SVM model needs 6.25 GiB, over olearn's memory budget of 4 GiB
>>> parse_bytes("1.5GiB"), parse_bytes("500MB"), parse_bytes("1024")
(1610612736, 500000000, 1024)
"""

from __future__ import annotations

import os
import re

DEFAULT_LIBRARY_BYTES = 4 * 2**30
APP_BYTES = 256 * 2**20
ENV = "OLEARN_MAX_BYTES"

_UNITS = {
    "": 1,
    "b": 1,
    "kb": 10**3,
    "mb": 10**6,
    "gb": 10**9,
    "tb": 10**12,
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
}


class BudgetError(ValueError):
    """A model, trace or frame set would exceed the memory budget (raised before allocation)."""


def parse_bytes(text: str) -> int:
    """``"4GiB"`` / ``"500 MB"`` / ``"1024"`` -> bytes (ValueError on anything else)."""
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([a-zA-Z]*)\s*", str(text))
    unit = match and match.group(2).lower()
    if not match or unit not in _UNITS:
        raise ValueError(f"not a size in bytes: {text!r} (write e.g. 4GiB, 500MB or 1048576)")
    return int(float(match.group(1)) * _UNITS[unit])


def format_bytes(n: float) -> str:
    """``6710886400 -> '6.25 GiB'`` (binary units, 3 significant digits)."""
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{int(n)} B"


def library_bytes() -> int:
    """The library's budget: ``$OLEARN_MAX_BYTES`` if set (ValueError if unreadable), else 4 GiB."""
    raw = os.environ.get(ENV, "").strip()
    if not raw:
        return DEFAULT_LIBRARY_BYTES
    try:
        return parse_bytes(raw)
    except ValueError as err:
        raise ValueError(f"${ENV}: {err}") from None


def model_bytes(n_classes: int, n_features: int, copies: float = 1.0, itemsize: int = 8) -> int:
    """Bytes of ``copies`` dense ``n_classes x n_features`` arrays (Python ints: no overflow)."""
    return int(int(n_classes) * int(n_features) * copies * itemsize)


def require(nbytes: int, what: str, budget: int | None = None) -> None:
    """Raise :class:`BudgetError` if ``nbytes`` exceed ``budget`` (default: the library's).

    ``what`` names the thing and its sizes, e.g. ``"a CW model (50 classes x 16,777,217
    features, mean and diagonal covariance)"``; the message adds the bytes, the budget and how
    to change it.
    """
    limit = library_bytes() if budget is None else int(budget)
    if nbytes <= limit:
        return
    how = (
        f"set ${ENV} (e.g. {ENV}=16GiB) to allow more"
        if budget is None
        else "choose fewer classes, features, samples or learners"
    )
    raise BudgetError(
        f"{what} needs {format_bytes(nbytes)}, over olearn's memory budget of "
        f"{format_bytes(limit)}; {how}, or reduce the problem (e.g. "
        "sklearn.feature_extraction.FeatureHasher for a smaller feature space)"
    )
