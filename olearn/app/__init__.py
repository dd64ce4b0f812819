"""The Streamlit app's own layer (installed with the ``[app]`` extra).

- :mod:`olearn.app.frame`: navigation, language switch, page config (``main()``).
- :mod:`olearn.app.ui`: widgets synced with the URL, the error guard, figure rendering.
- :mod:`olearn.app.cached`: cached entry points into :mod:`olearn.teaching` for the pages.
- :mod:`olearn.app.components`: the browser components (the frame player, the stepper) and
  their JavaScript, CSS and HTML.
- :mod:`olearn.app.launch`: ``olearn app``, which runs :data:`ENTRY` with Streamlit.

The page scripts live in the repository's top-level ``pages/`` folder; ``olearn/pages`` is a
link to it, so a wheel ships them inside the package (:data:`PAGES_DIR` is wherever they are).
Two entry scripts run the same frame: ``olearn app`` runs :data:`ENTRY`, which has no
``pages/`` folder beside it; ``streamlit run app.py`` in a clone runs the root ``app.py``,
beside ``pages/``, where :func:`olearn.app.frame.require_frame` keeps a fresh server's first
request (Streamlit's legacy multipage mode) inside the frame.
This module imports nothing from Streamlit.
"""

from pathlib import Path

PAGES_DIR = (Path(__file__).resolve().parents[1] / "pages").resolve()  # link -> ../pages
ENTRY = Path(__file__).resolve().with_name("streamlit_app.py")


def page_path(key: str) -> str:
    """The absolute path of the page script ``key`` (``"spa"`` -> ``.../pages/spa.py``)."""
    path = PAGES_DIR / f"{key}.py"
    if not path.is_file():
        raise KeyError(f"no page {key!r} in {PAGES_DIR}")
    return str(path)
