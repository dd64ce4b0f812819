"""The app server's background preparation (:mod:`olearn.app.server.background`, issue 17):
started once per process, a daemon that ends, a failing step said on the console while the
next ones still run; it waits while a page is drawn and just after, starts once the first page
has been drawn, and the page says "Preparing kernels" while it runs and not otherwise.
"""

from __future__ import annotations

import threading
import time

import pytest

from olearn import _warmup
from olearn.app.server import background


def test_background_warmup_starts_once_and_ends(monkeypatch):
    ran = []
    monkeypatch.setattr(_warmup, "warm", lambda pause: ran.append(pause))
    monkeypatch.setattr(background, "_thread", None)
    first = background.start_background()
    assert background.start_background() is first  # once per process
    first.join(timeout=30)
    assert not first.is_alive() and not background.warming()
    assert ran == [background.yield_to_pages]  # each kernel compiled when no page is drawn
    assert first.daemon  # a daemon: it cannot keep a stopped server alive


def test_a_failing_warmup_step_is_said_on_the_console_and_the_next_steps_still_run(
    monkeypatch, capsys
):
    def failing():
        raise RuntimeError("no kernels today")

    then = []
    monkeypatch.setattr(background, "warm_kernels", failing)
    monkeypatch.setattr(background, "_thread", None)
    background.start_background(then=lambda: then.append(1)).join(timeout=30)
    assert not background.warming()
    assert then == [1]  # the step after it (the heap's freeze, "pages prepared") still ran
    err = capsys.readouterr().err
    assert "failing failed (RuntimeError: no kernels today)" in err


def test_the_page_says_preparing_kernels_while_a_warmup_runs(monkeypatch):
    pytest.importorskip("streamlit")
    from tests.test_app_pages import open_page

    monkeypatch.setattr(background, "warming", lambda: True)
    at = open_page("pages/sgd.py")
    assert any("Preparing kernels (first run only)" in i.value for i in at.info)
    monkeypatch.setattr(background, "warming", lambda: False)
    at.run()
    assert not any("Preparing kernels" in i.value for i in at.info)


def test_the_server_starts_its_warmup_once_its_first_page_is_drawn(monkeypatch):
    """Started before, the warm-up would compete with that page for the compiler; before it
    has started, the notice shows while the page runs and goes when the page is drawn."""
    pytest.importorskip("streamlit")
    from tests.test_app_pages import open_page

    started = []
    monkeypatch.setattr(_warmup, "enabled", lambda: True)
    monkeypatch.setattr(background, "_thread", None)
    monkeypatch.setattr(background, "start_background", lambda **_: started.append(1))
    at = open_page("pages/sgd.py")
    assert started
    assert not any("Preparing kernels" in i.value for i in at.info)


def test_the_warmup_waits_while_a_page_is_drawn_and_just_after(monkeypatch):
    monkeypatch.setattr(background, "GRACE", 0.3)
    monkeypatch.setitem(background._pages, "ended", 0.0)
    start = time.monotonic()
    background.yield_to_pages()  # no page has run: at once
    assert time.monotonic() - start < 0.2

    entered = threading.Event()

    def page():
        with background.page_running():
            entered.set()
            time.sleep(0.5)

    drawing = threading.Thread(target=page)
    drawing.start()
    entered.wait(5)
    start = time.monotonic()
    background.yield_to_pages()
    waited = time.monotonic() - start
    drawing.join()
    assert waited >= 0.5 + 0.3 - 0.15  # the page's run, then the grace after it
    assert background._pages["running"] == 0


def test_a_page_that_never_ends_does_not_hold_the_warmup_forever(monkeypatch):
    monkeypatch.setattr(background, "PAUSE_LIMIT", 0.3)
    monkeypatch.setitem(background._pages, "running", 1)
    start = time.monotonic()
    background.yield_to_pages()
    assert 0.25 <= time.monotonic() - start < 2.0


def test_the_preparation_waits_for_the_first_page_or_its_limit(monkeypatch):
    monkeypatch.setattr(background, "_pages", {"running": 0, "ended": 0.0})
    start = time.monotonic()
    background.wait_for_a_page(0.3)  # no page: the limit
    assert 0.25 <= time.monotonic() - start < 5
    done = threading.Event()
    waiter = threading.Thread(target=lambda: (background.wait_for_a_page(30), done.set()))
    waiter.start()
    try:
        time.sleep(0.2)
        assert not done.is_set()  # waiting while no page was drawn
        with background.page_running():
            time.sleep(0.05)
            assert not done.is_set()  # a page being drawn: still waiting
        assert done.wait(5)  # the page ended: the preparation goes
    finally:
        background._pages["ended"] = 1.0
        with background._idle:
            background._idle.notify_all()
        waiter.join(10)
