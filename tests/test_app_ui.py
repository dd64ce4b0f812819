"""The shared app layer (olearn.app.ui / frame), headless with AppTest: URL parameters that
never raise, a language switch that keeps every widget's state and re-translates its labels,
presentation mode, and ``hide=all`` without empty boxes."""

from __future__ import annotations

import math

import pytest

pytest.importorskip("streamlit")

from olearn.app.ui import parse_param  # noqa: E402
from olearn.teaching.settings import default_playground  # noqa: E402
from tests.app_support import page_file  # noqa: E402
from tests.stepper_support import figure_step, report, shown_step  # noqa: E402
from tests.test_app_pages import APP, AppTest, assert_clean, open_page  # noqa: E402

PAGES = ["home", "playground", "spa", "cw", "cs_svm", "pcvm", "sgd", "compare", "reproduce"]
HOSTILE = {
    "seed": "inf",
    "t": "1e999",
    "n": "nan",
    "K": "-inf",
    "C": "1e999",
    "step": "garbage",
    "i": "9" * 400,
    "lam": "nan",
    "noise": "-1e999",
    "algos": ",,,nope",
    "present": "maybe",
    "lang": "xx",
}


@pytest.mark.parametrize(
    ("raw", "like", "expected"),
    [
        ("7", 0, 7),
        ("7.0", 0, 7),
        ("-3", 0, -3),
        ("7.5", 0, None),  # not a whole number
        ("inf", 0, None),
        ("-inf", 1.0, None),
        ("1e999", 0, None),  # overflows to inf
        ("nan", 1.0, None),
        ("9" * 400, 0, None),  # int(float()) of this raised OverflowError before
        ("1e300", 0, None),  # finite but beyond any index
        ("abc", 0, None),
        ("", 1.0, None),
        ("0.25", 1.0, 0.25),
        ("off", True, False),
        ("maybe", True, None),
        ("spa", "pa", "spa"),
        (None, 0, None),
    ],
)
def test_parse_param_never_raises(raw, like, expected):
    value = parse_param(raw, like)
    assert value == expected
    if isinstance(value, float):
        assert math.isfinite(value)


@pytest.mark.parametrize("page", PAGES)
def test_hostile_url_parameters_give_defaults_not_errors(page):
    """``?seed=inf&t=1e999...`` on every page: no exception, no error box (OLEARN_APP_RAISE=1
    makes any exception a test failure)."""
    at = open_page(f"pages/{page}.py", HOSTILE)
    assert_clean(at)
    if page == "playground":
        default = default_playground().seed  # the default, not inf
        assert at.number_input(key="play.seed").value == default


def test_language_switch_keeps_the_spa_sub_step_and_relabels_it(monkeypatch):
    at = open_page("pages/spa.py")
    report(monkeypatch, at, 3)
    assert shown_step(at, "spatext") == 3
    english = [m.value for m in at.markdown if m.value.startswith("#### 4.")]
    at.sidebar.selectbox(key="lang").set_value("ja").run()
    assert_clean(at)
    assert shown_step(at, "spatext") == figure_step(at) == 3  # the same sub-step ...
    japanese = [m.value for m in at.markdown if m.value.startswith("#### 4.")]
    assert japanese and japanese != english  # ... in the new language
    assert at.query_params["step"] == "3"


def test_language_switch_retranslates_the_scenario_box():
    at = open_page("pages/spa.py", {"scenario": "three-rivals"})
    box = at.selectbox(key="spa.scenario")
    english = box.format_func(box.value)
    at.sidebar.selectbox(key="lang").set_value("ja").run()
    proto = at.selectbox(key="spa.scenario").proto
    # the browser is sent the same option under its Japanese label (it would otherwise keep
    # showing the English one, or fall back to the first option)
    assert proto.set_value
    assert proto.raw_value == proto.options[1] != english  # three-rivals is option 1


def test_every_control_and_the_language_are_in_the_url(monkeypatch):
    at = open_page("pages/spa.py", {"scenario": "three-rivals"})
    report(monkeypatch, at, 1)
    at.sidebar.selectbox(key="lang").set_value("ja").run()
    params = {k: at.query_params[k] for k in at.query_params}
    flat = {k: v[0] if isinstance(v, list) else v for k, v in params.items()}
    assert flat["scenario"] == "three-rivals"
    assert flat["step"] == "1"
    assert flat["lang"] == "ja"
    assert {"rule", "C", "seed"} <= flat.keys()


def test_present_mode_folds_the_controls_and_stays_in_the_url():
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params["present"] = "1"
    at.run()
    at.switch_page(page_file("pages/playground.py")).run()
    assert_clean(at)
    assert at.sidebar.toggle(key="present").value is True
    labels = [e.label for e in at.expander]
    assert any("Settings" in label for label in labels)
    flat = {k: at.query_params[k] for k in at.query_params}
    assert flat.get("present") in ("1", ["1"])
    at.sidebar.toggle(key="present").set_value(False).run()
    assert not any("Settings" in e.label for e in at.expander)
    assert "present" not in {k for k in at.query_params}


def test_hide_all_draws_no_widget_and_no_empty_box():
    at = open_page("pages/playground.py", {"hide": "all", "t": "30"})
    assert not at.selectbox and not at.slider and not at.multiselect and not at.toggle
    # no bordered container is left behind (it would be an empty box on screen)
    bordered = [
        b
        for b in at.main.children.values()
        if getattr(b, "type", "") == "vertical" and b.proto.flex_container.border
    ]
    assert not bordered


def test_blank_missing_shows_missing_cells_blank_and_keeps_the_numbers():
    import re

    import numpy as np
    import pandas as pd

    from olearn.app.ui import blank_missing

    frame = pd.DataFrame({"name": ["x", None], "paper": [np.nan, 1.5], "ours": [85.50351, 0.1]})
    styled = blank_missing(frame)
    cells = re.findall(r">([^<]*)</td>", styled.to_html())
    assert cells == ["x", "", "85.5035", "", "1.5", "0.1"]  # row by row; no "None", no "nan"
    assert styled.data.equals(frame)  # the values themselves are untouched (sorting by value)
