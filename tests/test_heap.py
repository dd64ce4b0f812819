"""The server's long-lived heap is frozen after its warm-up (issue 23: Streamlit's full
collection after every script run cost ~150 ms over olearn's heap; see olearn.app.server.heap).

What is ours to test: the app's background warm-up ends by freezing, the freeze comes after
the default views are prepared (so they are frozen too), garbage made before it is collected
rather than kept for good, and what is made after it stays collectable (sessions' garbage).
"""

from __future__ import annotations

import gc
import weakref

import pytest

from olearn import _warmup
from olearn.app.server import background, heap


class _Cycle:
    def __init__(self):
        self.me = self


@pytest.fixture
def unfrozen():
    gc.unfreeze()
    yield
    gc.unfreeze()  # the rest of the suite runs with an ordinary heap


def test_settling_collects_the_garbage_first_and_freezes_what_is_alive(unfrozen):
    garbage, alive = _Cycle(), _Cycle()
    dead = weakref.ref(garbage)
    del garbage
    frozen = heap.settle()
    assert dead() is None  # a cycle dropped before settling is not kept forever
    # (a frozen object another thread frees leaves the count: it can only go down)
    assert frozen >= 1 and 0 < gc.get_freeze_count() <= frozen
    kept = weakref.ref(alive)
    del alive
    gc.collect()
    assert kept() is not None  # frozen: collections skip it (the cost they no longer pay)


def test_garbage_made_after_settling_is_still_collected(unfrozen):
    heap.settle()
    later = _Cycle()
    gone = weakref.ref(later)
    del later
    gc.collect()
    assert gone() is None


def test_the_apps_warmup_ends_by_preparing_the_defaults_then_freezing(monkeypatch, unfrozen):
    pytest.importorskip("streamlit")
    from olearn.app import cached
    from tests.test_app_pages import open_page

    given = []
    monkeypatch.setattr(_warmup, "enabled", lambda: True)
    monkeypatch.setattr(background, "_thread", None)
    monkeypatch.setattr(background, "start_background", lambda then=None: given.append(then))
    open_page("pages/sgd.py")
    assert given and all(then is given[0] for then in given) and callable(given[0])
    order = []
    monkeypatch.setattr(
        cached, "prepare_defaults", lambda pause: order.append((gc.get_freeze_count(), pause))
    )
    given[0]()
    # prepared while nothing was frozen, yielding to pages between two views ...
    assert order == [(0, background.yield_to_pages)]
    assert gc.get_freeze_count() > 0  # ... and frozen after
