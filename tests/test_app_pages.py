"""Every page of the app, headless (streamlit.testing.v1.AppTest): it runs, its main widgets
change what it shows, and no exception or error reaches the screen.

Pages are reached through ``app.py`` (the frame with ``st.navigation``) and ``switch_page``.
``OLEARN_APP_RAISE=1`` makes the pages' error guard re-raise, so a failure is a real exception
here rather than a polite ``st.error``.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from olearn.teaching.settings import CwWalk, PlaygroundRun  # noqa: E402
from tests.app_support import APP, page_file  # noqa: E402
from tests.stepper_support import figure_step, report, shown_step  # noqa: E402


@pytest.fixture(autouse=True)
def _raise_errors(monkeypatch):
    monkeypatch.setenv("OLEARN_APP_RAISE", "1")


def open_page(page: str, query: dict | None = None) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=120)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    if page != "pages/home.py":
        at.switch_page(page_file(page)).run()
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
    at = open_page("pages/home.py")
    figs = charts(at)
    assert figs and any("SPA" in json.dumps(f["data"]) for f in figs)
    names = at.dataframe[0].value["name"].tolist()
    assert "digits" in names and "toy-blobs" in names


def test_home_in_japanese_translates_cards_and_family_map():
    at = open_page("pages/home.py", {"lang": "ja"})
    cards = at.dataframe[0].value
    assert "名前" in cards.columns and "name" not in cards.columns
    assert "ガウス分布の塊 (2次元)" in cards["内容"].tolist()
    family = json.dumps(charts(at)[0], ensure_ascii=False)
    assert "すべての不正解クラス" in family and "every wrong class" not in family
    links = [el.proto.label for el in at.get("page_link")]
    assert any("授業" in label for label in links)  # the lesson is on Home too


def test_language_switch_translates_the_page():
    at = open_page("pages/spa.py")
    english = texts(at)
    at.sidebar.selectbox(key="lang").set_value("ja").run()
    assert_clean(at)
    japanese = texts(at)
    assert english != japanese
    assert any("スコア" in s for s in japanese)


def test_page_error_becomes_a_message_not_a_traceback(monkeypatch):
    """Without the test switch, an error inside a page ends as st.error, never st.exception."""
    import olearn.app.cached

    def broken(*args, **kwargs):
        raise ValueError("a class label the learners cannot take")

    monkeypatch.delenv("OLEARN_APP_RAISE")
    monkeypatch.setattr(olearn.app.cached, "stream_views", broken)
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    at.switch_page(page_file("pages/playground.py"))
    at.run()
    assert not at.exception
    assert at.error and "class label" in at.error[0].value


def test_a_malformed_link_of_placed_points_gives_a_note_and_the_example(monkeypatch):
    """A link's points that cannot be used (class 99) give a note, not an error box."""
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    at.switch_page(page_file("pages/playground.py"))
    at.query_params["kind"] = "placed"
    at.query_params["pts"] = "0,0,0;1,1,99"
    at.session_state["play.kind"] = "placed"
    at.run()
    assert not at.exception and not at.error
    assert any("99" in note.value or "class" in note.value for note in at.info)


# --- SPA page -------------------------------------------------------------------------------


def test_spa_renders_every_sub_step_once_and_shows_the_reported_one(monkeypatch):
    """Every sub-step's text, formulas and table are sent once; the stepper's report of a
    stop moves the shown step, its figure and the URL; no Python rerun is needed per step."""
    from olearn.teaching.spa_walk import scenario, spa_walkthrough

    at = open_page("pages/spa.py", {"scenario": "three-rivals"})
    walk = spa_walkthrough(scenario("three-rivals", seed=0, K=None, C=0.3), None, 0.3, "en")
    titles = [f"#### {s.title}" for s in walk.steps]
    body = texts(at)
    assert [m for m in body if m in titles] == titles  # each once, in order
    assert len(at.table) == len(walk.steps)  # one per-class table per sub-step
    assert shown_step(at, "spatext") == shown_step(at, "spatable") == figure_step(at) == 0
    fig0 = charts(at)[0]
    report(monkeypatch, at, 6)
    assert_clean(at)
    assert shown_step(at, "spatext") == shown_step(at, "spatable") == figure_step(at) == 6
    assert at.query_params["step"] == "6"
    assert charts(at)[0]["data"] != fig0["data"]  # the geometry is redrawn
    report(monkeypatch, at, 99)  # a step that does not exist is ignored
    assert_clean(at)
    assert at.query_params["step"] == "6"


