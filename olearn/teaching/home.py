"""What the Home page shows: the family map (from the registry) and the dataset cards."""

from __future__ import annotations

import re

import pandas as pd

from olearn.teaching.strings import STRINGS, t

# (key, x, y) positions of the family map; edges say "generalises" / "is the reference of".
_LAYOUT = {
    "perceptron": (-0.2, 2),
    "pa": (1, 2),
    "pa1": (2, 3.0),  # PA-I / PA-II well above and below PA -> SPA's label at y = 2
    "pa2": (2, 1.0),
    "spa": (3, 2),
    "spa1": (4, 3.0),
    "spa2": (4, 1.0),
    "cw": (1, 0),
    "arow": (2, 0),
    "scw1": (3, 0.6),
    "scw2": (3, -0.6),
    "cs-svm": (5.3, 3.0),
    "pcvm": (5, 0.6),
    "sgd-svm": (5, -0.6),
}
_EDGES = [  # (from, to, label key under ``home.edge.``; "" for none)
    ("perceptron", "pa", "margin"),
    ("pa", "pa1", "slack1"),
    ("pa", "pa2", "slack2"),
    ("pa", "spa", "every"),
    ("spa", "spa1", "slack1"),
    ("spa", "spa2", "slack2"),
    ("pa1", "spa1", ""),
    ("pa2", "spa2", ""),
    ("perceptron", "cw", "gauss"),
    ("cw", "arow", "regularised"),
    ("arow", "scw1", "loss1"),
    ("arow", "scw2", "loss2"),
    ("spa1", "cs-svm", "subproblem"),
]


def _placed(specs) -> list:
    """``(spec, (x, y))`` for each algorithm the map shows: the laid-out ones where
    :data:`_LAYOUT` puts them, and every other online learner a page teaches (offered on the
    Playground or the CW page) a row below its family's, one step apart, so a new registry
    entry appears without an edit here."""
    out = [(s, _LAYOUT[s.key]) for s in specs if s.key in _LAYOUT]
    extra = [
        s
        for s in specs
        if s.key not in _LAYOUT and not s.diagnostic and s.views & {"playground", "cw"}
    ]
    for family in dict.fromkeys(s.family for s in extra):
        mine = [xy for s, xy in out if s.family == family] or [(0.0, 0.0)]
        x0, y = min(x for x, _ in mine), min(y for _, y in mine) - 1.2
        for k, spec in enumerate(s for s in extra if s.family == family):
            out.append((spec, (x0 + k, y)))
    order = {s.key: i for i, s in enumerate(specs)}
    return sorted(out, key=lambda pair: order[pair[0].key])


def family_map(lang: str = "en") -> tuple[pd.DataFrame, pd.DataFrame]:
    """(nodes, edges) of the family map, for the registered algorithms only; edge labels in
    ``lang``.

    >>> nodes, edges = family_map()
    >>> {"spa", "pa"} <= set(nodes["key"]) and ("pa", "spa") in set(zip(edges.src, edges.dst))
    True
    """
    from olearn import registry

    rows = []
    for spec, (x, y) in _placed(registry.ALGORITHMS):
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
            {"src": a, "dst": b, "label": t(f"home.edge.{lab}", lang) if lab else ""}
            for a, b, lab in _EDGES
            if a in present and b in present
        ]
    )
    return nodes, edges


_NOTE_GROUPS = (  # dataset name pattern -> the ``home.note.`` key of its Japanese note
    (r"toy-", "toy"),
    (r"digits$", "digits"),
    (r"usps$", "usps"),
    (r"(20news-8|reuters-20)$", "text"),
    (r"pair-ldcc-", "pair_ja"),
    (r"pair-", "pair_en"),
    (r"sgd-", "sgd"),
)
# internal column -> header key
CARD_COLUMNS = (
    "name",
    "kind",
    "title",
    "samples",
    "features",
    "classes",
    "available",
    "source",
    "licence",
    "notes",
)


def _card_title(name: str, title: str, lang: str) -> str:
    pair = re.match(r"Document pair (\S+) \(\+1\) vs (\S+) \(-1\)", title)
    if pair:
        return t("home.ds.pair", lang, pos=pair.group(1), neg=pair.group(2))
    key = f"home.ds.{name}"
    return t(key, lang) if key in STRINGS else title


def _card_notes(name: str, notes: str, lang: str) -> str:
    if lang == "en":
        return notes  # the datasets module's full note
    for pattern, group in _NOTE_GROUPS:
        if re.match(pattern, name):
            return t(f"home.note.{group}", lang)
    return notes


def dataset_cards(data_home=None, lang: str = "en") -> pd.DataFrame:
    """One row per registered dataset: name, kind, title, size, availability, source, licence,
    notes; headers, kinds, titles and notes in ``lang`` (sources and licences are quoted).

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
        kind = card.get("kind", "")
        rows.append(
            {
                "name": name,
                "kind": t(f"home.kind.{kind}", lang) if f"home.kind.{kind}" in STRINGS else kind,
                "title": _card_title(name, card.get("title", ""), lang),
                "samples": card.get("n_samples", table.get("n_samples")),
                "features": card.get("n_features", table.get("n_features")),
                "classes": card.get("n_classes", table.get("n_classes")),
                "available": bool(card.get("downloaded", False)),
                "source": card.get("source", ""),
                "licence": card.get("licence", ""),
                "notes": _card_notes(name, card.get("notes", ""), lang),
            }
        )
    frame = pd.DataFrame(rows, columns=list(CARD_COLUMNS))
    return frame.rename(columns={c: t(f"home.col.{c}", lang) for c in CARD_COLUMNS})
