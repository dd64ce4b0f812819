"""A step-through played in the browser: Previous / Next / a slider / the keys ← and →, with
no Python rerun per step.

The page renders every step once and the stepper shows one of them:

- the step's *blocks* (text, formulas, tables): the page writes each step's content into
  ``st.container(key=f"{prefix}-{id}")`` for every step id; the stepper shows the current
  step's container and hides the others with one CSS rule it owns (no element is re-rendered);
- the step's *figures*: for each chart key, one complete plotly figure per step (JSON); the
  page draws the current one with ``st.plotly_chart(key=...)`` and the stepper swaps the
  chart's figure with ``Plotly.react`` (Streamlit's theme template is carried over).

Steps have ids (e.g. the index of the example an update happens on), so a page may send a
*window* of its steps: when the browser moves to the window's last step and there are more
(``more=True``), it reports at once and the page's rerun sends the next window.

Python hears back only after the lecturer stops (350 ms without a move): the stepper reports
``{"id": ..., "seq": n}``, the page stores it in its state and the URL, and the rerun draws
the same step, so nothing on screen changes.  The rerun also hands back ``ack = n``, the
report the page took.  The race this prevents: the lecturer moves on while the server
answers a report; the answer says "current = the reported step", and a stepper following
the page would jump back to it.  A new ``ack`` tells the stepper the page is only echoing
the browser (which leads); an unchanged ``ack`` with another ``current`` is the page moving
by itself (CW's "Back to the start", its ``t`` slider), which the stepper follows.  Tested
by ``tests/test_browser_walks.py::
test_the_stepper_keeps_a_step_taken_while_the_server_answers_an_older_one`` (the server's
answer held until after the next move; it fails without the ``ack`` branch of
``stepper.js``).

A report can also be lost on its way (the rerun it asks for replaced by another one while
the server is busy): with ``url=``, the browser sends it again until the URL, which only the
server writes, shows the step on screen (``reportUntilArrived`` in ``component_base.js``, the
player's too; ``test_a_lost_report_of_the_stepper_is_sent_again_until_the_url_shows_the_step``
loses one on purpose and fails without the resend).

The figures are sent once per window and session
(:func:`olearn.app.components.player.send_once`), not on every report's rerun.  Before the
component has mounted, a CSS rule the page
emits (:func:`initial_css`) shows only the server's current step, so there is no flash of
all steps.  The browser code is ``olearn/app/components/assets/stepper.js`` (after
``component_base.js``, which it shares with the player); the stepper's state is
public on its root element (``.ols``: ``data-id``, ``data-moves``, ``data-latency``), which
``benchmarks/app_timing.py`` reads.

Why not ``st.fragment`` + ``st.button(shortcut=...)`` + the step in ``st.query_params``
(Streamlit's public API; issue 20): its prototype, ``benchmarks/fragment_stepper.py``, reruns
the step's part of the page per click, and ``python -m benchmarks.app_timing
--stepper-fragment --repeat 10`` (both designs in one run, load average 1.6-2.4 on 2 cores)
measured Next from the click to the new step's figure painted at 324 ms (SPA) and 360 ms
(CW) median, against 100 ms and 109 ms here: above the issue's 250 ms and the project's
150 ms.  So the steps stay in the browser, and with them the one reach into Streamlit's
DOM (the ``stLayoutWrapper`` rule of :func:`initial_css` and ``stepper.js``), guarded by
``tests/test_browser_player.py::test_the_streamlit_dom_the_stepper_hides_steps_by_is_there``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json

import streamlit as st

from olearn.app.components.assets import asset
from olearn.app.components.player import report_of, send_once

_component = st.components.v2.component(
    "olearn_stepper",
    html=asset("stepper.html"),
    css=asset("controls.css") + asset("stepper.css"),
    js=asset("component_base.js") + asset("stepper.js"),
)


def digest(*parts) -> str:
    """A short name for the data a stepper shows (its ``family``)."""
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:12]


def window(ids, current, size: int = 10, margin: int = 3) -> tuple[list, object, object]:
    """The steps to send around ``current`` from all ``ids``: the block of ``size`` holding it
    plus ``margin`` either side (blocks, so a report inside one sends nothing new), and the
    ids just past either end (None at the ends of ``ids``).

    >>> window(list(range(0, 50, 2)), 24)
    ([14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44], 12, 46)
    >>> window([3, 5], 3)
    ([3, 5], None, None)
    """
    ids = list(ids)
    start = ids.index(current) // size * size
    lo, hi = max(0, start - margin), min(len(ids), start + size + margin)
    return ids[lo:hi], (ids[lo - 1] if lo > 0 else None), (ids[hi] if hi < len(ids) else None)


def block_key(prefix: str, step_id: int) -> str:
    """The key of step ``step_id``'s container of ``prefix`` (``st.container(key=...)``)."""
    return f"{prefix}-{int(step_id)}"