def test_spa_step_figures_are_the_sub_steps_geometry():
    """The figures the browser swaps in are the page's own figures of each sub-step."""
    from olearn.app.cached import spa_views
    from olearn.teaching.settings import SpaScenario
    from olearn.teaching.spa_walk import scenario, spa_walkthrough
    from olearn.viz.spa import spa_step_figure

    walk = spa_walkthrough(scenario("pa-failure", seed=0, K=None, C=0.3), "I", 0.3, "en")
    views = spa_views(SpaScenario("pa-failure", "I", 0.3), "en")
    sent = views.steps_json
    assert len(sent) == len(walk.steps)
    for i, raw in enumerate(sent):
        spec = json.loads(raw)
        assert spec["layout"]["meta"] == f"{views.family}:{i}"
        own = json.loads(spa_step_figure(walk, i).to_json())
        assert spec["data"] == own["data"]


def test_spa_support_test_text_states_the_threshold():
    at = open_page("pages/spa.py", {"scenario": "three-rivals", "step": "6"})
    body = " ".join(texts(at))
    assert "Support test" in body and "threshold is" in body and "search stops" in body
    assert any("t_k" in f.value for f in at.latex)  # the rule, then its numbers


def test_spa_scenario_selects_the_rule_it_is_about():
    at = open_page("pages/spa.py")
    at.selectbox(key="spa.scenario").set_value("printed-I").run()
    assert at.radio(key="spa.rule").value == "SPA-I"
    at.selectbox(key="spa.scenario").set_value("printed-II").run()
    assert at.radio(key="spa.rule").value == "SPA-II"
    assert any("They differ here" in s for s in texts(at))
    at.selectbox(key="spa.scenario").set_value("three-rivals").run()
    assert at.radio(key="spa.rule").value == "SPA-II"  # other scenarios leave the rule alone
    assert_clean(at)


def test_spa_second_search_is_explained_where_it_happens():
    at = open_page("pages/spa.py", {"scenario": "printed-I", "rule": "SPA-I", "C": "0.3"})
    titles = [m for m in texts(at) if m.startswith("#### ") and m[5].isdigit()]
    first_second = next(i for i, t in enumerate(titles) if "Second search" in t)
    assert "the cap binds" in titles[first_second - 1]  # the explanation comes just before
    body = texts(at)
    cut = body.index(titles[first_second - 1])
    assert not any("again" in s or "second" in s.lower() for s in body[:cut])  # not earlier
    nxt = body.index(titles[first_second])
    assert any("**again**" in s for s in body[cut:nxt])  # ...but at that sub-step


def test_spa_printed_and_derived_formulas_side_by_side():
    at = open_page("pages/spa.py", {"scenario": "printed-II", "rule": "SPA-II"})
    formulas = [f.value for f in at.latex]
    assert any(r"\textcolor{#C00000}{\frac{1}{2C}}" in f for f in formulas)  # printed
    assert any(r"\textcolor{#C00000}{\frac{k-1}{2C}}" in f for f in formulas)  # derived
    at.radio(key="spa.rule").set_value("SPA-I").run()
    formulas = [f.value for f in at.latex]
    assert any(r"- \frac{C}{k}" in f for f in formulas)
    assert any(r"+ \frac{C}{k-1}" in f and "cases" in f for f in formulas)  # two cases


def test_spa_tables_have_blank_cells_and_n_is_defined():
    at = open_page("pages/spa.py", {"scenario": "three-rivals", "step": "2"})
    assert at.table  # the per-sub-step tables are static tables
    for frame in [*at.dataframe, *at.table]:
        cells = frame.value.astype(str).to_numpy().ravel().tolist()
        assert not {"None", "nan", "NaN", "<NA>"} & set(cells)
    assert any("n = ‖x‖²" in s for s in texts(at))  # defined at the Q sub-step
    assert not any("1n" in f.value for f in at.latex)


