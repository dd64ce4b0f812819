"""Every frame player's time slider stepped with the arrow keys (a lecturer stepping through
frames): the frame shown, the slider, and the URL the server writes agree within 2 s of the
last press, in every trial.

Issue 22, item 10: with three quick presses the URL kept an older ``t`` (frame 23 shown,
``t=20`` in the address bar) and with presses 1 s apart the last one was lost: a report the
player sends can be dropped on its way to the server.  The trials run in one page load per
player, quick (50 ms apart) and spaced (1 s apart) presses, both directions, the first right
after load.  Marked ``browser``.
"""

from __future__ import annotations

import time

import pytest

from olearn.app.player import PLAYER
from tests.browser_support import assert_no_error

pytestmark = pytest.mark.browser

# which frame the URL's parameter names: the Playground writes t itself, the CS-SVM page the
# sub-problem number of the frame (its player's config carries that table)
AGREE_JS = (
    "name => { const P = " + PLAYER + "; if (!P) return false;"
    " const s = P.root.querySelector('.slider');"
    " const want = P.cfg.url && P.cfg.url.values ? P.cfg.url.values[P.t] : P.t;"
    " return !P.playing && +s.value === P.t"
    " && P.root.querySelector('.tval').textContent.startsWith('t = ' + P.t + ' /')"
    " && new URL(location.href).searchParams.get(name) === String(want); }"
)

# the player drew its frame on its charts (the CS-SVM page has one chart, the Playground 2-3)
READY = (
    "() => { const P = " + PLAYER + "; if (!P) return false;"
    " const gds = [...document.querySelectorAll('.js-plotly-plot')]"
    ".filter(g => g.layout && g.layout.meta === P.sig);"
    " return gds.length >= 1 && gds.every(g => g.__olpShown !== undefined"
    " || (g.data[0] && g.data[0].meta === P.t)); }"
)

# the player's next report to the server is lost on its way (as the issue saw it happen when
# the server is busy; here on purpose, so that every run of the test meets one)
LOSE_NEXT_REPORT = (
    "() => { const P = " + PLAYER + "; const send = P.report;"
    " P.report = (...a) => { P.report = send; }; }"
)

# (quick?, key, lose the last report?): 10 trials per player, quick and spaced, both ways
TRIALS = [(i % 2 == 0, "ArrowRight" if i % 4 < 2 else "ArrowLeft", i % 3 == 2) for i in range(10)]


def step_trials(pg, name: str) -> list[str]:
    """Run :data:`TRIALS` on the focused slider; the failures, described."""
    failures = []
    for i, (quick, key, lose) in enumerate(TRIALS):
        pg.locator(".olp .slider").focus()
        for press in range(3):
            if lose and press == 2:
                pg.evaluate(LOSE_NEXT_REPORT)
            pg.keyboard.press(key)
            time.sleep(0.05 if quick else 1.0)
        try:
            pg.wait_for_function(AGREE_JS, arg=name, timeout=2_000)
        except Exception:  # noqa: BLE001 - recorded, reported together below
            state = pg.evaluate(
                "name => { const P = " + PLAYER + "; return [P.t, "
                "new URL(location.href).searchParams.get(name), P.sends, P.resends]; }",
                name,
            )
            how = f"{'quick' if quick else 'spaced'} {key}{', report lost' if lose else ''}"
            failures.append(f"trial {i} ({how}): [t, URL, sends, resends] = {state}")
    return failures


@pytest.mark.parametrize(
    "path, name",
    [
        ("playground?algos=perceptron,pa,spa&n=150&t=20", "t"),
        ("cs_svm?kind=blobs&n=40&K=3", "s"),
    ],
    ids=["playground", "cs_svm"],
)
def test_arrow_keys_on_the_time_slider_reach_the_url(server, page, path, name):
    page.goto(f"{server}/{path}")
    page.wait_for_function(READY, timeout=120_000)  # the first trial: right after load
    failures = step_trials(page, name)
    assert not failures, failures
    assert_no_error(page)
