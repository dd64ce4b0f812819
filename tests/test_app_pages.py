"""Every page of the app, headless (streamlit.testing.v1.AppTest): it runs, its main widgets
change what it shows, and no exception or error reaches the screen.

Pages are reached through ``app.py`` (the frame with ``st.navigation``) and ``switch_page``.
``OLEARN_APP_RAISE=1`` makes the pages' error guard re-raise, so a failure is a real exception
here rather than a polite ``st.error``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

APP = Path(__file__).resolve().parents[1] / "app.py"


@pytest.fixture(autouse=True)
def _raise_errors(monkeypatch):
    monkeypatch.setenv("OLEARN_APP_RAISE", "1")


def open_page(page: str, query: dict | None = None) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=120)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    if page != "olearn/pages/home.py":
        at.switch_page(page).run()
    assert_clean(at)
    return at


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def charts(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def texts(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


# --- frame --------------------------------------------------------------------------------


def test_home_shows_family_map_and_dataset_cards():
    at = open_page("olearn/pages/home.py")
    figs = charts(at)
    assert figs and any("SPA" in json.dumps(f["data"]) for f in figs)
    names = at.dataframe[0].value["name"].tolist()
    assert "digits" in names and "toy-blobs" in names


def test_language_switch_translates_the_page():
    at = open_page("olearn/pages/spa.py")
    english = texts(at)
    at.sidebar.selectbox(key="lang").set_value("ja").run()
    assert_clean(at)
    japanese = texts(at)
    assert english != japanese
    assert any("スコア" in s for s in japanese)


def test_page_error_becomes_a_message_not_a_traceback(monkeypatch):
    """Without the test switch, a bad URL parameter ends as st.error, never st.exception."""
    monkeypatch.delenv("OLEARN_APP_RAISE")
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    at.switch_page("olearn/pages/playground.py")
    at.query_params["kind"] = "placed"
    at.query_params["pts"] = "0,0,0;1,1,0"  # one class only: a clear ValueError
    at.session_state["play.kind"] = "placed"
    at.run()
    assert not at.exception
    assert at.error and "class" in at.error[0].value


# --- SPA page -------------------------------------------------------------------------------


def test_spa_next_walks_through_the_sub_steps():
    at = open_page("olearn/pages/spa.py")
    first = texts(at)
    fig0 = charts(at)[0]
    seen = {first[0]}
    for _ in range(12):
        at.button(key="spa.next").click().run()
        assert_clean(at)
        seen.add(texts(at)[0])
    assert {
        "#### 1. Scores",
        "#### 3. Q values",
        "#### 7. The update",
        "#### 8. New scores",
    } <= seen
    assert charts(at)[0] != fig0  # the geometry is redrawn
    at.button(key="spa.prev").click().run()
    assert texts(at)[0] == "#### 7. The update"


def test_spa_support_test_text_states_the_threshold():
    at = open_page("olearn/pages/spa.py", {"scenario": "three-rivals", "step": "6"})
    body = " ".join(texts(at))
    assert "Support test" in body and "Threshold" in body and "search stops" in body


def test_spa_scenario_rule_and_C_change_the_content():
    at = open_page("olearn/pages/spa.py")
    state0 = at.dataframe[-1].value.to_dict()
    at.selectbox(key="spa.scenario").set_value("printed-II").run()
    assert_clean(at)
    assert at.dataframe[-1].value.to_dict() != state0
    at.radio(key="spa.rule").set_value("SPA-II").run()
    assert_clean(at)
    assert any("They differ here" in s for s in texts(at))
    at.radio(key="spa.rule").set_value("SPA-I").run()
    at.selectbox(key="spa.scenario").set_value("three-rivals").run()
    at.select_slider(key="spa.C").set_value(0.01).run()
    assert any("the cap binds" in s for s in texts(at))
    at.select_slider(key="spa.C").set_value(100.0).run()
    assert any("does not bind" in s for s in texts(at))
    assert_clean(at)


def test_spa_lesson_link_hides_the_controls():
    at = open_page("olearn/pages/spa.py", {"scenario": "pa-failure", "hide": "all", "step": "2"})
    assert not at.selectbox and not at.radio
    assert texts(at)[0] == "#### 3. Q values"


def test_spa_playground_scenario_uses_the_playground_state():
    at = open_page("olearn/pages/playground.py")
    at.slider(key="play.t").set_value(40).run()
    at.button(key="play.open_spa").click().run()
    assert_clean(at)
    at.switch_page("olearn/pages/spa.py").run()
    assert_clean(at)
    assert at.selectbox(key="spa.scenario").value == "playground"
    state = at.dataframe[-1].value
    assert "bias" in state.columns  # the playground's learners see (x1, x2, 1)


# --- Playground -------------------------------------------------------------------------------


def test_playground_slider_buttons_and_learners():
    at = open_page("olearn/pages/playground.py")
    planes0 = charts(at)[0]
    at.slider(key="play.t").set_value(60).run()
    assert_clean(at)
    planes1 = charts(at)[0]
    assert planes1 != planes0
    at.button(key="play.step").click().run()
    assert at.slider(key="play.t").value == 61
    at.button(key="play.back").click().run()
    at.button(key="play.back").click().run()
    assert at.slider(key="play.t").value == 59
    at.button(key="play.rewind").click().run()
    assert at.slider(key="play.t").value == 0
    at.multiselect(key="play.algos").set_value(["spa", "arow"]).run()
    assert_clean(at)
    figs = charts(at)
    assert len(figs) == 3  # planes, mistakes, the covariance ellipses of AROW
    assert "AROW" in json.dumps(figs[0]["layout"]["annotations"])
    at.selectbox(key="play.kind").set_value("moons").run()
    assert_clean(at)
    at.button(key="play.play").click().run()
    assert_clean(at)


def test_playground_url_reproduces_the_view():
    at = open_page(
        "olearn/pages/playground.py", {"kind": "drift", "seed": "7", "t": "33", "algos": "pa1,scw1"}
    )
    assert at.slider(key="play.t").value == 33
    assert at.number_input(key="play.seed").value == 7
    assert at.query_params["seed"] == ["7"] or at.query_params["seed"] == "7"


# --- Compare ----------------------------------------------------------------------------------


def test_compare_runs_the_protocol_with_progress_and_download():
    at = open_page("olearn/pages/compare.py")
    assert not charts(at)  # nothing runs before the button
    at.multiselect(key="cmp.algos").set_value(["perceptron", "spa1"]).run()
    at.select_slider(key="cmp.max").set_value(300).run()
    at.button(key="cmp.run").click().run()
    assert_clean(at)
    table = at.dataframe[0].value
    assert table["algorithm"].tolist() == ["Perceptron", "SPA-I"]
    assert table["error %"].between(0, 100).all()
    assert len(charts(at)) == 3
    assert at.get("download_button")
    at.number_input(key="cmp.folds").set_value(4).run()
    assert_clean(at)
    assert not charts(at)  # new settings wait for the button again


def test_compare_on_a_paper_dataset_starts_from_the_reproduction_protocol():
    """USPS (real data: needs OLEARN_DATA): the settings jump to Table 4's protocol, and a
    departure from it is noted beside the paper column."""
    at = open_page("olearn/pages/compare.py")
    assert at.number_input(key="cmp.folds").value == 3  # digits: small settings
    at.selectbox(key="cmp.data").set_value("usps").run()
    assert_clean(at)
    assert at.number_input(key="cmp.folds").value == 10
    assert at.number_input(key="cmp.epochs").value == 10
    assert at.select_slider(key="cmp.max").value == 0 and at.radio(key="cmp.scale").value == "l2"
    at.multiselect(key="cmp.algos").set_value(["perceptron"]).run()
    at.number_input(key="cmp.folds").set_value(3).run()
    at.select_slider(key="cmp.max").set_value(300).run()
    at.number_input(key="cmp.epochs").set_value(2).run()
    at.button(key="cmp.run").click().run()
    assert_clean(at)
    table = at.dataframe[0].value
    columns = list(table.columns)
    note = columns[columns.index("paper %") + 1]
    assert "3 folds (paper 10)" in table[note].iloc[0]
    assert "300 samples" in table[note].iloc[0] and "2 epochs" in table[note].iloc[0]


def test_compare_upload_mode_and_bad_uploads_give_clear_errors():
    """AppTest cannot drive a file uploader: the page's upload mode is checked for its prompt,
    and the call it makes with the bytes is checked for clear ValueErrors (which the page's
    guard shows as st.error, see test_page_error_becomes_a_message_not_a_traceback)."""
    at = open_page("olearn/pages/compare.py")
    at.radio(key="cmp.source").set_value("upload").run()
    assert_clean(at)
    assert any("Upload a file" in i.value for i in at.info)
    from olearn.teaching.compare import dataset_from

    with pytest.raises(ValueError, match="bad.csv|numeric|row"):
        dataset_from(upload=b"a,b,label\n" + b"1,x,0\n" * 12, filename="bad.csv")
    with pytest.raises(ValueError, match="class"):
        dataset_from(upload=b"a,b,label\n" + b"1,2,0\n" * 12, filename="one.csv")
    ok = dataset_from(upload=b"a,b,label\n" + b"1,2,0\n3,4,1\n" * 6, filename="ok.csv")
    assert ok.X.shape == (12, 2)


# --- Reproduce --------------------------------------------------------------------------------


def test_reproduce_quick_run_shows_paper_beside_ours():
    """pcvm-lambda's quick run (real data: needs OLEARN_DATA, fails without it)."""
    at = open_page("olearn/pages/reproduce.py")
    ids = at.selectbox(key="rep.id").options
    assert any("matsushima-table4" in o for o in ids)
    at.selectbox(key="rep.id").set_value("pcvm-lambda").run()
    assert not at.dataframe  # nothing runs before the button
    at.button(key="rep.quick").click().run()
    assert_clean(at)
    table = at.dataframe[0].value
    assert {"paper", "ours"} <= set(table.columns)
    assert charts(at)


