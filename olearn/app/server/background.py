"""The app server's background preparation, and how it gives way to the pages being drawn.

One daemon thread per server process (:func:`start_background`; a daemon thread ends with the
server, so nothing outlives it) runs, in order, ``first`` (under ``olearn app``: the pages'
imports and default views, :func:`olearn.app.server.serve.prepare`), the kernels' warm-up
(:func:`warm_kernels`: :func:`olearn._warmup.warm`) and ``then`` (the heap frozen,
:mod:`olearn.app.server.heap`).  :func:`warming` says whether it still runs, for the pages'
"preparing kernels" notice, and :func:`started` whether it has started.

Started beside a page, it once competed with that page for the CPU and for the compiler (numba
compiles one function at a time) and made the first visit slower (Playground 27 s instead of
6 s on an empty cache, ``benchmarks/app_timing.py --cold``).  So it yields: the app's frame
runs every page inside :func:`page_running`, and between two steps (a module, a view, a
kernel) the preparation waits, in :func:`yield_to_pages`, until no page has run for
:data:`GRACE` seconds; it starts once the first page has been drawn (:func:`wait_for_a_page`).

The app's frame (:mod:`olearn.app.frame`) is this module's one user outside the server house:
:func:`page_running` around every page, :func:`started` / :func:`warming` for its notice, and
:func:`start_background` under ``streamlit run app.py``.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Iterator

from olearn import _warmup

GRACE = 1.5  # seconds without a page being drawn before a kernel is compiled in the background
PAUSE_LIMIT = 60.0  # a page running longer (a long comparison) no longer holds the warm-up
_pages = {"running": 0, "ended": 0.0}
_idle = threading.Condition()


@contextlib.contextmanager
def page_running() -> Iterator[None]:
    """Around a page's run: the background preparation does nothing meanwhile, nor in the
    :data:`GRACE` seconds after (the browser drawing the page, on a lecturer's laptop the
    same machine)."""
    with _idle:
        _pages["running"] += 1
    try:
        yield
    finally:
        with _idle:
            _pages["running"] -= 1
            _pages["ended"] = time.monotonic()
            _idle.notify_all()


def wait_for_a_page(limit: float) -> None:
    """Wait until a page has been drawn in this process (or ``limit`` seconds): the app's
    preparation starts after the first visitor's page, which a fresh server then draws alone
    (measured: a page opened as the server answered took 3.7-5.0 s alone, 5.2-6.9 s beside
    the preparation; ``benchmarks/app_timing.py --cold``, quiet machine)."""
    deadline = time.monotonic() + limit
    with _idle:
        while not _pages["ended"] and time.monotonic() < deadline:
            _idle.wait(timeout=deadline - time.monotonic())


def yield_to_pages() -> None:
    """Between two steps of the preparation: wait while a page runs or ran less than
    :data:`GRACE` s ago (at most :data:`PAUSE_LIMIT` s in all).  Without pages it returns at
    once.  Never call it while holding what a page may wait for (inside a cached function, an
    import, a compilation): only between such steps."""
    deadline = time.monotonic() + PAUSE_LIMIT
    with _idle:
        while (left := deadline - time.monotonic()) > 0:
            if _pages["running"]:  # woken by the page's end (page_running notifies)
                _idle.wait(timeout=left)
                continue
            quiet = time.monotonic() - _pages["ended"]
            if quiet >= GRACE:
                return
            _idle.wait(timeout=min(GRACE - quiet, left))


def warm_kernels() -> None:
    """Compile, or load from numba's cache, every kernel (:func:`olearn._warmup.warm`),
    yielding to pages before each one."""
    _warmup.warm(pause=yield_to_pages)


_thread: threading.Thread | None = None
_thread_lock = threading.Lock()


def start_background(
    then: Callable[[], object] | None = None, first: Callable[[], object] | None = None
) -> threading.Thread:
    """Start the preparation in a daemon thread, once per process: ``first``, then
    :func:`warm_kernels`, then ``then``; the thread."""
    global _thread
    with _thread_lock:
        if _thread is None:
            _thread = threading.Thread(
                target=_prepare_quietly, args=(then, first), name="olearn-warmup", daemon=True
            )
            _thread.start()
        return _thread


def _prepare_quietly(
    then: Callable[[], object] | None = None, first: Callable[[], object] | None = None
) -> None:
    for work in (first, warm_kernels, then):
        try:
            if work is not None:
                work()
        except Exception as exc:  # noqa: BLE001 - an optimisation: the page computes it instead
            # said on the server's console (the pages then compute what the step would have
            # prepared, and report their own errors); the other steps still run
            name = getattr(work, "__qualname__", repr(work))
            print(
                f"olearn: the background preparation's step {name} failed "
                f"({type(exc).__name__}: {exc}); the pages compute it themselves",
                file=sys.stderr,
                flush=True,
            )


def started() -> bool:
    """Has this process started its background preparation?  (Before, the server's first
    page may compile what it needs: the app says so while it runs.)"""
    return _thread is not None


def warming() -> bool:
    """Is the background preparation running in this process?"""
    return _thread is not None and _thread.is_alive()
