"""``olearn app``: start the Streamlit app from an installed package.

Streamlit reads ``.streamlit/config.toml`` from the working directory, which an installed
package cannot rely on, so the app's settings are passed as command-line options; the
repository's ``.streamlit/config.toml`` is written from :data:`SETTINGS` and a test keeps the
two equal.  This module imports nothing from Streamlit: the CLI can say what is missing.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Sequence

from olearn.app import ENTRY

# Streamlit options ("section.name": value) the app is designed for.
SETTINGS: dict[str, object] = {
    "client.showErrorDetails": "none",  # errors are caught and explained by the pages
    "client.toolbarMode": "minimal",
    "browser.gatherUsageStats": False,
    "server.runOnSave": False,
    "theme.base": "light",
    "theme.primaryColor": "#006D2C",  # SPA's green (olearn.viz.palette)
    "theme.font": "sans serif",
}


def _flag(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def command(extra: Sequence[str] = ()) -> list[str]:
    """The ``streamlit run`` command line for the installed entry script.

    >>> command(["--server.port", "8600"])[1:4]
    ['-m', 'streamlit', 'run']
    """
    options = [f"--{name}={_flag(value)}" for name, value in SETTINGS.items()]
    return [sys.executable, "-m", "streamlit", "run", str(ENTRY), *options, *extra]


def run(extra: Sequence[str] = ()) -> int:
    """Start the app (blocks until Streamlit exits); returns its exit status."""
    if importlib.util.find_spec("streamlit") is None:
        raise ImportError('the app needs the [app] extra: pip install "olearn[app]"')
    return subprocess.call(command(extra))
