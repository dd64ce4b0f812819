"""The browser code of the app's components, as files: JavaScript (``*.js``, formatted and
linted by Biome, see ``biome.json``), CSS and HTML, read by :func:`asset` when a component is
registered (:mod:`olearn.app.components.player`, :mod:`olearn.app.components.stepper`); and
the app's icon, ``favicon.svg`` (drawn by hand; the frame's ``st.set_page_config``)."""

from __future__ import annotations

from functools import cache
from importlib.resources import files


@cache
def asset(name: str) -> str:
    """The text of the asset file ``name`` (e.g. ``"player.js"``).

    >>> asset("player.html").startswith('<div class="olp')
    True
    """
    return files(__name__).joinpath(name).read_text(encoding="utf-8")
