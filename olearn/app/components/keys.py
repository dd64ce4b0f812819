"""The page's keys for a page stepped by the server (the lesson, PCVM): →, PageDown and space
press its "next" button, ← and PageUp its "previous" one, exactly as a click would (the
button's callback runs; the keys a clicker sends are PageDown and PageUp).

A key the focused element uses itself (a number typed into a field, a slider, a radio group)
is left to it; see ``keyIsTheirs`` in ``assets/component_base.js``, which the player and the
stepper share.  The component draws nothing.
"""

from __future__ import annotations

import json

import streamlit as st

from olearn.app.components.assets import asset

_component = st.components.v2.component(
    "olearn_keys",
    html=asset("keys.html"),
    js=asset("component_base.js") + asset("keys.js"),
)


def step_keys(key: str, next_button: str, prev_button: str) -> None:
    """Bind the step keys to the buttons with Streamlit keys ``next_button`` / ``prev_button``
    (``st.button(key=...)``; a disabled button is not pressed)."""
    from olearn.app.components.player import chart_key

    config = {
        "next": "st-key-" + chart_key(next_button),
        "prev": "st-key-" + chart_key(prev_button),
    }
    _component(key=key, data={"config": json.dumps(config)})
