"""Predict, then reveal, in chromium (issue 31, item 5): on the SPA step-through, the CW step
and the Playground, with ``?predict=1`` the answer and what comes after it are hidden until
the lecturer reveals them (Next, →, PageDown), then shown; the state (``reveal=``, with the
step) is in the URL, and the URL opens the same screen in a fresh browser.  The answers shown
are checked against the update computed here, independently of the page.  Marked ``browser``.
"""

from __future__ import annotations

import pytest

from olearn.teaching.strings import t
from tests.browser_support import assert_no_error, settle
from tests.player_support import player_js, player_state

pytestmark = pytest.mark.browser

STEPPER = (
    "() => { for (const h of document.querySelectorAll('[data-testid=stMain] *')) {"
    " const r = h.shadowRoot && h.shadowRoot.querySelector('.ols');"
    " if (r) return { id: r.dataset.id, revealed: r.dataset.revealed,"
    " next: r.querySelector('.next').textContent }; } return null; }"
)


@pytest.fixture
def fresh(page):
    """A new browser context (no session, no storage) per test; 1280x900."""
    contexts = []

    def make():
        context = page.context.browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(context)
        pg = context.new_page()
        pg.set_default_timeout(120_000)
        return pg

    yield make
    for context in contexts:
        context.close()


def params(pg) -> dict:
    return pg.evaluate("() => Object.fromEntries(new URL(location.href).searchParams)")


def wait_params(pg, **want) -> None:
    pg.wait_for_function(
        "(w) => Object.entries(w).every(([k, v]) =>"
        " new URL(location.href).searchParams.get(k) === v)",
        arg={k: str(v) for k, v in want.items()},
    )


def visible_answers(pg, prefix: str) -> list[str]:
    found = pg.locator(f"[class*='st-key-{prefix}-']")
    return [found.nth(i).inner_text() for i in range(found.count()) if found.nth(i).is_visible()]


def test_spa_hides_the_support_set_until_revealed(server, fresh):
    from olearn.teaching.settings import SpaScenario
    from olearn.teaching.spa_walk import narrate, spa_solve

    scenario = SpaScenario("three-rivals")
    solved = spa_solve(scenario.instance(), scenario.variant, scenario.C)
    titles = [s.title for s in narrate(solved, "en").steps]
    support = sorted(int(u) for u in solved.spa.support)  # (1, 3): computed here
    pg = fresh()
    pg.goto(f"{server}/spa?scenario=three-rivals&rule=SPA&predict=1&step=3&lang=en")
    pg.locator(".ols .next").wait_for()
    settle(pg)
    main = pg.locator("[data-testid=stMain]")
    assert pg.evaluate(STEPPER)["next"] == t("predict.reveal", "en")
    assert "Predict" in main.inner_text() and not visible_answers(pg, "spaans")
    assert not main.get_by_text(titles[4]).first.is_visible()  # what comes after: hidden
    pg.keyboard.press("PageDown")  # reveal, no step
    pg.wait_for_function(f"() => ({STEPPER})().revealed === 'true'")
    (answer,) = visible_answers(pg, "spaans")
    assert f"S = {{{', '.join(map(str, support))}}}" in answer
    assert pg.evaluate(STEPPER)["id"] == "3"
    wait_params(pg, step=3, reveal=1, predict="True")
    link = pg.evaluate("() => location.href")
    pg.keyboard.press("PageDown")  # now on
    pg.wait_for_function(f"() => ({STEPPER})().id === '4'")
    assert main.locator("h4:visible").first.inner_text() == titles[4]
    other = fresh()  # the link to the revealed answer opens it revealed
    other.goto(link)
    other.locator(".ols .next").wait_for()
    settle(other)
    assert [a for a in visible_answers(other, "spaans") if "S = {" in a]
    assert other.evaluate(STEPPER)["revealed"] == "true"
    assert_no_error(other)