def initial_css(
    key: str,
    blocks: tuple[str, ...],
    current: int,
    *,
    answers: tuple[str, ...] = (),
    revealed: bool = True,
) -> str:
    """The page's own rule: only the current step's containers show until the stepper has
    mounted (it then owns the rule; the body class switches this one off).  ``answers``: the
    prefixes of the predict mode's answer containers, all hidden unless ``revealed``."""
    shown = (*blocks, *answers) if revealed else blocks
    rules = [
        f'body:not(.ols-{key}) div[data-testid="stLayoutWrapper"]:has(> [class*="st-key-{p}-"])'
        f":not(:has(> .st-key-{p}-{int(current)})) {{ display: none; }}"
        for p in shown
    ]
    rules += [
        f'body:not(.ols-{key}) div[data-testid="stLayoutWrapper"]'
        f':has(> [class*="st-key-{p}-"]) {{ display: none; }}'
        for p in (answers if not revealed else ())
    ]
    return "<style>" + "\n".join(rules) + "</style>"


@dataclasses.dataclass(frozen=True)
class Predict:
    """The stepper's predict-then-reveal mode (:mod:`olearn.teaching.predict`): at each step
    of ``questions`` Next first reveals the answer (the containers <prefix>-<id> of each
    prefix of ``answers``, hidden until then) and, for a chart of ``figures``, swaps the
    step's question figure (one JSON per step id sent, "" where the step has none: what comes
    after the question left out) for its full one; then it moves on.  ``revealed``: whether
    the current step's answer shows."""

    questions: tuple[int, ...]
    answers: tuple[str, ...]
    figures: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    revealed: bool = False


def stepper(
    key: str,
    ids: list[int],
    current: int,
    family: str,
    figures: dict[str, list[str]],
    labels: dict[str, str],
    *,
    blocks: tuple[str, ...] = (),
    titles: list[str] | None = None,
    more: int | None = None,
    less: int | None = None,
    url: tuple[str, int] | None = None,
    variant: str = "",
    predict: Predict | None = None,
) -> int | None:
    """Mount the stepper; returns the step id the browser reported (on the rerun after the
    lecturer stopped), else None (and :func:`reported_reveal` what it reported revealed).

    ``ids`` are the steps sent (in order), ``current`` the one the page shows; ``family``
    names the data (a change resets the browser to ``current``); ``figures`` maps a chart key
    to one figure JSON per id; ``blocks`` are the container prefixes of :func:`block_key`;
    ``more`` / ``less`` are the ids past either end of the window, when there are any.
    ``url = (name, offset)``: the page writes a reported step to the URL as ``?name=`` step id
    + offset; the browser sends its report again until the URL shows the step on screen (a
    report can be lost, as the player's can; None: no check).  ``variant`` names how the same
    steps are drawn (a theme: a change sends the figures again, the step stays).  ``predict``:
    the predict mode (:class:`Predict`); ``labels["reveal"]`` then names Next at a question.
    The page must also emit :func:`initial_css` (``st.html``) before the blocks.
    """
    sig = f"{family}|{variant}|{'p' if predict else ''}|{ids[0]}-{ids[-1]}"
    sent_key = f"_stepper.sent.{key}"
    parts = {k: "[" + ",".join(v) + "]" for k, v in figures.items()}  # a list per chart
    if predict is not None:  # the question figures ("": the step's own), one list per chart
        for k, v in predict.figures.items():
            parts[f"?{k}"] = "[" + ",".join(f or "null" for f in v) + "]"
    payload = send_once(sent_key, sig, parts)
    ack_key = f"_stepper.ack.{key}"  # the last report the page took (the browser then leads)
    config = dict(
        key=key,
        ack=st.session_state.get(ack_key, 0),
        ids=[int(i) for i in ids],
        current=int(current),
        family=family,
        sig=sig,
        labels=labels,
        blocks=list(blocks),
        titles=titles or [],
        more=more is not None,
        next_id=more,
        more_before=less is not None,
        prev_id=less,
        url=None if url is None else {"name": url[0], "offset": int(url[1])},
        predict=None
        if predict is None
        else {
            "questions": [int(i) for i in predict.questions],
            "answers": list(predict.answers),
            "revealed": bool(predict.revealed),
        },
    )
    result = _component(
        key=f"stepper-{key}",
        data={"config": json.dumps(config), "figures": payload},
        on_pos_change=lambda: None,
    )
    pos = report_of(result, sent_key)
    if isinstance(pos, dict) and "id" in pos:
        try:
            step_id, seq = int(pos["id"]), int(pos.get("seq", 0))
        except (TypeError, ValueError):
            return None
        st.session_state[ack_key] = seq
        if "revealed" in pos:
            st.session_state[_REVEAL + key] = bool(pos["revealed"])
        return step_id
    return None


_REVEAL = "_stepper.revealed."  # session key prefix: the reveal state the browser reported


def reported_reveal(key: str) -> bool | None:
    """Whether the step the browser just reported (predict mode) showed its answer: on the
    rerun of a report, else None.  (Read once: the report's run takes it.)"""
    return st.session_state.pop(_REVEAL + key, None)
