"""The CW, Crammer-Singer, PCVM and SGD pages on a 1280x720 projector, in presentation mode
(``?hide=all``), in Debian's chromium driven by Playwright.

- CW and CS-SVM: the main figure, the current step's text and the step buttons lie inside the
  viewport with no scrolling (bounding boxes);
- CW: Next update advances the example, the figure and the URL;
- CS-SVM: ▶ Play animates the figure (its title changes from frame to frame) while the browser
  sends the server nothing (no rerun per frame);
- screenshots ``results/screenshots/present-{cw,cs_svm,pcvm,sgd}.png``.

No timed asserts: every wait is for a condition.  Marked ``browser``.
"""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest
from playwright.sync_api import expect

from tests.browser_support import SHOTS, assert_no_error, settle

pytestmark = pytest.mark.browser

W, H = 1280, 720


@pytest.fixture(scope="module")
def projector(page):
    page.set_viewport_size({"width": W, "height": H})
    SHOTS.mkdir(parents=True, exist_ok=True)
    return page


def present(pg, server: str, path: str) -> None:
    """Open ``path`` in presentation mode; close the sidebar if the frame still shows it."""
    pg.goto(f"{server}/{path}")
    pg.locator(".js-plotly-plot").first.wait_for()
    settle(pg)
    sidebar = pg.locator("[data-testid='stSidebar']")
    box = sidebar.bounding_box() if sidebar.count() else None
    if box and box["width"] > 50 and box["x"] >= 0:
        sidebar.hover()
        pg.locator("[data-testid='stSidebarCollapseButton'] button").click()
        pg.wait_for_function(
            "() => { const s = document.querySelector('[data-testid=stSidebar]');"
            " return !s || s.getBoundingClientRect().right <= 1; }"
        )
        settle(pg, min_wait=0.5)
    assert_no_error(pg)
    assert pg.evaluate("window.scrollY") == 0


def inside(locator, what: str) -> None:
    box = locator.bounding_box()
    assert box is not None, f"{what} is not rendered"
    assert box["x"] >= 0 and box["y"] >= 0, (what, box)
    assert box["x"] + box["width"] <= W + 0.5, (what, box)
    assert box["y"] + box["height"] <= H + 0.5, (what, box)


def heading(pg, start: str):
    """The shown step's heading (a page stepped in the browser renders every step's, hidden)."""
    return (
        pg.locator("[data-testid='stMain'] h4:visible")
        .filter(has_text=re.compile(f"^{start}"))
        .first
    )


def test_cw_presentation_fits_and_next_advances(server, projector):
    pg = projector
    present(pg, server, "cw?hide=all&rule=arow&t=6&lang=en")
    title = heading(pg, "Update")
    inside(pg.locator(".js-plotly-plot").first, "the CW figure")
    inside(title, "the step's title")
    step_text = pg.locator("[data-testid='stMarkdown']:visible").filter(has_text="Margin m").first
    inside(step_text, "the step's explanation")
    next_button = pg.get_by_role("button", name=re.compile("Next update"))
    inside(next_button, "the Next update button")
    pg.screenshot(path=str(SHOTS / "present-cw.png"))

    def example() -> int:
        return int(re.search(r"example (\d+) of", title.inner_text()).group(1))

    first, figure = example(), pg.locator(".js-plotly-plot").first.inner_html()
    sent: list = []
    pg.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    next_button.click()
    pg.wait_for_function(
        "n => [...document.querySelectorAll('[data-testid=stMain] h4')].some(e => {"
        " const m = e.offsetParent !== null && e.innerText.match(/example (\\d+) of/);"
        " return m && +m[1] > n; })",
        arg=first,
    )
    assert not sent, "Next update must not wait for the server"
    assert example() > first
    assert pg.locator(".js-plotly-plot").first.inner_html() != figure  # the ellipses moved
    shown = example()
    pg.wait_for_function(  # after the stop, the browser reports and the URL follows
        "n => new URL(location.href).searchParams.get('t') === String(n)", arg=shown
    )
    settle(pg, min_wait=0.3)
    assert example() == shown  # the server's rerun drew the same update


