"""One headless render of a page state per test process, shared by the checks that read its
texts: the Japanese checks (tests/test_app_i18n.py, tests/test_reproduce_i18n.py) and the
citations' scan (tests/test_citations.py) read the same pages in the same states, and
rendering one (AppTest: the page's whole script, a reproduction's quick run included) is
what those tests spend their time on.  conftest.py runs the three files in one pytest-xdist
group, so each state is rendered once.

Every render goes through the recording translation table: ``t()``'s Japanese strings record
each text they are formatted into (:class:`Recorded`), which is what the Japanese checks
subtract from a text before they look for English words.  ``OLEARN_APP_RAISE=1`` turns the
pages' error guard into a real exception.
"""

from __future__ import annotations

import os

import pytest

import olearn.teaching.strings as strings_mod
from olearn.citations import expand
from tests.app_support import APP, page_file

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402


class Recorded(str):
    """A Japanese table entry that records every text it becomes."""

    sink: set[str] = set()

    def format(self, *args, **kwargs):  # noqa: A003 - str.format, recorded
        out = str.format(self, *args, **kwargs)
        Recorded.sink.add(out)
        return out


class RecordingTable(dict):
    def __getitem__(self, key):
        en, ja = dict.__getitem__(self, key)
        ja = expand(ja, "ja")  # a source's token as the page shows it: its citation
        Recorded.sink.add(ja)
        return en, Recorded(ja)


_RENDERS: dict[tuple, tuple[AppTest, frozenset[str]]] = {}


def render(
    page: str, query: dict, lang: str, fresh: bool = False
) -> tuple[AppTest, frozenset[str]]:
    """``page`` (a path from the repository's root) opened with ``query`` and ``?lang=``, as
    a visitor's link opens it: the finished AppTest and the Japanese strings ``t()`` produced
    while it ran (rendered once per process; a failed render is not kept).  ``fresh``: render
    it again and keep nothing (a test that changed the translation table or the page)."""
    key = (page, tuple(sorted(query.items())), lang)
    if not fresh and key in _RENDERS:
        return _RENDERS[key]
    table, raise_ = strings_mod.STRINGS, os.environ.get("OLEARN_APP_RAISE")
    Recorded.sink = set()
    strings_mod.STRINGS = RecordingTable(table)
    os.environ["OLEARN_APP_RAISE"] = "1"
    try:
        at = AppTest.from_file(str(APP), default_timeout=300)
        at.query_params["lang"] = lang
        for name, value in query.items():
            at.query_params[name] = value
        at.run()
        if page != "pages/home.py":
            at.switch_page(page_file(page)).run()
    finally:
        strings_mod.STRINGS = table
        if raise_ is None:
            os.environ.pop("OLEARN_APP_RAISE", None)
        else:
            os.environ["OLEARN_APP_RAISE"] = raise_
    rendered = at, frozenset(Recorded.sink)
    if not fresh:
        _RENDERS[key] = rendered
    return rendered
