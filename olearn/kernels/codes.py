"""Integer codes for the kernels' variants: one table, shared by kernels and estimators."""

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
