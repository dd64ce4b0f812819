"""One palette for the whole app: the same class and the same algorithm keep their colour on
every page and in every figure.

Class colours are the Okabe-Ito colour-blind-safe set (then Paul Tol's muted set); algorithm
colours follow the families: the PA family in blues and greens (the hard rule darkest), the
confidence-weighted family in oranges and reds, the batch references in purples and greys.

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

ALGORITHM_COLORS = {
    "perceptron": "#7F7F7F",
    "pa": "#9ECAE1",
    "pa1": "#4292C6",
    "pa2": "#08519C",
    "spa": "#A1D99B",
    "spa1": "#41AB5D",
    "spa2": "#006D2C",
    "cw": "#FDAE6B",
    "arow": "#F16913",
    "scw1": "#D94801",
    "scw2": "#8C2D04",
    "cs_svm": "#6A51A3",
    "cs-svm": "#6A51A3",
    "pcvm": "#9E9AC8",
    "sgd_svm": "#54278F",
    "sgd-svm": "#54278F",
}
_FALLBACK = ("#17BECF", "#BCBD22", "#E377C2", "#8C564B")

EXAMPLE_COLOR = "#111111"  # the current example x
TEXT_FONT = dict(family="Inter, Noto Sans JP, Helvetica, Arial, sans-serif", size=14)


def class_color(k: int) -> str:
    """The colour of class index ``k`` (cycles after 12 classes)."""
    return CLASS_COLORS[int(k) % len(CLASS_COLORS)]


def algorithm_color(key: str) -> str:
    """The colour of a registry key (``"spa1"``); unknown keys get a stable fallback."""
    key = str(key).lower()
    if key in ALGORITHM_COLORS:
        return ALGORITHM_COLORS[key]
    return _FALLBACK[sum(map(ord, key)) % len(_FALLBACK)]


def rgba(hex_color: str, alpha: float) -> str:
    """``"#RRGGBB"`` -> ``"rgba(r,g,b,alpha)"``.

    >>> rgba("#0072B2", 0.5)
    'rgba(0,114,178,0.5)'
    """
    h = hex_color.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"