def test_cw_hides_the_state_after_the_update_until_revealed(server, fresh):
    import numpy as np

    from olearn.teaching.cw_walk import cw_update, update_indices
    from olearn.teaching.settings import default_cw
    from olearn.teaching.strings import num

    setting = default_cw("arow")
    pg = fresh()
    pg.goto(f"{server}/cw?rule=arow&predict=1&t=1&lang=en")
    pg.locator(".ols .next").wait_for()
    settle(pg)
    first = int(pg.evaluate(STEPPER)["id"])
    assert first == update_indices(setting)[0]
    traces = "() => document.querySelector('.st-key-cw-fig .js-plotly-plot').data.length"
    before = pg.evaluate(traces)
    assert not visible_answers(pg, "cwans") and not visible_answers(pg, "cwtable")
    assert pg.evaluate(STEPPER)["next"] == t("predict.reveal", "en")
    pg.keyboard.press("ArrowRight")
    pg.wait_for_function(f"() => ({STEPPER})().revealed === 'true'")
    pg.wait_for_function(f"(n) => ({traces})() > n", arg=before)  # the ellipse after, drawn
    (answer,) = visible_answers(pg, "cwans")
    walk = cw_update(setting, first)
    x, tr = np.asarray(walk.x), walk.trace
    v_after = float(x @ np.asarray(tr.Sigma_after) @ x) / float(x @ x)  # (computed here)
    assert f"→ {num(v_after, 3)}" in answer
    wait_params(pg, t=first + 1, reveal=1)
    link = pg.evaluate("() => location.href")
    other = fresh()
    other.goto(link)
    other.locator(".ols .next").wait_for()
    settle(other)
    assert other.evaluate(traces) == pg.evaluate(traces)  # revealed from the link
    assert visible_answers(other, "cwans")
    assert_no_error(other)


def test_playground_hides_the_next_examples_outcome_and_the_curves_after_t(server, fresh):
    import dataclasses

    from olearn.teaching.settings import default_playground

    # the page's setting (its defaults, two learners), run here
    run = dataclasses.replace(default_playground(), keys=("perceptron", "pa")).stream()
    pg = fresh()
    pg.goto(f"{server}/playground?algos=perceptron,pa&predict=1&t=5&lang=en")
    pg.wait_for_function(player_js("d.ready === 'true'"))
    settle(pg)
    note = pg.locator(".olp .note")
    curtain = (
        "() => { const gd = document.querySelector('.st-key-play-curves .js-plotly-plot');"
        " const s = (gd.layout.shapes || []).find((x) => x.name === 'olearn-curtain');"
        " return s ? s.x0 : null; }"
    )
    assert "Predict" in note.inner_text() and "predicted" not in note.inner_text()
    assert pg.evaluate(curtain) == 5.5  # the curves after t = 5 hidden
    assert pg.locator(".olp button.play").is_disabled()
    pg.keyboard.press("PageDown")  # reveal example 6
    pg.wait_for_function(player_js("d.t === '6' && d.revealed === 'true'"))
    text = note.inner_text()
    for k, name in zip(run.keys, run.names):
        p, c = int(run.predicted[k][5]), int(run.y[5])
        assert f"{name} predicted {p}: {'right' if p == c else 'wrong'}" in text
    pg.wait_for_function(f"() => ({curtain})() === 6.5")
    wait_params(pg, t=6, reveal=1)
    link = pg.evaluate("() => location.href")
    pg.keyboard.press("PageDown")  # the next question: the frame stays
    pg.wait_for_function(player_js("d.t === '6' && d.revealed === 'false'"))
    assert "predicted" not in note.inner_text()
    wait_params(pg, t=6, reveal=0)
    other = fresh()
    other.goto(link)
    other.wait_for_function(player_js("d.ready === 'true'"))
    settle(other)
    assert player_state(other)["revealed"] == "true"
    assert "predicted" in other.locator(".olp .note").inner_text()
    assert_no_error(other)
