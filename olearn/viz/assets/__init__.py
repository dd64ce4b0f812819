"""The browser code of the figures' exports, as files (``*.js``, formatted and linted by Biome,
see ``biome.json``), read by :func:`asset`."""

from __future__ import annotations

from functools import cache
from importlib.resources import files


@cache
def asset(name: str) -> str:
    """The text of the asset file ``name``.

    >>> "plotly_animatingframe" in asset("animation_sync.js")
    True
    """
    return files(__name__).joinpath(name).read_text(encoding="utf-8")
