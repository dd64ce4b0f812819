"""The Streamlit app's own layer (installed with the ``[app]`` extra).

- :mod:`olearn.app.frame`: navigation, language switch, page config (``main()``).
- :mod:`olearn.app.ui`: widgets synced with the URL, the error guard, figure rendering.
- :mod:`olearn.app.cached`: cached entry points into :mod:`olearn.teaching` for the pages.
- :mod:`olearn.app.launch`: ``olearn app``, which runs :data:`ENTRY` with Streamlit.

The page scripts themselves live in :data:`PAGES_DIR` (``olearn/pages/``), which holds page
scripts only.  Streamlit switches to its legacy multipage mode when a folder named ``pages``
sits beside the script it runs; neither entry script (the repository's ``app.py``, nor
:data:`ENTRY`) has one, so ``st.navigation`` is in charge from a fresh server's first request.
This module imports nothing from Streamlit.
"""

from pathlib import Path

PAGES_DIR = Path(__file__).resolve().parents[1] / "pages"
ENTRY = Path(__file__).resolve().with_name("streamlit_app.py")


def page_path(key: str) -> str:
    """The absolute path of the page script ``key`` (``"spa"`` -> ``.../olearn/pages/spa.py``)."""
    path = PAGES_DIR / f"{key}.py"
    if not path.is_file():
        raise KeyError(f"no page {key!r} in {PAGES_DIR}")
    return str(path)
