"""The values a control offers for a hyper-parameter, read from the registry's
:class:`olearn.registry.Hyper` (default, ``low``/``high``, log scale, protocol grid): the one
source of every page's sliders and of the settings the pages start from, so no page or
teaching module writes a range or a default of its own (issue 29, item 4).

>>> view_hyper("playground", "C").default, view_hyper("compare", "C").grid[:2]
(1.0, (0.001, 0.01))
"""

from __future__ import annotations

import math

from olearn import registry

LOG_MANTISSAS = (1.0, 2.0, 3.0, 5.0)  # 0.01, 0.02, 0.03, 0.05, 0.1, ...
LINEAR_STEPS = 12
QUICK_DECADES = 2  # the quick C grid: the default and this many decades below it


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


def view_hyper(view: str, name: str) -> registry.Hyper:
    """The :class:`~olearn.registry.Hyper` called ``name`` that the algorithms of ``view``
    share (:func:`view_hypers`); KeyError when none of them takes it."""
    return view_hypers(view)[name]


def algorithm_hyper(key: str, name: str) -> registry.Hyper:
    """Algorithm ``key``'s hyper-parameter ``name`` (a page of one algorithm: SGD's lam)."""
    return registry.get(key).hyper(name)


def grid_label(values) -> str:
    """A C grid as the Compare page names it (and its URL writes it).

    >>> grid_label((0.01, 0.1, 1.0)), grid_label((0.001, 0.01, 0.1, 1.0, 10.0)), grid_label((1,))
    ('0.01, 0.1, 1', '0.001 … 10', '1')
    """
    values = [f"{float(v):g}" for v in values]
    return ", ".join(values) if len(values) <= 3 else f"{values[0]} … {values[-1]}"


def c_grids(view: str = "compare") -> dict[str, tuple[float, ...]]:
    """The C grids a comparison offers, by label (:func:`grid_label`), from the view's C:
    the quick one (the default and the ``QUICK_DECADES`` grid decades below it: the smaller
    steps, where online learners on unit-length rows are tuned), the protocol's grid, and the
    default alone.

    >>> c_grids()
    {'0.01, 0.1, 1': (0.01, 0.1, 1.0), '0.001 … 10': (0.001, 0.01, 0.1, 1.0, 10.0), '1': (1.0,)}
    """
    hyper = view_hyper(view, "C")
    low = hyper.default / 10.0**QUICK_DECADES
    quick = tuple(float(c) for c in hyper.grid if low <= c <= hyper.default)
    grids = (quick, tuple(float(c) for c in hyper.grid), (float(hyper.default),))
    return {grid_label(g): g for g in grids}


def quick_c_grid(view: str = "compare") -> tuple[float, ...]:
    """The first of :func:`c_grids`: where a comparison starts."""
    return next(iter(c_grids(view).values()))