def test_cs_svm_presentation_fits_and_plays_in_the_browser(server, projector):
    """The figure, the player and the sub-problem's text fit 1280x720; Play moves the figure
    and the text together with no server round trip; Pause writes the sub-problem to the
    URL."""
    pg = projector
    sent: list = []
    pg.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    present(pg, server, "cs_svm?hide=all&lang=en")
    note = pg.locator(".olp .note")
    note.filter(has_text="Sub-problem 1:").wait_for()
    inside(pg.locator(".js-plotly-plot").first, "the Crammer-Singer figure")
    inside(note, "the step's explanation")
    play = pg.locator(".olp .play")
    inside(play, "the Play button")
    pg.screenshot(path=str(SHOTS / "present-cs_svm.png"))

    figure = pg.locator(".js-plotly-plot").first.inner_html()
    before = len(sent)
    play.click()
    for _ in range(3):  # three new frames, each waited for (no clock in the assert)
        expect(note).not_to_have_text(note.inner_text(), timeout=30_000)
    assert len(sent) == before, "Play must not ask the server for a rerun"
    assert pg.locator(".js-plotly-plot").first.inner_html() != figure  # the regions moved
    play.click()  # Pause: the player reports the frame, the URL keeps it
    pg.wait_for_function("() => /[?&]s=([2-9]|\\d\\d+)&/.test(location.search)")
    shown = int(re.search(r"Sub-problem (\d+):", note.inner_text()).group(1))
    assert f"s={shown}&" in pg.url  # the frame on screen is the one in the URL
    assert len(sent) > before


@pytest.mark.parametrize("name", ["pcvm", "sgd"])
def test_pcvm_and_sgd_presentation_screens(server, projector, name):
    pg = projector
    present(pg, server, f"{name}?hide=all&lang=en")
    inside(pg.locator(".js-plotly-plot").first, f"the {name} figure")
    pg.screenshot(path=str(SHOTS / f"present-{name}.png"))


@pytest.mark.parametrize(
    "name,query",
    [
        ("compare", "data=digits&run=1&max=300&folds=2&epochs=1"),
        ("reproduce", "id=ono-sgd-figure1&mode=quick"),
    ],
)
def test_data_pages_presentation_screens(server, projector, name, query):
    """The real-data pages in presentation mode at 1280x720, after a (small) run: no error,
    the page's first figure drawn; the screenshot is the note's record."""
    pg = projector
    present(pg, server, f"{name}?present=1&lang=en&{query}")
    assert pg.locator(".js-plotly-plot").count() >= 1
    pg.screenshot(path=str(SHOTS / f"present-{name}.png"))


def test_a_link_opens_the_spa_page_at_its_step_and_the_arrow_keys_step(server, projector):
    """A lecturer's link ``?step=N`` opens the SPA walkthrough at sub-step N (its title, as
    the server's walk has it); → and ← step in the browser (no server round trip per key)
    and, once the lecturer stops, the URL holds the step on screen, so the address bar is
    again a link to it."""
    from olearn.teaching.settings import SpaScenario
    from olearn.teaching.spa_walk import narrate, spa_solve

    scenario = SpaScenario("three-rivals")
    solved = spa_solve(scenario.instance(), scenario.variant, scenario.C)
    titles = [s.title for s in narrate(solved, "en").steps]
    pg = projector
    pg.goto(f"{server}/spa?lang=en&scenario=three-rivals&step=4")
    pg.locator(".ols .next").wait_for(timeout=120_000)
    settle(pg)
    shown = pg.locator("[data-testid='stMain'] h4:visible").first
    expect(shown).to_have_text(titles[4])
    sent: list = []
    pg.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    for key, at in (("ArrowRight", 5), ("ArrowRight", 6), ("ArrowLeft", 5)):
        pg.keyboard.press(key)
        expect(shown).to_have_text(titles[at])
    assert not sent, "a key must not wait for the server"
    pg.wait_for_function("() => new URL(location.href).searchParams.get('step') === '5'")
    settle(pg, min_wait=0.3)
    expect(shown).to_have_text(titles[5])  # the rerun drew the same step


