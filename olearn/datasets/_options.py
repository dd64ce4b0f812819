"""Dataset options, checked against the types their builder declares.

A builder's signature is the declaration (``remove_headers: bool = True``, ``min_df: int |
None = None``; an option it does not annotate has its default's type): :func:`check_options` refuses an option the dataset does not have and
converts each value to its declared type or refuses it, so a value read from a command line
(``--data-option 20news-8:remove_headers=no``) means what it says and the dataset card and
cache key record the converted value.

- ``bool``: ``True``/``False``, the integers 1/0, or one of the words ``true/false, yes/no,
  on/off, 1/0`` (any case);
- ``int``: an integer, or text of one (``"400"``); not a bool, not ``2.5``;
- ``float``: a number (not a bool), or text of one; finite;
- ``str``: text;
- ``X | None``: also ``None`` or the words ``none``/``null``.

>>> check_options("20news-8", {"remove_headers": "Off", "min_df": "3"})["remove_headers"]
False
>>> check_options("20news-8", {"remove_headers": "maybe"})
Traceback (most recent call last):
...
ValueError: 20news-8: option remove_headers must be a boolean: one of true/false, yes/no, on/off, 1/0 (any case), got 'maybe'
"""  # noqa: E501

from __future__ import annotations

import math
import numbers
import types
import typing

import numpy as np

from olearn.datasets._registry import DatasetSpec, spec

TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")
NONE_WORDS = ("none", "null")
_ACCEPTED = {
    bool: "a boolean: one of true/false, yes/no, on/off, 1/0 (any case)",
    int: "an integer",
    float: "a number",
    str: "text",
}


def option_types(name: str) -> dict[str, tuple[type, bool] | None]:
    """``{option: (type, None allowed)}`` from the annotations of ``name``'s builder (for an
    option it does not annotate: the type of its default; None if that default is None)."""
    s = spec(name)
    hints = typing.get_type_hints(s.function())
    out: dict[str, tuple[type, bool] | None] = {}
    for option, default in s.defaults.items():
        hint = hints.get(option)
        if hint is None:
            out[option] = None if default is None else (type(default), False)
            if type(default) in _ACCEPTED or default is None:
                continue
        args = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
        concrete = [a for a in args if a is not type(None)]
        if len(concrete) != 1 or concrete[0] not in _ACCEPTED:
            raise TypeError(f"{s.builder}: option {option} has no simple declared type: {hint}")
        out[option] = (concrete[0], len(concrete) < len(args))
    return out


def check_options(name: str | DatasetSpec, options: dict) -> dict:
    """The defaults of dataset ``name`` updated with ``options``, each converted to its
    declared type.

    Raises
    ------
    ValueError
        An unknown option (the message lists the dataset's options) or a value that is not
        of the option's type (the message says what is accepted).
    """
    s = name if isinstance(name, DatasetSpec) else spec(name)
    unknown = sorted(set(options) - set(s.defaults))
    if unknown:
        raise ValueError(
            f"{s.name} has no option(s) {unknown}; its options are {sorted(s.defaults) or 'none'}"
        )
    if not options:
        return dict(s.defaults)
    declared = option_types(s.name)
    out = dict(s.defaults)
    for option, value in options.items():
        if declared[option] is None:
            out[option] = value
            continue
        kind, nullable = declared[option]
        try:
            out[option] = _convert(value, kind, nullable)
        except (ValueError, TypeError, OverflowError):
            accepted = _ACCEPTED[kind] + (" or none" if nullable else "")
            raise ValueError(
                f"{s.name}: option {option} must be {accepted}, got {value!r}"
            ) from None
    return out


def _convert(value, kind: type, nullable: bool):
    text = value.strip().lower() if isinstance(value, str) else None
    if value is None or text in NONE_WORDS:
        if nullable:
            return None
        raise ValueError
    if kind is bool:
        if isinstance(value, bool | np.bool_):
            return bool(value)
        if isinstance(value, numbers.Integral) and value in (0, 1):
            return bool(value)
        if text in TRUE_WORDS or text in FALSE_WORDS:
            return text in TRUE_WORDS
        raise ValueError
    if kind is str:
        if isinstance(value, str):
            return value
        raise TypeError
    if isinstance(value, bool | np.bool_):
        raise TypeError
    if kind is int:
        if isinstance(value, numbers.Integral):
            return int(value)
        if text is not None:
            return int(text)
        raise TypeError
    if text is None and not isinstance(value, numbers.Real):  # kind is float
        raise TypeError
    number = float(text if text is not None else value)
    if not math.isfinite(number):
        raise ValueError
    return number
