"""Citations, not IDs (issue 31, item 8): no page shows the internal number a source is filed
under ("000", "seed 001", "Source paper 002"), in either language; each source is cited by its
authors and year (:mod:`olearn.citations`), with the reference list one click away
(the sidebar's *References*).

Every page is opened headless in its default state and in the states that show other texts
(those of ``tests/test_app_i18n.py``, and every reproduction's quick run), in English and in
Japanese, and every visible text (markdown, captions, notes, labels, options, tables, figure
texts, code blocks) is searched for a source number.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from olearn.citations import SOURCES, cite, expand, references  # noqa: E402
from olearn.experiments.reproduction import REPRODUCTIONS  # noqa: E402
from tests.app_renders import render  # noqa: E402
from tests.app_support import APP, page_file  # noqa: E402
from tests.test_app_i18n import PAGE_FILES, STATES, visible_texts  # noqa: E402

# a source's number standing alone ("000", "seed 001", "論文 002"), not part of a number
SOURCE_NUMBER = re.compile(r"(?<![\d.,/\w])0{2}[0-4](?![\d.,/]\d|\w)")
REPRODUCE = [("pages/reproduce.py", {"id": id_, "mode": "quick"}) for id_ in REPRODUCTIONS]
CASES = [*((page, {}) for page in PAGE_FILES), *STATES, *REPRODUCE]


@pytest.fixture(autouse=True)
def _raise_errors(monkeypatch):
    monkeypatch.setenv("OLEARN_APP_RAISE", "1")


def shown(page: str, query: dict, lang: str) -> list[tuple[str, str]]:
    at, _ = render(page, query, lang)  # (tests/app_renders.py: rendered once)
    assert not at.exception, [e.value for e in at.exception]
    texts = visible_texts(at)
    texts += [("code", c.value) for c in at.code]
    texts += [("sidebar", m.value) for m in at.sidebar.markdown]
    return texts


def test_the_scan_finds_a_source_number():
    for text in ("seed 000", "Source paper 002, Table 4", "(論文 001)", "Matsushima et al., 000"):
        assert SOURCE_NUMBER.search(text), text
    for text in ("0.001", "1,000 rows", "C = 0.003", "2004", "t = 100", "ol-8-1"):
        assert not SOURCE_NUMBER.search(text), text


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("page,query", CASES, ids=lambda v: str(v))
def test_no_page_shows_a_source_number(page, query, lang):
    found = [
        f"{where}: {text[:120]!r}" for where, text in shown(page, query, lang)
        if SOURCE_NUMBER.search(text)
    ]  # fmt: skip
    assert not found, "source numbers on the page:\n" + "\n".join(found)


def test_every_source_is_cited_by_authors_and_year_and_listed():
    for key in SOURCES:
        for lang in ("en", "ja"):
            assert not SOURCE_NUMBER.search(cite(key, lang))
            assert re.search(r"\b(19|20)\d\d\b|n\.d\.|年不明", cite(key, lang))
    assert len(references()) == len(SOURCES)
    assert expand("[[000]]", "ja") == "Matsushima ら 2010"


def test_the_reference_list_is_one_click_away_on_every_page():
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    at.switch_page(page_file("pages/spa.py")).run()
    labels = [e.label for e in at.sidebar.expander]
    assert "References" in labels
    listed = "\n".join(m.value for m in at.sidebar.markdown)
    assert all(cite(key) in listed for key in SOURCES)