def test_the_players_keys_work_from_the_page(server, projector):
    """Space plays and pauses, → and ← step the frame player with the focus on the page (the
    component lives in a shadow root: its handler must see its root as on the page)."""
    from tests.player_support import player_js, player_state

    pg = projector
    pg.goto(f"{server}/cs_svm?hide=all&lang=en&kind=blobs&n=40&K=3")
    pg.wait_for_function(player_js("d.ready === 'true'"), timeout=120_000)
    t0 = int(player_state(pg)["t"])
    pg.keyboard.press("ArrowRight")
    pg.wait_for_function(player_js("+d.t === arg"), arg=t0 + 1)
    pg.keyboard.press("ArrowLeft")
    pg.wait_for_function(player_js("+d.t === arg"), arg=t0)
    pg.keyboard.press(" ")
    pg.wait_for_function(player_js("d.playing === 'true' && +d.t > arg"), arg=t0)
    pg.keyboard.press(" ")
    pg.wait_for_function(player_js("d.playing === 'false'"))


def hold_replies(pg) -> dict:
    """Route the page's websocket through Playwright so a test can hold the messages of one
    direction (``hold["page"] = True``: the server's; ``hold["server"] = True``: the
    browser's) and let them through later, in order (:func:`release`): a busy server or a
    slow network, made deterministic.  Call before ``goto``."""
    hold = {"page": False, "server": False, "held": {"page": [], "server": []}, "ws": {}}
    hold["lose"] = None  # bytes: the browser's next message holding them is lost
    hold["on_page"] = None  # called with each message to the page before it goes on

    def route(ws):
        server = ws.connect_to_server()
        hold["ws"] = {"page": ws, "server": server}

        def forward(to):
            def send(message):
                lose = hold["lose"]
                if to == "server" and lose and isinstance(message, bytes) and lose in message:
                    hold["lose"] = None
                    return
                if hold[to]:
                    hold["held"][to].append(message)
                else:
                    hold["ws"][to].send(message)

            return send

        def to_page(message):
            if hold["on_page"]:
                hold["on_page"](message)
            forward("page")(message)

        ws.on_message(forward("server"))
        server.on_message(to_page)

    pg.route_web_socket("**/_stcore/stream", route)
    return hold


def release(hold: dict, to: str = "page") -> None:
    """Let the held messages to ``to`` through, in order, and stop holding them."""
    hold[to] = False
    for message in hold["held"][to]:
        hold["ws"][to].send(message)
    hold["held"][to].clear()


@contextmanager
def held_page(page, url: str, ready):
    """A new 1400x2000 page whose websocket runs through :func:`hold_replies`, at ``url``
    once ``ready(pg)`` and settled: ``(pg, hold)``; closed afterwards."""
    context = page.context.browser.new_context(viewport={"width": 1400, "height": 2000})
    try:
        pg = context.new_page()
        hold = hold_replies(pg)
        pg.goto(url)
        ready(pg)
        settle(pg)
        yield pg, hold
    finally:
        context.close()


def stepper_ready(pg) -> None:
    pg.locator(".ols .next").wait_for(timeout=120_000)


STEPPER_ID = (
    "() => { for (const h of document.querySelectorAll('[data-testid=stMain] *')) {"
    " const r = h.shadowRoot && h.shadowRoot.querySelector('.ols'); if (r) return r.dataset.id; }"
    " return null; }"
)


