"""One palette for the whole app: the same class and the same algorithm keep their colour on
every page and in every figure.

Class colours are the Okabe-Ito colour-blind-safe set (then Paul Tol's muted set).  Each
algorithm's colour and dash are fields of its :mod:`olearn.registry` entry (Paul Tol's
colour-blind-safe sets, one distinct colour and dash per learner); this module reads them.

>>> class_color(0), class_color(12) == class_color(0)
('#0072B2', True)
>>> algorithm_color("spa") != algorithm_color("pa")
True
"""

from __future__ import annotations

CLASS_COLORS = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#D55E00",  # vermillion
    "#F0E442",  # yellow
    "#332288",  # indigo (Tol)
    "#117733",  # green (Tol)
    "#882255",  # wine (Tol)
    "#999933",  # olive (Tol)
    "#888888",  # grey
)

_FALLBACK = ("#17BECF", "#BCBD22", "#E377C2", "#8C564B")

EXAMPLE_COLOR = "#111111"  # the current example x
TEXT_FONT = dict(family="Inter, Noto Sans JP, Helvetica, Arial, sans-serif", size=14)


def class_color(k: int) -> str:
    """The colour of class index ``k`` (cycles after 12 classes)."""
    return CLASS_COLORS[int(k) % len(CLASS_COLORS)]


def _spec(key: str):
    from olearn import registry

    try:
        return registry.get(str(key))
    except KeyError:
        return None


def algorithm_color(key: str) -> str:
    """The colour of a registry key or name (``"spa1"``, ``"SPA-I"``), read from
    :mod:`olearn.registry`; unknown keys (e.g. a batch baseline) get a stable fallback."""
    spec = _spec(key)
    if spec is not None:
        return spec.colour
    return _FALLBACK[sum(map(ord, str(key).lower())) % len(_FALLBACK)]


def algorithm_dash(key: str) -> str:
    """The plotly dash of a registry key or name (``"solid"`` for unknown keys)."""
    spec = _spec(key)
    return spec.dash if spec is not None else "solid"


def rgba(hex_color: str, alpha: float) -> str:
    """``"#RRGGBB"`` -> ``"rgba(r,g,b,alpha)"``.

    >>> rgba("#0072B2", 0.5)
    'rgba(0,114,178,0.5)'
    """
    h = hex_color.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"
