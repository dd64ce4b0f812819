"""The theme as the server sees it (AppTest): ``?theme=`` and the sidebar's switch choose the
figures' inks, and the choice stays in the URL like every other setting (issue 31, item 3).
What the browser shows is ``tests/test_browser_theme.py``."""

from __future__ import annotations

import pytest

pytest.importorskip("streamlit")

from olearn.viz.theme import DARK, LIGHT  # noqa: E402
from tests.test_app_pages import assert_clean, charts, open_page  # noqa: E402


def url(at) -> dict:
    return {k: at.query_params[k] for k in at.query_params}


def papers(at) -> set[str]:
    return {c["layout"].get("paper_bgcolor") for c in charts(at)}


@pytest.mark.parametrize("page", ["pages/cw.py", "pages/playground.py", "pages/home.py"])
def test_theme_dark_in_the_link_draws_every_figure_dark_and_stays_in_the_url(page):
    at = open_page(page, {"theme": "dark"})
    assert papers(at) == {DARK.paper}
    assert url(at).get("theme") in ("dark", ["dark"])
    assert at.sidebar.selectbox(key="theme").value == "dark"


def test_no_theme_in_the_link_follows_the_system_and_writes_nothing():
    """Without a theme in the link the server draws light until the browser says otherwise
    (AppTest has no browser), and the URL carries no theme."""
    at = open_page("pages/cw.py")
    assert papers(at) == {LIGHT.paper}
    assert at.sidebar.selectbox(key="theme").value == "auto"
    assert "theme" not in url(at)


def test_the_switch_changes_the_figures_and_the_url():
    at = open_page("pages/spa.py")
    at.sidebar.selectbox(key="theme").set_value("dark").run()
    assert_clean(at)
    assert papers(at) == {DARK.paper}
    assert url(at).get("theme") in ("dark", ["dark"])
    at.sidebar.selectbox(key="theme").set_value("auto").run()
    assert papers(at) == {LIGHT.paper} and "theme" not in url(at)


def test_a_bad_theme_in_the_link_is_the_systems():
    at = open_page("pages/sgd.py", {"theme": "purple"})
    assert at.sidebar.selectbox(key="theme").value == "auto"
    assert papers(at) == {LIGHT.paper}