def test_the_stepper_keeps_a_step_taken_while_the_server_answers_an_older_one(server, page):
    """The browser reports a step 350 ms after the lecturer stops; the server's rerun for it
    can arrive after the lecturer has moved on.  That rerun says "current = the reported
    step"; the stepper must not jump back to it (the page took our report: its ``ack``
    tells the stepper the browser leads), and the URL ends at the step on screen."""
    url = f"{server}/spa?lang=en&scenario=three-rivals&step=0"
    with held_page(page, url, stepper_ready) as (pg, hold):
        hold["page"] = True  # the server's answers wait (a busy server)
        pg.keyboard.press("ArrowRight")  # step 1; its report leaves 350 ms later
        pg.wait_for_timeout(700)
        pg.keyboard.press("ArrowRight")  # step 2, before the answer to the report of 1
        assert pg.evaluate(STEPPER_ID) == "2"
        release(hold)  # the rerun of the report of step 1 arrives
        pg.wait_for_timeout(250)  # (before the report of step 2 leaves)
        assert pg.evaluate(STEPPER_ID) == "2", "the stepper went back to the older step"
        pg.wait_for_function("() => new URL(location.href).searchParams.get('step') === '2'")
        settle(pg, min_wait=0.3)
        assert pg.evaluate(STEPPER_ID) == "2"
        assert_no_error(pg)