def test_reproduce_full_mode_from_a_link_waits_for_a_click():
    """``?mode=full`` must not start a run of minutes; it says so and waits for the button."""
    at = AppTest.from_file(str(APP), default_timeout=120).run()
    at.switch_page("olearn/pages/reproduce.py")
    at.query_params["id"] = "matsushima-table4"
    at.query_params["mode"] = "full"
    at.run()
    assert_clean(at)
    assert at.selectbox(key="rep.id").value == "matsushima-table4"
    assert not at.dataframe  # nothing ran
    assert any("never starts a long run" in i.value for i in at.info)


# --- the family pages -------------------------------------------------------------------------


def test_cw_page_rule_and_parameters_change_the_update():
    at = open_page("olearn/pages/cw.py")

    def numbers():
        return at.dataframe[0].value["value"].astype(str).tolist()

    first = numbers()
    assert len(charts(at)) == 2
    at.radio(key="cw.rule").set_value("scw1").run()
    at.select_slider(key="cw.C").set_value(0.01).run()
    assert_clean(at)
    capped = at.dataframe[0].value.set_index("quantity")["value"]
    assert float(capped["α (mean step)"]) <= 0.01 + 1e-12
    assert capped["α capped at C"] == "True"
    assert numbers() != first
    at.radio(key="cw.rule").set_value("cw").run()
    at.select_slider(key="cw.eta").set_value(0.9).run()
    assert_clean(at)
    row = at.dataframe[0].value.set_index("quantity")["value"]
    assert abs(float(row["Pr[y w·x ≥ 0] after"]) - 0.9) < 1e-6  # CW meets eta exactly
    noise0 = charts(at)[1]
    at.select_slider(key="cw.noise").set_value(0.0).run()
    assert_clean(at)
    assert charts(at)[1] != noise0


