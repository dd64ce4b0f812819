"""The keys a lecturer steps with, on every page that has a step (issue 31, item 4): PageDown /
PageUp (what presentation clickers send), the arrows and space move the lesson, the SPA and CW
steppers, the Playground's and the Crammer-Singer page's players and PCVM's iterations; a key
typed into a field is the field's (a number being typed never steps); projector mode shows the
keys.  Headless chromium (Debian's), driven by Playwright.  Marked ``browser``.
"""

from __future__ import annotations

import pytest

from olearn.teaching.strings import t
from tests.browser_support import assert_no_error, settle
from tests.player_support import player_js, player_state

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def tab(page):
    context = page.context.browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(120_000)
    yield pg
    context.close()


def wait_param(pg, name: str, value: str) -> None:
    pg.wait_for_function(
        "([n, v]) => new URL(location.href).searchParams.get(n) === v", arg=[name, value]
    )


STEPPER_ID = (
    "() => { for (const h of document.querySelectorAll('[data-testid=stMain] *')) {"
    " const r = h.shadowRoot && h.shadowRoot.querySelector('.ols'); if (r) return r.dataset.id; }"
    " return null; }"
)


def stepper_at(pg, step_id: int) -> None:
    pg.wait_for_function(f"(arg) => ({STEPPER_ID})() === arg", arg=str(step_id))


def focus_field(pg, label: str) -> None:
    """Click into the page's number field ``label`` (the keys then go to it)."""
    field = pg.get_by_label(label, exact=True).first
    field.click()
    assert pg.evaluate("() => document.activeElement.tagName") == "INPUT"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_lesson_steps_with_the_clickers_keys(server, tab, lang):
    pg = tab
    pg.goto(f"{server}/lesson?step=1&present=1&lang={lang}")
    pg.locator(".js-plotly-plot").first.wait_for()
    settle(pg)
    main = pg.locator("[data-testid=stMain]")
    assert t("keys.step", lang) in main.inner_text()  # projector mode shows the keys
    for key, step in (("PageDown", 2), ("ArrowRight", 3), ("PageUp", 2), ("ArrowLeft", 1)):
        pg.keyboard.press(key)
        wait_param(pg, "step", str(step))
        settle(pg, min_wait=0.3)
    pg.keyboard.press(" ")
    wait_param(pg, "step", "2")
    settle(pg, min_wait=0.3)
    assert_no_error(pg)


def test_the_spa_stepper_steps_with_page_down_up_and_space(server, tab):
    pg = tab
    pg.goto(f"{server}/spa?scenario=three-rivals&rule=SPA&step=0&present=1&lang=en")
    pg.locator(".ols .next").wait_for()
    settle(pg)
    assert pg.locator(".ols .keys").inner_text() == t("keys.step", "en")
    for key, step in (("PageDown", 1), (" ", 2), ("ArrowRight", 3), ("PageUp", 2)):
        pg.keyboard.press(key)
        stepper_at(pg, step)
    wait_param(pg, "step", "2")  # the stop is reported; the URL holds the step on screen


def test_the_cw_stepper_steps_and_a_number_being_typed_does_not(server, tab):
    """PageDown steps; with the seed field focused, PageDown, the arrows and space are the
    field's (nothing steps, the focus stays)."""
    pg = tab
    pg.goto(f"{server}/cw?rule=arow&t=1&lang=en")
    pg.locator(".ols .next").wait_for()
    settle(pg)
    first = int(pg.evaluate(STEPPER_ID))
    pg.keyboard.press("PageDown")
    pg.wait_for_function(f"(arg) => +({STEPPER_ID})() > arg", arg=first)
    shown = pg.evaluate(STEPPER_ID)
    wait_param(pg, "t", str(int(shown) + 1))
    settle(pg, min_wait=0.5)
    focus_field(pg, t("ui.seed", "en"))
    for key in ("PageDown", "ArrowRight", " ", "PageUp"):
        pg.keyboard.press(key)
    pg.wait_for_timeout(800)  # (a step would show at once: it needs no server)
    assert pg.evaluate(STEPPER_ID) == shown
    assert pg.evaluate("() => document.activeElement.tagName") == "INPUT"
    assert_no_error(pg)


def test_the_playground_player_keys_and_a_field_keeps_its_keys(server, tab):
    pg = tab
    pg.goto(f"{server}/playground?algos=perceptron,pa&n=100&t=10&present=1&lang=ja")
    pg.wait_for_function(player_js("d.ready === 'true'"))
    settle(pg)
    assert pg.locator(".olp .keys").inner_text() == t("keys.player", "ja")
    pg.keyboard.press("PageDown")
    pg.wait_for_function(player_js("d.t === '11'"))
    pg.keyboard.press("PageUp")
    pg.keyboard.press("PageUp")
    pg.wait_for_function(player_js("d.t === '9'"))
    wait_param(pg, "t", "9")
    settle(pg, min_wait=0.5)
    pg.goto(f"{server}/playground?algos=perceptron,pa&n=100&t=10&lang=en")  # the seed shown
    pg.wait_for_function(player_js("d.ready === 'true'"))
    settle(pg)
    focus_field(pg, t("ui.seed", "en"))
    for key in ("PageDown", " ", "ArrowLeft"):
        pg.keyboard.press(key)
    pg.wait_for_timeout(800)
    state = player_state(pg)
    assert state["t"] == "10" and state["playing"] == "false", state


def test_the_cs_svm_player_steps_with_page_down_up(server, tab):
    pg = tab
    pg.goto(f"{server}/cs_svm?kind=blobs&n=40&K=3&present=1&lang=en")
    pg.wait_for_function(player_js("d.ready === 'true'"))
    t0 = int(player_state(pg)["t"])
    pg.keyboard.press("PageDown")
    pg.wait_for_function(player_js("+d.t === arg"), arg=t0 + 1)
    pg.keyboard.press("PageUp")
    pg.wait_for_function(player_js("+d.t === arg"), arg=t0)


def test_pcvm_steps_its_iterations_with_the_keys(server, tab):
    """PCVM's iteration: PageDown forward along the play order, PageUp back (its ◀ / ▶
    buttons, pressed by the keys); typed into the seed field, PageDown is the field's."""
    pg = tab
    pg.goto(f"{server}/pcvm?i=1&lang=en")
    pg.locator(".js-plotly-plot").first.wait_for()
    settle(pg)
    slider = pg.locator(".st-key-pcvm-i input[type=range]")

    def at(i: int) -> None:
        pg.wait_for_function(
            "i => document.querySelector('.st-key-pcvm-i input[type=range]').value === String(i)",
            arg=i,
        )
        settle(pg, min_wait=0.3)

    at(1)
    for key, i in (("PageDown", 2), ("ArrowRight", 3), ("PageUp", 2)):
        pg.keyboard.press(key)
        at(i)
    focus_field(pg, t("ui.seed", "en"))
    pg.keyboard.press("PageDown")
    pg.wait_for_timeout(1500)  # (a press would rerun the iteration's part: 3)
    settle(pg, min_wait=0.5)
    assert slider.input_value() == "2"
    assert_no_error(pg)
