"""The table of datasets: one :class:`DatasetSpec` per name.

A spec says what kind of dataset it is, which archives it needs, which function builds it
(``"module:function"``, imported only when used, so listing names is cheap), the fixed
arguments of that function, its options' defaults and its parser version (part of the cache
key: bump it whenever a builder's output changes).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field

KINDS = ("toy", "embedded", "real", "pairs", "sgd")


@dataclass(frozen=True)
class DatasetSpec:
    """One dataset of the registry.

    Attributes
    ----------
    name : str
        Registry key.
    kind : {"toy", "embedded", "real", "pairs", "sgd"}
        ``toy`` and ``embedded`` need no file; the others are parsed from archives and cached.
    builder : str
        ``"module:function"``.  File-based builders are called as
        ``function(paths, **fixed, **options)`` with ``paths = {file name: Path}``; the others
        as ``function(**fixed, **options)``.
    files : tuple of str
        Archive names needed in the data folder (keys of ``_download.URLS``).
    fixed : dict
        Arguments always passed (e.g. the toy kind or the pair name); not options.
    defaults : dict
        Options and their defaults; any other option is an error.
    card : str
        ``"module:function"`` returning the static card (called with ``card_args``).
    parser_version : int
        Part of the cache key.
    """

    name: str
    kind: str
    builder: str
    files: tuple[str, ...] = ()
    fixed: dict = field(default_factory=dict)
    defaults: dict = field(default_factory=dict)
    card: str = ""
    card_args: tuple = ()
    parser_version: int = 1

    def function(self) -> Callable:
        """The builder function (imported now)."""
        return _resolve(self.builder)

    def static_card(self) -> dict:
        """The card fields known without any file."""
        return _resolve(self.card)(*self.card_args) if self.card else {}


def _resolve(target: str) -> Callable:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


_TOY = {"n_samples": 200, "n_classes": 3, "noise": 0.0, "margin": 0.5, "random_state": 0}
_NEWS, _REUTERS, _LDCC = "20news-bydate.tar.gz", "reuters21578.tar.gz", "ldcc-20140209.tar.gz"
_PAIR_FILES = {"ldcc": (_LDCC,), "20news": (_NEWS,), "reuters": (_REUTERS,)}
_PAIRS = {  # name -> corpus; the categories live in olearn.datasets.pairs.PAIRS
    "pair-ldcc-dokujo-it": "ldcc",
    "pair-ldcc-dokujo-sports": "ldcc",
    "pair-ldcc-it-topic": "ldcc",
    "pair-ldcc-movie-topic": "ldcc",
    "pair-20news-space-med": "20news",
    "pair-20news-autos-motorcycles": "20news",
    "pair-reuters-acq-earn": "reuters",
}

SPECS: dict[str, DatasetSpec] = {
    **{
        f"toy-{kind}": DatasetSpec(
            f"toy-{kind}",
            "toy",
            "olearn.datasets.toy:make_toy",
            fixed={"kind": kind},
            defaults=_TOY,
            card="olearn.datasets.toy:static_card",
            card_args=(kind,),
        )
        for kind in ("blobs", "separable", "xor", "moons", "drift")
    },
    "digits": DatasetSpec(
        "digits",
        "embedded",
        "olearn.datasets.toy:load_digits",
        card="olearn.datasets.toy:digits_card",
    ),
    "usps": DatasetSpec(
        "usps",
        "real",
        "olearn.datasets.usps:build_usps",
        files=("usps.bz2", "usps.t.bz2"),
        card="olearn.datasets.usps:static_card",
        parser_version=1,
    ),
    "20news-8": DatasetSpec(
        "20news-8",
        "real",
        "olearn.datasets.newsgroups:build_20news8",
        files=(_NEWS,),
        defaults={
            "n_samples": 2586,
            "politics": "talk.politics.misc",
            "remove_headers": True,
            "preprocess": "ucd",
            "min_df": None,
            "random_state": 0,
        },
        card="olearn.datasets.newsgroups:static_card",
        parser_version=2,
    ),
    "reuters-20": DatasetSpec(
        "reuters-20",
        "real",
        "olearn.datasets.reuters:build_reuters20",
        files=(_REUTERS,),
        defaults={
            "single": "overall",
            "require_body": True,
            "dedupe": True,
            "lowercase": False,
            "min_df": 1,
        },
        card="olearn.datasets.reuters:static_card",
        parser_version=2,
    ),
    **{
        name: DatasetSpec(
            name,
            "pairs",
            "olearn.datasets.pairs:build_pair",
            files=_PAIR_FILES[corpus],
            fixed={"pair": name},
            defaults={
                "n_train": 400,
                "n_test": 800,
                "min_df": 2,
                "min_tokens": 10,
                "random_state": 0,
            },
            card="olearn.datasets.pairs:static_card",
            card_args=(name,),
            parser_version=2,
        )
        for name, corpus in _PAIRS.items()
    },
    "sgd-balanced": DatasetSpec(
        "sgd-balanced",
        "sgd",
        "olearn.datasets.hashed:build_hashed",
        files=(_NEWS, _LDCC),
        fixed={"name": "sgd-balanced"},
        defaults={"test_fraction": 0.1, "random_state": 0},
        card="olearn.datasets.hashed:static_card",
        card_args=("sgd-balanced",),
        parser_version=2,
    ),
    "sgd-rare": DatasetSpec(
        "sgd-rare",
        "sgd",
        "olearn.datasets.hashed:build_hashed",
        files=(_NEWS, _REUTERS, _LDCC),
        fixed={"name": "sgd-rare"},
        defaults={"test_fraction": 0.1, "positive_topic": "gold", "random_state": 0},
        card="olearn.datasets.hashed:static_card",
        card_args=("sgd-rare",),
        parser_version=2,
    ),
}


def spec(name: str) -> DatasetSpec:
    """The spec of ``name``; ValueError listing the known names otherwise."""
    try:
        return SPECS[name]
    except KeyError:
        raise ValueError(f"unknown dataset {name!r}; known: {', '.join(SPECS)}") from None
