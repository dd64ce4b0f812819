"""The app's frame: page config, the language switch, the share hint and the navigation.

Each page is thin: widgets, one call into ``olearn.teaching`` / ``olearn.experiments``, render.
:data:`PAGES` lists every page once (key, icon, navigation group); Home's cards and the
navigation both read it.
"""

from __future__ import annotations

import contextvars
from typing import NamedTuple

import streamlit as st

from olearn import _warmup
from olearn.app import page_path
from olearn.app.components.assets import asset
from olearn.app.components.theme import theme_sync
from olearn.app.downloads import image_format_choice
from olearn.app.server import background
from olearn.app.ui import (
    SHOWN_THEME,
    THEME_CHOICES,
    figure_theme,
    forget_pending,
    guard,
    hidden_set,
    presenting,
    query_param,
    theme_switchable,
)
from olearn.teaching.strings import LANGS, t

# the app's icon, bundled and sent as a data: URL: no page asks another host for it (an icon
# named ":material/...:" is fetched from fonts.gstatic.com by the browser)
FAVICON = "favicon.svg"
_IN_FRAME = contextvars.ContextVar("olearn_in_frame", default=False)  # a page runs in main()
_started = False  # has this process run the frame once (see _leave_legacy_mode)


class PageDef(NamedTuple):
    key: str  # file ``pages/<key>.py``, URL path ``/<key>``, title ``page.<key>``
    icon: str
    group: str  # navigation group, a ``nav.<group>`` string


PAGES: list[PageDef] = [
    PageDef("home", ":material/home:", "start"),
    PageDef("lesson", ":material/school:", "start"),
    PageDef("playground", ":material/animation:", "play"),
    PageDef("spa", ":material/search_insights:", "inside"),
    PageDef("cw", ":material/blur_on:", "inside"),
    PageDef("cs_svm", ":material/extension:", "inside"),
    PageDef("pcvm", ":material/eco:", "inside"),
    PageDef("sgd", ":material/trending_down:", "inside"),
    PageDef("compare", ":material/bar_chart:", "data"),
    PageDef("reproduce", ":material/history_edu:", "data"),
]


def main() -> None:
    """Run the app: one call per Streamlit rerun (the entry scripts call it)."""
    global _started
    if not _started:  # this server's first run: Streamlit may be in its legacy pages/ mode
        _started = True
        _leave_legacy_mode()
    if "lang" not in st.session_state:
        st.session_state["lang"] = query_param("lang", "en", lambda v: v in LANGS)
    if "present" not in st.session_state:
        st.session_state["present"] = bool(query_param("present", False))
    if "theme" not in st.session_state:
        st.session_state["theme"] = query_param("theme", "auto", lambda v: v in THEME_CHOICES)
    hidden = hidden_set()
    present = presenting() or "all" in hidden
    st.set_page_config(
        page_title="olearn",
        page_icon=asset(FAVICON),
        layout="wide",
        initial_sidebar_state="collapsed" if present else "expanded",
    )
    st.html(f"<style>{asset('legible.css')}</style>")
    if present:
        st.html(f"<style>{asset('present.css')}</style>")
    if "all" in hidden:
        st.html(f"<style>{asset('no_sidebar.css')}</style>")
    if not hidden & {"all", "lang"}:
        st.sidebar.selectbox(
            t("lang.label"), LANGS, key="lang", format_func=lambda code: t("lang.name", code)
        )
    lang = st.session_state["lang"]
    if theme_switchable() and "all" not in hidden:  # a dark room: light, dark, the system's
        st.sidebar.selectbox(
            t("theme.label", lang),
            THEME_CHOICES,
            key="theme",
            format_func=lambda v: t(f"theme.{v}", lang),
            help=t("theme.help", lang),
        )
    with st.sidebar:  # (draws nothing) Streamlit's theme follows the choice; the figures too
        shown = theme_sync(st.session_state["theme"], figure_theme().name, theme_switchable())
    if shown:
        st.session_state[SHOWN_THEME] = shown
    if "all" not in hidden:
        st.sidebar.toggle(
            t("ui.present", lang),
            key="present",
            help=t("ui.present.help", lang),
        )
        share = st.sidebar.button(  # opens after the page ran: its link is then complete
            t("ui.share.button", lang), icon=":material/qr_code_2:", key="ui.share"
        )
        with st.sidebar.expander(t("ui.share", lang), icon=":material/link:"):
            st.caption(t("ui.share.help", lang))
            st.caption(t("ui.png_hint", lang))
        with st.sidebar.expander(t("ui.references", lang), icon=":material/menu_book:"):
            from olearn.citations import references

            st.markdown("\n".join(f"- {entry}" for entry in references()))
        image_format_choice(t("ui.image_format", lang), t("ui.image_format.help", lang))
    navigation = st.navigation(_groups(lang))
    notice = st.empty()  # the page's first jitted call would otherwise wait silently
    if background.warming() or (_warmup.enabled() and not background.started()):
        notice.info(t("ui.warming", lang), icon=":material/hourglass_top:")
    token = _IN_FRAME.set(True)
    try:
        # no traceback ever reaches the screen, even from a page's imports; no kernel is
        # compiled in the background meanwhile (olearn.app.server.background.page_running)
        with guard(), background.page_running():
            navigation.run()
        if "all" not in hidden and share:  # the link with this run's state, and its QR code
            from olearn.app import share as sharing

            sharing.dialog(lang)
        if not background.warming():  # the page is drawn: the notice goes, unless still true
            notice.empty()
        if _warmup.enabled():  # once per process: see background.start_background
            from olearn.app.server.heap import prepare_and_settle

            background.start_background(then=prepare_and_settle)
        # the run completed (an interrupted run, or a rerun, raises past this line; pages do
        # not call st.stop()): values set by callbacks have reached the browser
        forget_pending()
    finally:
        _IN_FRAME.reset(token)


def _groups(lang: str) -> dict[str, list]:
    """The navigation: every page of :data:`PAGES` under its group, titled in ``lang``."""
    groups: dict[str, list] = {}
    for page in PAGES:
        groups.setdefault(t(f"nav.{page.group}", lang), []).append(
            st.Page(
                page_path(page.key),
                title=t(f"page.{page.key}", lang),
                icon=page.icon,
                url_path=page.key,
                default=page.key == "home",
            )
        )
    return groups


def require_frame() -> None:
    """Called by every page script before it draws anything.

    ``streamlit run app.py`` in a clone finds the folder ``pages/`` beside ``app.py``, and on
    a fresh server's first request Streamlit's legacy multipage mode runs the requested page
    script alone, without this frame (``st.navigation`` turns that mode off for good once it
    has run).  The page then registers the frame's navigation (which ends that mode) and
    reruns, drawing nothing: the rerun runs the entry script, the frame, and this page inside
    it.  :func:`main` does the same on the server's first run, whichever page it is (a
    widget drawn in the legacy run would get another id than in the next run, and lose its
    state).  A deep link is right from the first request, with Streamlit's public API only.
    """
    if not _IN_FRAME.get():
        _leave_legacy_mode()


def _leave_legacy_mode() -> None:
    """Register the frame's navigation (public ``st.navigation`` ends Streamlit's legacy
    multipage mode for the server) and rerun, having drawn nothing.

    The favicon first: until a page config names one, the browser takes the navigation's page
    icon for it (``:material/home:``, fetched from fonts.gstatic.com)."""
    st.set_page_config(page_icon=asset(FAVICON))
    st.navigation(_groups(query_param("lang", "en", lambda v: v in LANGS)))
    st.rerun()
