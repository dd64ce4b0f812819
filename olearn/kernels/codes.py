"""Integer codes for the kernels' variants: one table, shared by kernels and estimators."""

from __future__ import annotations

import sys

PERCEPTRON = 0
PA = 1
PA1 = 2
PA2 = 3
SPA = 4
SPA1 = 5
SPA2 = 6
PA_MISTAKES = 7  # the diagnostic PA that steps only on mistakes (core.pa.pa_step mistakes_only)

_ADDITIVE = {
    ("perceptron", None): PERCEPTRON,
    ("pa", None): PA,
    ("pa", "I"): PA1,
    ("pa", "II"): PA2,
    ("spa", None): SPA,
    ("spa", "I"): SPA1,
    ("spa", "II"): SPA2,
    ("pa-mistakes", None): PA_MISTAKES,
}


def additive_code(rule: str, variant: str | None = None) -> int:
    """The kernel code of a (rule, variant) pair, e.g. ``additive_code("spa", "I") == SPA1``."""
    try:
        return _ADDITIVE[(rule, variant)]
    except KeyError:
        raise ValueError(f"no kernel for rule={rule!r}, variant={variant!r}") from None


# The rules' names, for messages (``olearn: compiling the SPA-II kernel ...``).
ADDITIVE_NAMES = {
    PERCEPTRON: "Perceptron",
    PA: "PA",
    PA1: "PA-I",
    PA2: "PA-II",
    SPA: "SPA",
    SPA1: "SPA-I",
    SPA2: "SPA-II",
    PA_MISTAKES: "PA (mistakes only)",
}


def typed_by_code(base: type, names: dict[int, str]) -> dict[int, type]:
    """One subclass of the NamedTuple ``base`` per code of ``names``: ``{code: type}``.

    numba compiles a kernel once per argument type, so a rule whose type fixes its code gets
    a kernel compiled with that code as a constant: numba drops the other rules' branches
    before compiling (``fixed_code``, read by the kernels' ``overload`` of their rule step), and
    a first ``fit`` compiles its own rule only.  ``rule_name`` names it in messages.  The
    types are attributes of ``base``'s module (``<Base><code>``), where numba's cache finds
    them again.
    """
    module = sys.modules[base.__module__]
    out = {}
    for code, name in names.items():
        attributes = {"__slots__": (), "__module__": base.__module__, "fixed_code": code,
                      "rule_name": name}  # fmt: skip
        out[code] = type(f"{base.__name__}{code}", (base,), attributes)
        setattr(module, out[code].__name__, out[code])
    return out


# PA regression (olearn.kernels.pa_regression): the variants' codes are PA's (hard, I, II)
REGRESSION_NAMES = {PA: "PA regression", PA1: "PA-I regression", PA2: "PA-II regression"}


def regression_code(variant: str | None) -> int:
    """The kernel code of a PA regression variant (None, "I", "II")."""
    return additive_code("pa", variant)
