"""Controls built from the registry: the values a slider offers for a hyper-parameter
(:class:`olearn.registry.Hyper`'s ``low``/``high``/``log``, its protocol grid and default;
computed in :mod:`olearn.teaching.hypers`, which the teaching settings share), and which
hyper-parameters the algorithms of a view take."""

from __future__ import annotations

from olearn import registry
from olearn.teaching.hypers import hyper_options, view_hypers

__all__ = ["hyper_label", "hyper_options", "takes", "view_hypers"]


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
