"""Where AppTest starts the app: the installed entry script (``olearn app``), whose folder has
no ``pages/`` beside it, so ``st.navigation`` is in charge from the first run.  (AppTest
resets Streamlit's multipage mode before every run; from the clone's ``app.py``, beside
``pages/``, every run would start in the legacy mode that only a server's first request
sees.  That path is exercised in Chromium: tests/browser_support.py serves ``app.py``.)"""

from __future__ import annotations

import os
from pathlib import Path

from olearn.app import ENTRY

ROOT = Path(__file__).resolve().parents[1]
APP = ENTRY


def page_file(page: str) -> str:
    """``switch_page``'s argument for ``page`` (a path from the repository's root, e.g.
    ``"pages/spa.py"``): AppTest takes it relative to the entry script."""
    return os.path.relpath(ROOT / page, APP.parent)