def test_spa_random_seed_and_K_change_the_instance():
    at = open_page("pages/spa.py", {"scenario": "random"})
    assert at.number_input(key="spa.seed").label == "Random seed"
    state = at.dataframe[-1].value.to_dict()
    at.number_input(key="spa.seed").set_value(7).run()
    assert at.dataframe[-1].value.to_dict() != state
    at.slider(key="spa.K").set_value(6).run()
    assert len(at.dataframe[-1].value) == 6 + 1  # six w rows and x
    assert_clean(at)


def test_spa_scenario_rule_and_C_change_the_content():
    at = open_page("pages/spa.py")
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
    at = open_page("pages/spa.py", {"scenario": "pa-failure", "hide": "all", "step": "2"})
    assert not at.selectbox and not at.radio
    assert shown_step(at, "spatext") == figure_step(at) == 2
    assert "#### 3. Q values" in texts(at)


def test_spa_playground_hand_over_works_from_the_url_alone():
    """The Playground's link to the SPA page carries the instance in the URL: a fresh session
    (no Playground visited) rebuilds it."""
    from olearn.teaching.hand_over_url import instance_to_url

    run = PlaygroundRun(("pa", "spa"), "blobs", 60, 3, seed=4, test_fraction=0.2)
    hand_over = run.hand_over("spa", 40)
    at = open_page("pages/spa.py", instance_to_url(hand_over))
    assert at.selectbox(key="spa.scenario").value == "playground"
    from olearn.teaching.strings import t

    missing = t("spa.playground_missing")
    assert all(i.value != missing for i in at.info)  # no "open the Playground first"
    state = at.dataframe[-1].value
    assert "bias" in state.columns  # the playground's learners see (x1, x2, 1)
    pg = instance_to_url(hand_over)["pg"]
    assert at.query_params["pg"] in (pg, [pg])  # the URL keeps the hand-over


# --- Playground -------------------------------------------------------------------------------


def planes_text(at: AppTest) -> str:
    return json.dumps(charts(at)[0]["layout"]) + json.dumps(charts(at)[0]["data"])


def test_playground_t_learners_kind_and_regenerate():
    at = open_page("pages/playground.py")
    planes0 = charts(at)[0]
    at = open_page("pages/playground.py", {"t": "60"})
    assert charts(at)[0] != planes0  # the figure is drawn at the URL's t
    assert "/ 60 mistakes" in json.dumps(charts(at)[0]["data"])
    at.multiselect(key="play.algos").set_value(["spa", "arow"]).run()
    assert_clean(at)
    figs = charts(at)
    assert len(figs) == 3  # planes, curves, the covariance ellipses of AROW
    assert "AROW" in json.dumps(figs[0]["layout"]["annotations"])
    seed = at.number_input(key="play.seed").value
    at.button(key="play.regenerate").click().run()
    assert at.number_input(key="play.seed").value == seed + 1
    assert charts(at)[0] != figs[0]  # new data
    at.selectbox(key="play.kind").set_value("moons").run()
    assert_clean(at)
    assert at.slider(key="play.K").disabled  # moons are binary


@pytest.mark.parametrize(
    ("kind", "key", "value"),
    [
        ("select_slider", "play.n", 50),
        ("slider", "play.K", 4),
        ("select_slider", "play.noise", 0.2),
        ("select_slider", "play.C", 0.01),
        ("toggle", "play.bias", False),
        ("toggle", "play.band", False),
        ("number_input", "play.seed", 3),
    ],
)
def test_playground_every_control_changes_the_view(kind, key, value):
    at = open_page("pages/playground.py", {"t": "30", "algos": "pa1,spa1"})
    before = charts(at)[:2]
    getattr(at, kind)(key=key).set_value(value).run()
    assert_clean(at)
    assert charts(at)[:2] != before, key
    flat = {k: at.query_params[k] for k in at.query_params}
    assert key.split(".")[1] in flat  # and it is in the URL


def test_playground_regions_are_exact_polygons_not_a_grid():
    at = open_page("pages/playground.py", {"t": "40", "algos": "spa"})
    data = charts(at)[0]["data"]
    assert not any(tr["type"] in ("heatmap", "contour") for tr in data)
    fills = [tr for tr in data if tr.get("fill") == "toself" and tr.get("x")]
    assert fills and all(len(tr["x"]) <= 12 for tr in fills[:3])  # a few vertices each


