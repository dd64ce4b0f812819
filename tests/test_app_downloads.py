"""Downloads from the pages, headless (AppTest): every chart goes through the one display
helper, whose config names the PNG after the chart; the SVG button's browser code is mounted
on every page (in the sidebar, drawn even when it is hidden); an animation's HTML is built
only when its button is clicked, never by a run of the page.  (The browser side, that the
modebar offers both and the files download: tests/test_browser_downloads.py.)"""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from olearn.app.frame import PAGES  # noqa: E402
from olearn.teaching.strings import t  # noqa: E402
from tests.app_support import APP, ROOT, page_file  # noqa: E402


@pytest.fixture(autouse=True)
def _raise_errors(monkeypatch):
    monkeypatch.setenv("OLEARN_APP_RAISE", "1")


def open_page(page: str, query: dict) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=120)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    at.switch_page(page_file(page)).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("page", [p.key for p in PAGES])
def test_page_draws_every_chart_through_the_download_helper(page):
    """No page script calls ``st.plotly_chart`` itself: every chart gets the PNG/SVG config
    of :func:`olearn.app.ui.plot`."""
    source = (ROOT / "pages" / f"{page}.py").read_text(encoding="utf-8")
    assert not re.search(r"\bplotly_chart\s*\(", source)


def test_charts_name_their_images_and_save_in_the_sidebars_format():
    at = open_page("pages/sgd.py", {"lang": "ja"})
    for fmt in ("png", "svg"):
        if fmt == "svg":
            at.sidebar.radio(key="image_format").set_value("svg").run()
        configs = [json.loads(el.proto.config) for el in at.get("plotly_chart")]
        assert len(configs) == 3
        for config, key in zip(configs, ("obj", "f1", "rates")):
            assert config["toImageButtonOptions"] == {
                "format": fmt,
                "scale": 2,
                "filename": f"olearn-sgd-{key}",
            }
    # no browser code of ours is mounted for it (the theme's component is on every page)
    assert [el.key for el in at.get("bidi_component")] == ["olearn-theme"]


def test_a_hidden_sidebar_saves_png():
    at = open_page("pages/sgd.py", {"lang": "en", "hide": "all"})
    assert not at.sidebar.get("radio")
    configs = [json.loads(el.proto.config) for el in at.get("plotly_chart")]
    assert {c["toImageButtonOptions"]["format"] for c in configs} == {"png"}


@pytest.mark.parametrize(
    "page,query,key",
    [
        ("pages/playground.py", {"algos": "perceptron,arow", "n": "50"}, "play.download"),
        ("pages/cs_svm.py", {"n": "20"}, "cs.download"),
    ],
)
def test_animation_html_is_built_on_click_only(page, query, key, monkeypatch):
    import olearn.app.downloads as downloads

    built = []
    monkeypatch.setattr(downloads, "animation_html", lambda *a, **k: built.append(a) or "")
    at = open_page(page, query)
    (button,) = [b for b in at.get("download_button") if b.proto.id.endswith(key)]
    assert button.proto.label == t("ui.download_html", "en")
    assert button.proto.deferred_file_id and not button.proto.url  # a callable, deferred
    assert button.proto.ignore_rerun  # a click does not rerun the page
    at.run()
    assert built == []