def test_cs_svm_page_steps_and_gap():
    at = open_page("olearn/pages/cs_svm.py")
    assert "LIBLINEAR" in at.info[0].value
    text0, plane0 = texts(at)[-1], charts(at)[0]
    at.slider(key="cs.s").set_value(7).run()
    assert_clean(at)
    assert texts(at)[-1] != text0 and charts(at)[0] != plane0
    at.select_slider(key="cs.C").set_value(0.1).run()
    assert_clean(at)


def test_pcvm_page_iterations_and_lambda():
    at = open_page("olearn/pages/pcvm.py")
    last = charts(at)[0]
    at.slider(key="pcvm.i").set_value(1).run()
    assert_clean(at)
    assert charts(at)[0] != last
    at.select_slider(key="pcvm.lam").set_value(0.0).run()  # gamma fixed at 1
    assert_clean(at)
    sweep = at.dataframe[0].value
    assert "gamma = 1" in sweep["lambda"].tolist()


def test_sgd_page_lambda_changes_the_curves():
    at = open_page("olearn/pages/sgd.py")
    first = charts(at)[0]
    at.select_slider(key="sgd.lam").set_value(0.01).run()
    assert_clean(at)
    assert charts(at)[0] != first
    assert set(at.dataframe[0].value["schedule"]) == {"global", "per-feature"}


def test_playground_points_placed_by_the_user():
    at = open_page("olearn/pages/playground.py", {"kind": "placed"})
    assert at.dataframe, "the editable table of points is shown"
    assert at.slider(key="play.t").max == 8  # the eight default points are the stream
    at.slider(key="play.t").set_value(5).run()
    assert_clean(at)
    planes = [c for c in charts(at) if "mistakes" in json.dumps(c["layout"])][0]
    assert "/ 5 mistakes" in json.dumps(planes["layout"]["annotations"])
    assert len(charts(at)) == 3  # the click-to-place grid, the planes, the mistakes


def test_pcvm_animation_toggle_runs():
    at = open_page("olearn/pages/pcvm.py")
    at.slider(key="pcvm.i").set_value(3).run()
    at.toggle(key="pcvm.playing").set_value(True).run()
    assert_clean(at)
    assert at.slider(key="pcvm.i").value == 4  # one animation tick ran with the page