def test_playground_test_split_adds_the_test_error_panel():
    at = open_page("pages/playground.py", {"test": "0.3"})
    assert "yaxis2" in charts(at)[1]["layout"]
    at.select_slider(key="play.test").set_value(0.0).run()
    assert "yaxis2" not in charts(at)[1]["layout"]


def test_playground_url_reproduces_the_view():
    at = open_page(
        "pages/playground.py", {"kind": "drift", "seed": "7", "t": "33", "algos": "pa1,scw1"}
    )
    assert at.session_state["play.t"] == 33
    assert at.number_input(key="play.seed").value == 7
    flat = {k: at.query_params[k] for k in at.query_params}
    flat = {k: v[0] if isinstance(v, list) else v for k, v in flat.items()}
    assert flat["seed"] == "7" and flat["t"] == "33" and flat["kind"] == "drift"
    assert {"n", "K", "noise", "test", "C", "bias", "band", "fps", "lang"} <= flat.keys()


def test_playground_hand_over_link_points_to_the_spa_page():
    at = open_page("pages/playground.py", {"t": "40", "algos": "pa,spa"})
    links = at.get("page_link")
    assert links, "a page link to the SPA step-through"
    assert "pg=" in links[0].proto.page or "pg" in str(links[0].proto)


# --- Compare ----------------------------------------------------------------------------------


def test_compare_runs_the_protocol_with_progress_and_download():
    at = open_page("pages/compare.py")
    assert not charts(at)  # nothing runs before the button
    at.multiselect(key="cmp.algos").set_value(["perceptron", "spa1"]).run()
    at.select_slider(key="cmp.max").set_value(300).run()
    at.button(key="cmp.run").click().run()
    assert_clean(at)
    table = at.table[0].value
    assert table.index.tolist() == ["Perceptron", "SPA-I"] and "key" not in table
    assert table["error %"].between(0, 100).all()
    assert len(charts(at)) == 3
    assert at.get("download_button")
    at.number_input(key="cmp.folds").set_value(4).run()
    assert_clean(at)
    assert not charts(at)  # new settings wait for the button again


def test_compare_on_a_paper_dataset_starts_from_the_reproduction_protocol():
    """USPS (real data: needs OLEARN_DATA): the settings jump to Table 4's protocol, and a
    departure from it is noted beside the paper column."""
    at = open_page("pages/compare.py")
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
    table = at.table[0].value
    columns = list(table.columns)
    note = columns[columns.index("paper %") + 1]
    assert "3 folds (paper 10)" in table[note].iloc[0]
    assert "300 samples" in table[note].iloc[0] and "2 epochs" in table[note].iloc[0]


def test_compare_upload_mode_and_bad_uploads_give_clear_errors():
    """AppTest cannot drive a file uploader: the page's upload mode is checked for its prompt,
    and the call it makes with the bytes is checked for clear ValueErrors (which the page's
    guard shows as st.error, see test_page_error_becomes_a_message_not_a_traceback)."""
    at = open_page("pages/compare.py")
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
    at = open_page("pages/reproduce.py")
    ids = at.selectbox(key="rep.id").options  # shown by their display names
    assert any("Table 4" in o for o in ids)
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
    at.switch_page(page_file("pages/reproduce.py"))
    at.query_params["id"] = "matsushima-table4"
    at.query_params["mode"] = "full"
    at.run()
    assert_clean(at)
    assert at.selectbox(key="rep.id").value == "matsushima-table4"
    assert not at.dataframe  # nothing ran
    assert any("never starts a long run" in i.value for i in at.info)


# --- the family pages -------------------------------------------------------------------------


def _cw_numbers(at):
    """The numbers table of the update the page shows (one table per update is sent)."""
    return at.table[_cw_steps(at).index(shown_step(at, "cwtable"))].value.iloc[:, 0]


def _cw_steps(at) -> list[int]:
    """The update examples (0-based) the page sent, from their headings."""
    out = []
    for m in at.markdown:
        if m.value.startswith("#### Update"):
            out.append(int(m.value.split("example ")[1].split(" ")[0]) - 1)
    return out


