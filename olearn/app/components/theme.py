"""The colour theme in the browser: the page asks Streamlit for the theme the lecturer chose
and tells the server which one it shows (the figures take its inks, :mod:`olearn.viz.theme`).

Streamlit's theme lives in the browser.  The app configures a light and a dark theme
(``theme.light`` / ``theme.dark``, :data:`olearn.app.server.launch.SETTINGS`); with both, Streamlit
follows the system's ``prefers-color-scheme`` unless the URL says ``embed_options=light_theme``
or ``dark_theme`` (Streamlit's public embed options).  So a choice of light or dark (``?theme=``,
the sidebar's switch) is carried to Streamlit by loading the page once more with that option
(and the choice) in its URL; "follow the system" drops the option.  A reload that would not
change what Streamlit shows is not repeated (a guard in the tab's ``sessionStorage``), and
with a theme fixed by the server (``--theme.base dark``) nothing is reloaded.

Then the browser reports the theme it shows (from the page's background) whenever it differs
from the one the server drew the figures in: on "follow the system", the server learns the
system's theme this way (one rerun, at a dark system's first page).  The component draws
nothing; ``data-shown`` on its root names the theme shown.
"""

from __future__ import annotations

import json

import streamlit as st

from olearn.app.components.assets import asset

_component = st.components.v2.component(
    "olearn_theme",
    html=asset("theme.html"),
    js=asset("theme.js"),
)


def theme_sync(choice: str, drawn: str, switchable: bool) -> str | None:
    """Mount the component (in the current container): ``choice`` is the theme asked for
    (``auto``, ``light`` or ``dark``), ``drawn`` the one the figures are drawn in.  Returns
    the theme the browser reported showing (``light`` or ``dark``), on the rerun its report
    asks for, else None."""
    config = {"choice": choice, "drawn": drawn, "switchable": bool(switchable)}
    result = _component(
        key="olearn-theme", data={"config": json.dumps(config)}, on_shown_change=lambda: None
    )
    shown = getattr(result, "shown", None)
    return shown if shown in ("light", "dark") else None
