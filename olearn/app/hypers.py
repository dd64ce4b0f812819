"""Controls built from the registry: the values a slider offers for a hyper-parameter
(:class:`olearn.registry.Hyper`'s ``low``/``high``/``log``, its protocol grid and default), and
which hyper-parameters the algorithms of a view take."""

from __future__ import annotations

import math

from olearn import registry

LOG_MANTISSAS = (1.0, 2.0, 3.0, 5.0)  # 0.01, 0.02, 0.03, 0.05, 0.1, ...
LINEAR_STEPS = 12


def _nice(value: float) -> float:
    return float(f"{value:.3g}")


def hyper_options(hyper: registry.Hyper) -> list[float]:
    """The values a select-slider offers for ``hyper``: 1-2-3-5 per decade on a log range,
    multiples of a round step (about ``LINEAR_STEPS`` of them) and both ends otherwise, within
    ``[low, high]``, plus the grid and the default (so a protocol's value and a link's default
    are always offered).

    >>> hyper_options(registry.Hyper("r", 1.0, (0.01, 1.0), 0.01, 1.0))
    [0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0]
    >>> hyper_options(registry.Hyper("eta", 0.72, (), 0.51, 0.99, log=False))
    [0.51, 0.55, 0.6, 0.65, 0.7, 0.72, 0.75, 0.8, 0.85, 0.9, 0.95, 0.99]
    """
    low = hyper.low if hyper.low is not None else min((*hyper.grid, hyper.default))
    high = hyper.high if hyper.high is not None else max((*hyper.grid, hyper.default))
    values = {float(hyper.default), *map(float, hyper.grid)}
    if hyper.log and low > 0:
        for exponent in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1):
            for mantissa in LOG_MANTISSAS:
                value = _nice(mantissa * 10.0**exponent)
                if low <= value <= high:
                    values.add(value)
    else:  # multiples of a 1-2-5 step near (high - low) / LINEAR_STEPS, and both ends
        raw = (high - low) / LINEAR_STEPS
        power = 10.0 ** math.floor(math.log10(raw))
        step = min((m * power for m in (1.0, 2.0, 5.0, 10.0)), key=lambda m: abs(m - raw))
        first = math.ceil(low / step - 1e-9)
        values.update(_nice(k * step) for k in range(first, math.floor(high / step + 1e-9) + 1))
        values.update((float(low), float(high)))
    return sorted(values)


def view_hypers(view: str) -> dict[str, registry.Hyper]:
    """Every hyper-parameter the algorithms of ``view`` take, by name, in the registry's
    order; where algorithms declare one name differently, the declaration most of them share
    (the first among equals) gives the range and the default.

    >>> list(view_hypers("cw"))[:2], view_hypers("cw")["eta"].default  # SCW-I/II's eta
    (['eta', 'r'], 0.75)
    """
    found: dict[str, list[registry.Hyper]] = {}
    for key in registry.keys(view=view):
        for hyper in registry.get(key).hypers:
            found.setdefault(hyper.name, []).append(hyper)
    return {name: max(hs, key=hs.count) for name, hs in found.items()}


def hyper_label(view: str, name: str) -> str:
    """``name`` and the algorithms of ``view`` that take it, from the registry.

    >>> hyper_label("cw", "C"), hyper_label("cw", "b")
    ('C (SCW-I, SCW-II, NHERD)', 'b (NAROW)')
    """
    users = [registry.get(k).name for k in registry.keys(view=view) if takes(k, name)]
    return f"{name} ({', '.join(users)})"


def takes(key: str, name: str) -> bool:
    """Does algorithm ``key`` take hyper-parameter ``name``?"""
    return any(h.name == name for h in registry.get(key).hypers)
