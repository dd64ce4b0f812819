"""The Reproduce page in Japanese after a run: every table header, every text cell and the
computed summary in Japanese, the numbers as they were (real data: needs OLEARN_DATA).

Each registered reproduction's quick run is shown with ``?lang=ja&mode=quick`` and its texts
are collected by :func:`tests.test_app_i18n.visible_texts`.  A text passes when, after
removing the literal parts of the Japanese strings (the text between their {fields}, so a
field filled with English is caught) and the names (the registry's and the datasets', and the
labels the result's tables list as algorithms and paper pairs), no English word is left but
the allow-list's (:func:`tests.test_app_i18n.english_left`).  The CLI's verbatim output (a
code block) is program output and stays English.
"""

from __future__ import annotations

import re
import string
from collections import Counter

import pandas as pd
import pytest

pytest.importorskip("streamlit")

import olearn.teaching.reproduce as reproduce_mod  # noqa: E402
import olearn.teaching.strings as strings_mod  # noqa: E402
from olearn.experiments.reproduction import REPRODUCTIONS  # noqa: E402
from olearn.teaching.reproduce import extra_tables, localized  # noqa: E402
from tests.app_renders import render  # noqa: E402
from tests.test_app_i18n import _names, english_left, is_text, visible_texts  # noqa: E402

PAGE = "pages/reproduce.py"
# the fastest quick run (about 1.5 s of work; the slowest, matsushima-table4, about 9 s)
FASTEST = "ono-sgd-figure1"
# result columns whose cells are names: they stay as the reproduction wrote them
NAME_COLUMNS = ("algorithm", "a", "b", "seed_pair")


@pytest.fixture(autouse=True)
def _raise_errors(monkeypatch):
    monkeypatch.setenv("OLEARN_APP_RAISE", "1")


def _result(id_: str):
    """The quick run's result as the page computed it (the app's cache; runs it if absent)."""
    from olearn.app.cached import repro_run

    return repro_run(id_, True, "en")[0]


def _pieces() -> set[str]:
    """The literal parts of every Japanese string, between its {fields}."""
    out: set[str] = set()
    for _, ja in strings_mod.STRINGS.values():
        out |= {lit for lit, *_ in string.Formatter().parse(ja) if lit.strip()}
    return out


def _result_names(result) -> set[str]:
    frames = [result.table, *(frame for _, frame in extra_tables(result))]
    return {str(v) for f in frames for c in NAME_COLUMNS if c in f for v in f[c].dropna().unique()}


def _leaks(id_: str, fresh: bool = False) -> list[str]:
    at, _ = render(PAGE, {"id": id_, "mode": "quick"}, "ja", fresh)  # (tests/app_renders.py)
    assert not at.exception, [e.value for e in at.exception]
    assert at.dataframe, "the quick run did not show its table"
    pieces, names = _pieces(), _names() | _result_names(_result(id_))
    leaks = []
    for where, text in visible_texts(at):
        words = english_left(text, pieces, names)
        if words:
            leaks.append(f"{where}: {text[:90]!r} -> {sorted(set(words))}")
    return leaks


@pytest.mark.parametrize("id_", list(REPRODUCTIONS))
def test_every_word_of_a_quick_run_is_japanese(id_):
    leaks = _leaks(id_)
    assert not leaks, "English left on the Reproduce page:\n" + "\n".join(leaks)


def test_the_check_catches_an_untranslated_column_and_cell(monkeypatch):
    """Negative check: without the header's entry and with the cells left as they are, the
    same check fails on both."""
    monkeypatch.setattr(strings_mod, "STRINGS", dict(strings_mod.STRINGS))
    del strings_mod.STRINGS["rep.col.paper_claim"]
    monkeypatch.setattr(reproduce_mod, "cell", lambda value, lang: value)
    leaks = "\n".join(_leaks(FASTEST, fresh=True))
    assert "dataframe column: 'paper_claim'" in leaks
    assert "per-feature rates reach a better model sooner" in leaks


def _numbers(text: str) -> Counter:
    return Counter(re.findall(r"\d+(?:\.\d+)?", text))


@pytest.mark.parametrize("id_", list(REPRODUCTIONS))
def test_localized_keeps_every_number(id_):
    """Every column keeps its place and numbers; a text cell keeps every number it had (the
    translation may add digits, e.g. "one pass" -> "1 回"); English is the frame itself."""
    result = _result(id_)
    for frame in [result.table, *(f for _, f in extra_tables(result))]:
        ja = localized(frame, "ja")
        assert localized(frame, "en") is frame
        assert len(set(ja.columns)) == len(ja.columns) == len(frame.columns)
        assert ja.index.equals(frame.index)
        for old, new in zip(frame.columns, ja.columns, strict=True):
            if not is_text(frame[old]):
                pd.testing.assert_series_equal(frame[old], ja[new], check_names=False)
                continue
            for before, after in zip(frame[old], ja[new], strict=True):
                if isinstance(before, str):
                    assert not _numbers(before) - _numbers(after), (before, after)
                else:
                    assert before is after or (pd.isna(before) and pd.isna(after))
