"""A frame player for animated plotly charts, played in the browser (no Python rerun per frame).

The page draws its charts with ``st.plotly_chart(fig, key=...)`` (the figure at one t, no
frames) and calls :func:`player` with the charts' keys and their frames.  The player (a
``st.components.v2`` component: JavaScript in the app page, no iframe) adds
the frames to each chart once with ``Plotly.addFrames`` and then moves every chart to the
same frame: Play / Pause / Step / Back / Rewind, a time slider, a speed choice, and the
keys space, ← and →.  A frame is shown by rewriting the SVG plotly drew (the region and line
paths, which points are visible, the moving markers, the count text): a few milliseconds,
where ``Plotly.animate`` restyles every point of every trace (~100 ms for four panels).
Once stopped, the player also brings plotly's own data to that frame with
``Plotly.animate`` (so hover, PNG export and a resize show it too).  It shows the current
step's note (one line per t, given by the page) beside the buttons.

Python hears back only when the lecturer stops: on Pause, Step, Back, Rewind, a slider
release or a speed change, the player reports ``{"t": ..., "fps": ...}`` (a trigger value,
debounced); the page stores it and writes it to the URL, so a shared link shows the frame on
screen.  A report can be lost on its way (the rerun it asks for replaced by another one while
the server is busy): the browser checks that the URL, which only the server writes, shows the
frame on screen and sends the report again until it does (the race: without it, the URL kept
an older frame, issue 22; ``tests/test_browser_player.py::
test_arrow_keys_on_the_time_slider_reach_the_url`` loses reports on purpose and fails
without the resend).  The report's rerun finds the same (cached) figures, so nothing is
redrawn.  After a press elsewhere on the page (Regenerate, another widget) a report waits
until that press's run has mounted the player again (or 3 s): arriving while the press's
run starts, before its callbacks ran, it made Streamlit 1.67 drop the press (the newer
request replaces the one the run took; Regenerate just after Pause was lost in 5 of 10
runs; ``tests/test_browser_walks.py::
test_a_report_waits_for_the_run_a_press_elsewhere_asked_for``).

Each chart's ``layout.meta`` carries a signature of its data; the player waits for charts
with its signature before adding frames, and re-applies the current frame whenever a chart
was redrawn (plotly's ``plotly_afterplot`` event, or a chart added to the page).  The browser
code is in ``olearn/app/components/assets`` (``player.js``, after ``component_base.js``, which
it shares with the stepper; ``plotly_svg.js``, the fast path, holds every read of plotly.js
internals); the player's state is public on its root element (``.olp``:
``data-t``, ``data-ready``, ``data-rendered``, ``data-latency``..., see ``player.js``), which
the browser tests and ``benchmarks/app_timing.py`` read.
"""

from __future__ import annotations

import json
import re

import streamlit as st

from olearn.app.components.assets import asset

_component = st.components.v2.component(
    "olearn_player",
    html=asset("player.html"),
    css=asset("controls.css") + asset("player.css"),
    js=asset("plotly_svg.js")
    + asset("geometry.js")
    + asset("component_base.js")
    + asset("player.js"),
)


def send_once(sent_key: str, sig: str, parts: dict[str, str]) -> str:
    """The JSON object of ``parts`` (name -> JSON text) the first time this session sees
    ``sig``, else "" (the browser keeps what it was sent; a browser that lacks it asks, see
    :func:`report_of`).

    Not a race guard but the cost of a stop: every report's rerun would otherwise send
    every frame again (megabytes for the Playground at n = 400)."""
    if st.session_state.get(sent_key) == sig:
        return ""
    st.session_state[sent_key] = sig
    return "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in parts.items()) + "}"


def report_of(result, sent_key: str):
    """The component's report (its ``pos`` trigger), after handling the browser's "I have no
    payload": forget that it was sent and rerun, which sends it again.

    The browser keeps the payload in its page (``globalThis``) and the server remembers
    sending it in the session; the two part only if the page starts afresh on a session
    that already sent it.  A reload, a new tab and a page change do not do that (they start
    a new session or keep the page: no "need" was sent in any of them, checked in chromium
    with Streamlit 1.67); what is left is a run that sent the payload superseded before the
    component mounted it (CW's ``st.rerun`` past a window).  Kept as that guard: without it
    such a stepper or player stays empty for the session."""
    pos = getattr(result, "pos", None)
    if isinstance(pos, dict) and pos.get("need"):
        st.session_state.pop(sent_key, None)
        st.rerun()
    return pos


def chart_key(name: str) -> str:
    """A chart key usable both by ``st.plotly_chart(key=...)`` and in the CSS class
    ``st-key-<key>`` the player looks for (letters, digits, ``_`` and ``-`` only).

    >>> chart_key("play.planes")
    'play-planes'
    """
    return re.sub(r"[^A-Za-z0-9_-]", "-", name)


def player(
    key: str,
    charts: dict[str, str],
    n: int,
    t: int,
    sig: str,
    notes: list[str],
    *,
    labels: dict[str, str],
    fps: int = 10,
    speeds: tuple[int, ...] = (2, 5, 10, 20, 30, 60),
    url: str | None = "t",
    url_values: list | None = None,
    meta: str | None = None,
    predict: dict | None = None,
    revealed: bool = False,
) -> dict | None:
    """Mount the player for ``charts`` (chart key -> that chart's frames as a JSON string).

    Returns ``{"t": ..., "fps": ...}`` on the rerun that follows a stop (Pause, Step, a
    slider release...), else None.  ``sig`` must change whenever the frames do; the charts
    are the ones whose ``layout.meta`` is ``meta`` (default ``sig``: a page whose frames change
    without their figures' mark, e.g. painted in another theme, gives both).

    ``predict`` (``{"questions": [...], "answers": [...]}``, one HTML line per t): predict
    mode (:mod:`olearn.teaching.predict`).  Play is off; Step (→, PageDown, space) first
    reveals the next example (its frame and ``answers[t + 1]``), then asks about the one after
    (``questions[t]``); ``revealed`` is whether the answer shows, reported with t
    (``{"t", "fps", "revealed"}``).  A chart with a shape named ``olearn-curtain`` has its left
    edge moved to t: what comes after stays behind it.

    The frames (megabytes for n = 400) are sent once per signature and session: later
    reruns send none, and a browser that lacks them (a reload) asks, which resends them.

    ``url`` names the URL parameter where the page writes the reported frame (as
    ``url_values[t]`` when given, else ``t``): the browser sends its report again until the
    URL shows the frame on screen, so the last change is never lost (None: no check).
    """
    sent_key = f"_player.sent.{key}"
    frames = send_once(sent_key, sig, charts)
    config = dict(
        id=key,
        sig=sig,
        meta=sig if meta is None else meta,
        n=int(n),
        t=int(t),
        fps=int(fps),
        speeds=list(speeds),
        charts=list(charts),
        notes=notes,
        labels=labels,
        url=None if url is None else {"name": url, "values": url_values},
        predict=predict,
        revealed=bool(revealed),
    )
    result = _component(
        key=key,
        data={"config": json.dumps(config), "frames": frames},
        on_pos_change=lambda: None,
    )
    pos = report_of(result, sent_key)
    if isinstance(pos, dict) and "t" in pos:
        return pos
    return None
