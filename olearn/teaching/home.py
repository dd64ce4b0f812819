"""What the Home page shows: the family map (from the registry) and the dataset cards."""

from __future__ import annotations

import pandas as pd

# (key, x, y) positions of the family map; edges say "generalises" / "is the reference of".
_LAYOUT = {
    "perceptron": (0, 2),
    "pa": (1, 2),
    "pa1": (2, 2.6),
    "pa2": (2, 1.4),
    "spa": (3, 2),
    "spa1": (4, 2.6),
    "spa2": (4, 1.4),
    "cw": (1, 0),
    "arow": (2, 0),
    "scw1": (3, 0.6),
    "scw2": (3, -0.6),
    "cs-svm": (5, 2.6),
    "pcvm": (5, 0.6),
    "sgd-svm": (5, -0.6),
}
_EDGES = [
    ("perceptron", "pa", "margin + smallest change"),
    ("pa", "pa1", "+ C ξ"),
    ("pa", "pa2", "+ C ξ²"),
    ("pa", "spa", "every wrong class"),
    ("spa", "spa1", "+ C ξ"),
    ("spa", "spa2", "+ C ξ²"),
    ("pa1", "spa1", ""),
    ("pa2", "spa2", ""),
    ("perceptron", "cw", "Gaussian over w"),
    ("cw", "arow", "regularised"),
    ("arow", "scw1", "+ C ℓ"),
    ("arow", "scw2", "+ C ℓ²"),
    ("spa1", "cs-svm", "one step = one sub-problem"),
]


def family_map() -> tuple[pd.DataFrame, pd.DataFrame]:
    """(nodes, edges) of the family map, for the registered algorithms only.

    >>> nodes, edges = family_map()
    >>> {"spa", "pa"} <= set(nodes["key"]) and ("pa", "spa") in set(zip(edges.src, edges.dst))
    True
    """
    from olearn import registry

    rows = []
    for spec in registry.ALGORITHMS:
        if spec.key in _LAYOUT:
            x, y = _LAYOUT[spec.key]
            rows.append(
                {
                    "key": spec.key,
                    "name": spec.name,
                    "family": spec.family,
                    "online": spec.online,
                    "seed": spec.seed,
                    "x": x,
                    "y": y,
                    "reference": spec.reference,
                }
            )
    nodes = pd.DataFrame(rows)
    present = set(nodes["key"])
    edges = pd.DataFrame(
        [
            {"src": a, "dst": b, "label": lab}
            for a, b, lab in _EDGES
            if a in present and b in present
        ]
    )
    return nodes, edges


def dataset_cards(data_home=None) -> pd.DataFrame:
    """One row per registered dataset: name, kind, title, size, availability, source, licence.

    Toy and embedded sets are always available; real sets are when their archives (or the
    parsed cache) are in the data folder (``$OLEARN_DATA``).
    """
    from olearn import datasets

    rows = []
    for name in datasets.names():
        try:
            card = datasets.card(name, data_home, build=False)
        except Exception as exc:  # noqa: BLE001 - a card that cannot be read says why
            card = {"name": name, "title": f"(card unavailable: {exc})"}
        table = card.get("paper_table") or {}
        rows.append(
            {
                "name": name,
                "kind": card.get("kind", ""),
                "title": card.get("title", ""),
                "samples": card.get("n_samples", table.get("n_samples")),
                "features": card.get("n_features", table.get("n_features")),
                "classes": card.get("n_classes", table.get("n_classes")),
                "available": bool(card.get("downloaded", False)),
                "source": card.get("source", ""),
                "licence": card.get("licence", ""),
                "notes": card.get("notes", ""),
            }
        )
    return pd.DataFrame(rows)
