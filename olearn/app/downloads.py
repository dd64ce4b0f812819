"""Figures out of the app, for slides and for offline use, at no cost to the server.

- Every chart (:func:`plot`): the modebar's camera saves the image in the browser, as a 2x
  PNG or as an SVG (the sidebar's choice, :func:`image_format_choice`, through plotly's public
  ``toImageButtonOptions``; plotly's config cannot carry a second image button, its ``click``
  being a function, and reaching into the modebar's DOM is what issue 20 removes).  The files
  are named ``olearn-<chart key>``.
- Every animation (Playground, CS-SVM): :func:`animation_button` offers one self-contained
  HTML file (plotly.js inlined) that plays offline, built only when the button is clicked
  (``st.download_button`` with a callable), so a rerun of the page builds nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import streamlit as st

from olearn.viz.animate import animated_dict, animation_html
from olearn.viz.common import PLOTLY_CONFIG

IMAGE_FORMATS = ("png", "svg")
FORMAT_KEY = "image_format"  # the sidebar's choice (:func:`image_format_choice`)


def image_format() -> str:
    """The format the modebar's camera saves in this session: the sidebar's choice, else PNG."""
    try:
        fmt = st.session_state.get(FORMAT_KEY)
    except Exception:  # outside a Streamlit run (a notebook, the offline HTML): PNG
        fmt = None
    return fmt if fmt in IMAGE_FORMATS else "png"


def image_format_choice(label: str, help: str) -> None:
    """The sidebar's PNG / SVG choice for every chart's camera button (plotly's public
    ``toImageButtonOptions``: no browser code, nothing for the server to render)."""
    st.sidebar.radio(
        label, IMAGE_FORMATS, key=FORMAT_KEY, format_func=str.upper, horizontal=True, help=help
    )


def chart_config(key: str | None, fmt: str | None = None) -> dict:
    """The plotly config of chart ``key``: the app's (:data:`PLOTLY_CONFIG`), its camera saving
    ``fmt`` (default :func:`image_format`) to a file named ``olearn-<key>``.

    >>> chart_config("cmp.err", "svg")["toImageButtonOptions"]
    {'format': 'svg', 'scale': 2, 'filename': 'olearn-cmp-err'}
    """
    name = "olearn" if not key else "olearn-" + "".join(c if c.isalnum() else "-" for c in key)
    options = PLOTLY_CONFIG["toImageButtonOptions"]
    options = {**options, "format": fmt or image_format(), "filename": name}
    return {**PLOTLY_CONFIG, "toImageButtonOptions": options}


def plot(fig, key: str | None = None, **kw):
    """Render a plotly figure full width with :func:`chart_config` (PNG and SVG downloads)."""
    return st.plotly_chart(fig, config=chart_config(key), key=key, **kw)


def stream_html(views: dict, title: str = "olearn Playground") -> str:
    """The Playground's animation as one HTML page: the planes with the play control, the
    curves (and the weight space, if drawn) following it; ``views`` as
    :func:`olearn.app.cached.stream_views` returns it (the frames the app plays)."""
    unpacked = views["unpacked"]()  # the player's planes and weight space travel packed
    lead = animated_dict(views["planes"], unpacked["planes"])
    followers = [
        animated_dict(views["curves"], json.loads(views["frames"]["curves"]), controls=False)
    ]
    if views.get("weights") is not None:
        followers.append(animated_dict(views["weights"], unpacked["weights"], controls=False))
    return animation_html(lead, followers, title, chart_config("playground"))


def cs_html(views: dict, title: str = "olearn Crammer-Singer SVM") -> str:
    """The Crammer-Singer decomposition as one HTML page that plays; ``views`` as
    :func:`olearn.app.cached.cs_player_views` returns it.  The slider reads each frame's
    number among the sub-problems that changed W, as the page counts them."""
    lead = animated_dict(views["figure"], json.loads(views["frames"]), views["ks"], 5, "# ")
    return animation_html(lead, (), title, chart_config("cs_svm"))


def animation_button(
    labels: tuple[str, str], build: Callable[[], str], file_name: str, key: str
) -> None:
    """A download button (``labels``: its label and help) for an animation's HTML, built by
    ``build()`` only when clicked (no rerun follows the click)."""
    st.download_button(
        labels[0],
        help=labels[1],
        data=lambda: build().encode("utf-8"),
        file_name=file_name,
        mime="text/html",
        key=key,
        on_click="ignore",
        icon=":material/download:",
    )