def _rerun(message) -> bool:
    """Whether a message the browser sent asks the server for a run (not a heartbeat)."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    return isinstance(message, bytes) and BackMsg.FromString(message).HasField("rerun_script")


def held_reruns(pg, hold: dict, n: int) -> list:
    """The ``n`` messages asking for a run that the browser sent (held), once all are in."""
    for _ in range(200):  # (Playwright routes messages only while one of its calls runs)
        held = [m for m in hold["held"]["server"] if _rerun(m)]
        if len(held) >= n:
            return held
        pg.wait_for_timeout(50)
    raise AssertionError(f"{len(held)} run requests held, expected {n}")


def deliver_during_run(hold: dict, first: list, then: list) -> None:
    """Send the held messages ``first`` to the server, and ``then`` as soon as the run they
    start draws (its first delta after its ``new_session`` reaches the page, so its callbacks
    ran; a delta before it may still be the previous run's): messages that interrupt a run in
    progress.  Nothing is held afterwards."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    started = []

    def on_page(message) -> None:
        if not isinstance(message, bytes):
            return
        forward = ForwardMsg.FromString(message)
        if forward.HasField("new_session"):  # the run began (its callbacks come next)
            started.append(True)
        elif started and forward.HasField("delta"):
            hold["on_page"] = None
            for m in then:
                hold["ws"]["server"].send(m)

    hold["server"] = False
    hold["held"]["server"].clear()
    hold["on_page"] = on_page
    for m in first:
        hold["ws"]["server"].send(m)


def test_a_value_a_callback_set_survives_the_rerun_that_interrupts_its_run(server, page):
    """Regenerate sets the Playground's seed in a callback (:meth:`Controls.set`).  A second
    interaction right after it (here the margin band switched off) sends the seed the
    browser still shows (0); reaching the server while Regenerate's run is going, it stops
    that run and Streamlit starts one with the browser's widget values, where the old seed
    would win.  Made deterministic: the second message reaches the server once Regenerate's
    run has drawn.  Both changes must hold: seed 1 and no band (without the held value the
    seed stays 0)."""
    from tests.player_support import player_js, player_ready, player_state

    url = f"{server}/playground?algos=perceptron,pa&n=200&t=0&seed=0&band=True"
    with held_page(page, url, player_ready) as (pg, hold):
        sig = player_state(pg)["sig"]
        hold["server"] = True
        pg.locator(".st-key-play-regenerate button").click()
        pg.locator(".st-key-play-band label").click()
        held = held_reruns(pg, hold, 2)
        deliver_during_run(hold, held[:1], held[1:])
        pg.wait_for_function(player_js("d.sig !== arg"), arg=sig, timeout=60_000)
        player_ready(pg)
        settle(pg, min_wait=1.0)
        params = pg.evaluate("() => Object.fromEntries(new URL(location.href).searchParams)")
        assert (params["seed"], params["band"]) == ("1", "False"), params
        assert pg.get_by_label("Seed", exact=True).input_value() == "1"
        assert_no_error(pg)


# Pause, then at once a press on Regenerate (one task in the page, so the press always comes
# within the 200 ms before the player's report is due)
PAUSE_THEN_REGENERATE = (
    "() => { for (const h of document.querySelectorAll('[data-testid=stMain] *')) {"
    " const r = h.shadowRoot && h.shadowRoot.querySelector('.olp');"
    " if (r) { r.querySelector('button.play').click(); break; } }"
    " const b = document.querySelector('.st-key-play-regenerate button');"
    " b.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, composed: true }));"
    " b.click(); }"
)


def test_a_report_waits_for_the_run_a_press_elsewhere_asked_for(server, page):
    """Regenerate clicked just after Pause: the player's report, due 200 ms after the
    Pause, must not reach the server while Regenerate's run starts, or Streamlit 1.67 drops
    the click (a request arriving before a run's callbacks replaces the one the run took:
    the seed stayed 0 and the data old, in 5 of 10 runs with both messages delivered back to
    back).  The player holds its report until Regenerate's run has mounted it again, then
    sends it: the server receives the click alone (held here, to look), then the report."""
    from tests.player_support import player_js, player_ready, player_state

    url = f"{server}/playground?algos=perceptron,pa&n=200&t=0&seed=0"
    with held_page(page, url, player_ready) as (pg, hold):
        pg.locator(".olp button.play").click()
        pg.wait_for_function(player_js("+d.t >= 30"))
        before = player_state(pg)
        hold["server"] = True
        pg.evaluate(PAUSE_THEN_REGENERATE)
        for _ in range(200):  # until the report is due: waiting, or gone (held here)
            state = player_state(pg)
            reports = [m for m in hold["held"]["server"] if _rerun(m) and b'"fps"' in m]
            if state.get("owed") == "true" or reports:
                break
            pg.wait_for_timeout(50)
        assert not reports, "the report left while Regenerate's run was still to start"
        assert state["owed"] == "true" and state["sends"] == before["sends"], state
        assert len(held_reruns(pg, hold, 1)) == 1  # the click's alone
        release(hold, "server")
        pg.wait_for_function(player_js("d.sig !== arg"), arg=before["sig"], timeout=60_000)
        pg.wait_for_function(player_js("+d.sends > arg"), arg=int(before["sends"]))
        player_ready(pg)
        settle(pg, min_wait=1.0)
        params = pg.evaluate("() => Object.fromEntries(new URL(location.href).searchParams)")
        assert params["seed"] == "1", params
        assert params["t"] == player_state(pg)["t"], params  # the report arrived
        assert pg.get_by_label("Seed", exact=True).input_value() == "1"
        assert_no_error(pg)


def test_a_lost_report_of_the_stepper_is_sent_again_until_the_url_shows_the_step(server, page):
    """The stepper's report after a stop is lost on its way (as a busy server once lost the
    player's): the browser sees the URL not showing its step and sends it again, so the
    address bar ends as a link to the step on screen (without the resend it keeps the
    older step)."""
    with held_page(page, f"{server}/cw?lang=en&rule=arow&t=1", stepper_ready) as (pg, hold):
        hold["lose"] = b'"seq"'  # the next report
        pg.keyboard.press("ArrowRight")
        shown = int(pg.evaluate(STEPPER_ID))
        pg.wait_for_function(
            "t => new URL(location.href).searchParams.get('t') === t", arg=str(shown + 1)
        )
        assert hold["lose"] is None  # a report was lost
        settle(pg, min_wait=0.3)
        assert pg.evaluate(STEPPER_ID) == str(shown)
        assert_no_error(pg)