def _cw_heading_of(at, index: int) -> str:
    return next(
        m.value
        for m in at.markdown
        if m.value.startswith("#### Update") and f"example {index + 1} of" in m.value
    )


def test_cw_page_rule_and_parameters_change_the_update():
    at = open_page("pages/cw.py")
    first = _cw_numbers(at).astype(str).tolist()
    assert len(charts(at)) == 3  # weight space + margin, input space, the noise claim
    at.radio(key="cw.rule").set_value("scw1").run()
    at.select_slider(key="cw.C").set_value(0.01).run()
    assert_clean(at)
    capped = _cw_numbers(at)
    assert float(capped["α (mean step)"]) <= 0.01 + 1e-12
    assert capped["α capped at C"] == "yes"
    assert capped.astype(str).tolist() != first
    at.radio(key="cw.rule").set_value("cw").run()
    at.select_slider(key="cw.eta").set_value(0.9).run()
    assert_clean(at)
    row = _cw_numbers(at)
    assert abs(float(row["Pr[y w·x ≥ 0] after"]) - 0.9) < 1e-6  # CW meets eta exactly
    assert row["α capped at C"] == ""  # CW has no cap: a blank cell, not "None"
    noise0 = charts(at)[2]
    at.select_slider(key="cw.noise").set_value(0.0).run()
    assert_clean(at)
    assert charts(at)[2] != noise0


def test_cw_updates_are_sent_as_a_window_and_a_report_moves_t(monkeypatch):
    """The page sends a window of updates (text, table and both figures of each); the
    browser's report of a stop moves t (slider and URL), and one past the window sends the
    next window; Restart goes back to the first update."""
    from olearn.teaching.cw_walk import update_indices

    updates = update_indices(CwWalk.of("arow", r=1.0))
    at = open_page("pages/cw.py", {"t": "1"})
    sent = _cw_steps(at)
    assert sent == list(updates[: len(sent)]) and len(sent) >= 10
    assert shown_step(at, "cwtext") == figure_step(at, 0) == figure_step(at, 1) == updates[0]
    means = {json.dumps(charts(at)[0]["data"])}
    for k in (1, 2, 3):
        report(monkeypatch, at, updates[k], seq=k)
        assert_clean(at)
        assert at.session_state["cw.t"] == updates[k] + 1  # the slider counts as the heading
        assert at.query_params["t"] == str(updates[k] + 1)
        assert shown_step(at, "cwtext") == figure_step(at) == updates[k]
        means.add(json.dumps(charts(at)[0]["data"]))
    assert len(means) == 4  # every update moved the ellipses and the mean
    beyond = updates[len(sent)]  # the browser stepped past the window's end
    report(monkeypatch, at, beyond, seq=4)
    assert_clean(at)
    assert beyond in _cw_steps(at) and shown_step(at, "cwtext") == beyond
    at.button(key="cw.restart").click().run()
    assert at.session_state["cw.t"] == 1 and shown_step(at, "cwtext") == updates[0]


def test_cw_presentation_mode_keeps_figure_text_and_buttons(monkeypatch):
    at = open_page("pages/cw.py", {"hide": "all", "rule": "scw2", "t": "12"})
    assert not at.radio and not at.select_slider and not at.slider  # no controls
    assert not at.expander  # and no empty box where they were
    assert len(charts(at)) == 3 and at.button(key="cw.restart")
    shown = shown_step(at, "cwtext")
    assert shown >= 11 and "SCW-II" not in _cw_heading_of(at, shown)
    later = [i for i in _cw_steps(at) if i > shown]
    report(monkeypatch, at, later[0])
    assert_clean(at)
    assert at.session_state["cw.t"] == later[0] + 1


def test_cw_past_the_last_update_says_so():
    from olearn.teaching.cw_walk import update_indices
    from olearn.teaching.strings import t

    last = update_indices(CwWalk.of("scw1", eta=0.75, C=1.0))[-1]
    assert last < 78  # (this stream's SCW-I stops updating early)
    at = open_page("pages/cw.py", {"rule": "scw1", "t": str(last + 2)})
    assert [i.value for i in at.info] == [t("cw.exhausted")]
    assert not at.main.get("bidi_component")  # nothing to step through
    at = open_page("pages/cw.py", {"rule": "scw1", "t": str(last + 1)})
    assert not at.info and shown_step(at, "cwtext") == last


def test_cw_page_in_japanese():
    at = open_page("pages/cw.py", {"lang": "ja"})
    assert at.table[0].value.index.name == "量" and list(at.table[0].value.columns) == ["値"]
    assert any(m.value.startswith("#### 更新") for m in at.markdown)
    fig = json.dumps(charts(at)[0]["layout"], ensure_ascii=False)
    assert "重み空間" in fig and "密度" in fig


def _cs_player_report(monkeypatch, at, t: int) -> None:
    """Run ``at`` as the rerun after the player stopped at frame ``t``."""
    from types import SimpleNamespace

    import olearn.app.components.player as player_module

    real = player_module._component
    calls = {"n": 0}

    def fake(**kw):
        real(**kw)
        calls["n"] += 1
        return SimpleNamespace(pos={"t": t, "fps": 5} if calls["n"] == 1 else None)

    monkeypatch.setattr(player_module, "_component", fake)
    try:
        at.run()
    finally:
        monkeypatch.setattr(player_module, "_component", real)


def test_cs_svm_page_plays_in_the_browser_and_keeps_the_stop(monkeypatch):
    at = open_page("pages/cs_svm.py")
    assert "LIBLINEAR" in at.info[0].value
    fig0 = charts(at)[0]
    assert "frames" not in fig0 or not fig0["frames"]  # the player brings the frames
    assert fig0["layout"]["meta"].startswith("cs|") and fig0["data"][0]["meta"] == 0
    assert any("Sub-problem 1 of" in m for m in texts(at))
    _cs_player_report(monkeypatch, at, 6)  # the lecturer paused on the 7th frame
    assert_clean(at)
    assert at.query_params["s"] == "7"
    assert charts(at)[0]["data"][0]["meta"] == 6 and charts(at)[0]["data"] != fig0["data"]
    assert any("Sub-problem 7 of" in m for m in texts(at))  # the table's heading follows
    at.select_slider(key="cs.C").set_value(0.1).run()
    assert_clean(at)


def test_cs_svm_presentation_and_japanese(monkeypatch):
    at = open_page("pages/cs_svm.py", {"hide": "all", "lang": "ja", "s": "3"})
    assert not at.slider and not at.selectbox and not at.expander
    assert any("部分問題 3 /" in m for m in texts(at))
    fig = charts(at)[0]
    assert "特徴 1" in json.dumps(fig["layout"], ensure_ascii=False)
    assert "クラス" in at.dataframe[0].value.columns[0]
    _cs_player_report(monkeypatch, at, 3)
    assert_clean(at)
    assert any("部分問題 4 /" in m for m in texts(at))


def test_pcvm_page_iterations_and_lambda():
    at = open_page("pages/pcvm.py")
    last = charts(at)[0]
    assert charts(at)[1]["layout"]["xaxis"]["type"] == "log"  # the first iterations get room
    at.slider(key="pcvm.i").set_value(1).run()
    assert_clean(at)
    assert charts(at)[0] != last
    at.select_slider(key="pcvm.lam").set_value(0.0).run()  # gamma fixed at 1
    assert_clean(at)
    sweep = at.dataframe[0].value
    assert "γ = 1 (Chen)" in sweep["λ"].tolist()


def test_sgd_page_lambda_changes_the_curves():
    at = open_page("pages/sgd.py")
    first = charts(at)[0]
    at.select_slider(key="sgd.lam").set_value(0.01).run()
    assert_clean(at)
    assert charts(at)[0] != first
    assert set(at.dataframe[0].value["schedule"]) == {"global rate", "per-feature rates"}
    at.slider(key="sgd.epochs").set_value(1).run()
    assert_clean(at)
    ja = open_page("pages/sgd.py", {"lang": "ja"})
    assert "学習率の方式" in ja.dataframe[0].value.columns


def test_a_value_set_by_a_callback_outlives_a_stale_rerun():
    """``Controls.set`` (Regenerate's new seed) holds over the old value a browser sends
    before it has the new one, until a run of the page completes; then the user's own
    values win again.  The stale rerun is simulated: the held value is there and the browser
    sends the old seed."""
    at = open_page("pages/playground.py", {"seed": "0", "algos": "pa"})
    at.session_state["_ui.pending.play.seed"] = 4
    at.number_input(key="play.seed").set_value(0).run()
    assert_clean(at)
    assert at.number_input(key="play.seed").value == 4
    assert at.query_params["seed"] == "4"
    assert "_ui.pending.play.seed" not in at.session_state  # the run completed: let go
    at.number_input(key="play.seed").set_value(0).run()  # the user's own change
    assert at.number_input(key="play.seed").value == 0


def test_regenerate_draws_the_next_seed():
    at = open_page("pages/playground.py", {"seed": "7", "algos": "pa"})
    at.button(key="play.regenerate").click().run()
    assert_clean(at)
    assert at.number_input(key="play.seed").value == 8


def test_playground_points_placed_by_the_user():
    at = open_page("pages/playground.py", {"kind": "placed", "t": "5"})
    assert at.dataframe, "the editable table of points is shown"
    assert at.select_slider(key="play.n").disabled  # generated-data sliders are off
    assert at.button(key="play.regenerate").disabled
    planes = [c for c in charts(at) if "mistakes" in json.dumps(c["data"])][0]
    assert "/ 5 mistakes" in json.dumps(planes["data"])
    assert len(charts(at)) == 3  # the click-to-place grid, the planes, the curves
    at.button(key="play.clear").click().run()
    assert_clean(at)
    assert at.info  # "place at least two points of two classes"


def test_pcvm_animation_toggle_runs():
    at = open_page("pages/pcvm.py")
    at.slider(key="pcvm.i").set_value(3).run()
    at.toggle(key="pcvm.playing").set_value(True).run()
    assert_clean(at)
    assert at.slider(key="pcvm.i").value == 4  # one animation tick ran with the page
    n_iter = at.slider(key="pcvm.i").max
    at.slider(key="pcvm.i").set_value(13).run()  # past the first ten: log strides
    assert 14 < at.slider(key="pcvm.i").value < n_iter
    at.slider(key="pcvm.i").set_value(n_iter).run()  # the last one: back to the first
    assert at.slider(key="pcvm.i").value == 1


# --- Lesson -----------------------------------------------------------------------------------


def test_lesson_next_previous_and_every_step_renders():
    from olearn.teaching.lesson import STEPS

    at = open_page("pages/lesson.py")
    for i in range(1, len(STEPS) + 1):
        assert at.selectbox(key="lesson.step").value == i
        assert at.query_params["step"] == str(i)
        assert charts(at), f"step {i} drew nothing"
        assert texts(at)[0] == f"### {STEPS[i - 1].title('en')}"
        if i < len(STEPS):
            at.button(key="lesson.next").click().run()
            assert_clean(at)
    assert at.button(key="lesson.next").disabled
    at.button(key="lesson.prev").click().run()
    assert at.selectbox(key="lesson.step").value == len(STEPS) - 1


def test_lesson_step_from_the_url_and_hidden_picker():
    at = open_page("pages/lesson.py", {"step": "5", "hide": "all", "lang": "ja"})
    assert not at.selectbox
    assert texts(at)[0] == "### SPA-I, SPA-II と C"
    links = [m.value for m in at.markdown if "href=" in m.value]
    assert links and "/spa?" in links[0] and "rule=SPA-I" in links[0]


def test_compare_link_starts_only_a_short_run():
    """``run=1`` in a shared link runs a short comparison at once (the lesson's), but a long
    one (a paper dataset under the full protocol) waits for the button (issue 12)."""
    short = open_page(
        "pages/compare.py",
        {"data": "digits", "algos": "perceptron,pa1", "max": "300", "folds": "2", "run": "1"},
    )
    assert short.table  # ran from the link
    long = open_page("pages/compare.py", {"data": "usps", "run": "1"})
    assert not long.table  # waits: the paper's protocol on USPS takes minutes
    from olearn.teaching.strings import t

    assert any(i.value == t("cmp.press_run") for i in long.info)
