"""Compile olearn's numba kernels ahead of their first use: ``olearn warmup``, and the app
server's background warm-up (started with the server by ``olearn app``, or once its first page
is drawn under ``streamlit run app.py``).

A fresh install has an empty numba cache, so the first ``fit`` of each family, and the first
visit of each app page, compiles its kernels (10-16 s in all, silently).  :func:`warm` calls
every jitted function with the argument types the estimators and the pages give it, on tiny
problems: numba compiles each signature once and saves it in its on-disk cache
(:mod:`olearn._jit`; ``NUMBA_CACHE_DIR`` chooses the folder), so every later process *loads*
the compiled code (milliseconds) instead of compiling it.  In the process that warmed, the
compiled code is in memory already.

What is compiled, one "part" at a time (a part's name is what ``progress`` receives):

- each registry estimator's ``fit`` on a tiny dense and a tiny CSR problem, with and
  without an intercept, and ``learn_stream`` (the kernels with their mistakes output);
- each online algorithm's readable rule (:meth:`olearn.registry.AlgorithmSpec.readable`),
  three steps: the jitted closed forms of :mod:`olearn.core` that the pages' walkthroughs call.

:func:`start_background` runs :func:`warm` once per process in a daemon thread (a daemon
thread ends with the server, so nothing outlives it) and :func:`warming` says whether it is
still running, for the pages' "preparing kernels" message.  ``olearn app`` starts it with the
server (:mod:`olearn.app.serve`: imports and the pages' default views first, then the
kernels).  Started that way with the kernels first, it once competed with the first page for
the compiler (numba compiles one function at a time) and made the first visit slower
(Playground 27 s instead of 6 s on an empty cache, ``benchmarks/app_timing.py --cold``): so
the kernels come last, and :func:`warm` yields to pages being drawn: before each part it
waits until no page has run for :data:`GRACE` seconds (:func:`page_running`, entered by the
app's frame around every page).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator

import numpy as np
import scipy.sparse as sp

MESSAGE = "preparing kernels (first run only)"


def _problem(n_classes: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A tiny problem, 4 samples per class and 3 features, far apart (every solver converges
    in a few sweeps, so no ConvergenceWarning)."""
    y = np.repeat(np.arange(n_classes), 4)
    X = 0.1 * rng.normal(size=(y.size, 3)) + 3.0 * np.eye(3)[y]
    return X, y


def _fit(spec) -> None:
    """``fit`` on dense and CSR input, with and without an intercept; ``learn_stream``."""
    rng = np.random.default_rng(0)
    for n_classes in (2, 3):  # some families have a two-class path
        X, y = _problem(n_classes, rng)
        for data in (X, sp.csr_matrix(X)):
            for intercept in (False, True):
                params = spec.make().get_params()
                extra = {"fit_intercept": intercept} if "fit_intercept" in params else {}
                try:
                    spec.make(**extra).fit(data, y)
                except ValueError:  # a family refusing the problem (PCVM: two classes only)
                    break
            if spec.online:
                spec.make().learn_stream(data, y)  # the kernels' mistakes output


def _readable(spec) -> None:
    """Three steps of the readable rule (the jitted closed forms it calls)."""
    rng = np.random.default_rng(1)
    learner = spec.readable()
    state = learner.init(2, 3)
    for y in (0, 1, 2):
        state, _ = learner.step(state, rng.normal(size=2), y)


def parts(only: Iterable[str] | None = None) -> list[tuple[str, Callable[[], None]]]:
    """``(name, compile)`` for every part :func:`warm` runs, in order; with ``only``, the
    parts whose name contains one of its strings."""
    from olearn import registry

    out = []
    for spec in registry.ALGORITHMS:
        if spec.kernel is None and spec.family == "batch":  # PCVM: numpy's EM, nothing jitted
            continue
        out.append((f"fit {spec.key}", lambda spec=spec: _fit(spec)))
        if spec.online:
            out.append((f"rule {spec.key}", lambda spec=spec: _readable(spec)))
    if only is not None:
        wanted = list(only)
        out = [(name, f) for name, f in out if any(w in name for w in wanted)]
    return out


def warm(
    progress: Callable[[str, int, int], None] | None = None, only: Iterable[str] | None = None
) -> float:
    """Compile (and cache on disk) every kernel signature olearn uses; the seconds it took.

    ``progress(name, i, n)`` is called before part ``i`` of ``n`` (and with ``i == n`` at the
    end); ``only`` keeps the parts whose name contains one of its strings (``["fit pa"]``).

    >>> warm(only=["rule perceptron"]) >= 0.0
    True
    """
    todo = parts(only)
    start = time.perf_counter()
    for i, (name, compile_) in enumerate(todo):
        if progress is not None:
            progress(name, i, len(todo))
        yield_to_pages()
        compile_()
    if progress is not None:
        progress("done", len(todo), len(todo))
    return time.perf_counter() - start


def enabled() -> bool:
    """Should the app warm up in the background?  Not when numba is off
    (``NUMBA_DISABLE_JIT=1``: nothing to compile) nor when ``OLEARN_WARMUP=0`` (the test
    suite, whose every AppTest would otherwise start a warm-up in the test process)."""
    if os.environ.get("OLEARN_WARMUP", "1").strip().lower() in ("0", "false", "no", "off"):
        return False
    import numba

    return not numba.config.DISABLE_JIT


def warm_announced(say: Callable[[str], None], only: Iterable[str] | None = None) -> None:
    """:func:`warm` (``only`` those parts) for a command about to fit: ``say(MESSAGE)`` if it
    is still compiling after half a second (a cached warm-up loads in less, and says nothing).
    A failure is left to the fits themselves, which compile what they need."""
    timer = threading.Timer(0.5, say, args=(MESSAGE,))
    timer.daemon = True
    timer.start()
    try:
        warm(only=only)
    except Exception:  # noqa: BLE001 - an optimisation: the fits compile instead
        pass
    finally:
        timer.cancel()


GRACE = 1.5  # seconds without a page being drawn before a kernel is compiled in the background
PAUSE_LIMIT = 60.0  # a page running longer (a long comparison) no longer holds the warm-up
_pages = {"running": 0, "ended": 0.0}
_idle = threading.Condition()


@contextlib.contextmanager
def page_running() -> Iterator[None]:
    """Around a page's run: the background warm-up compiles nothing meanwhile, nor in the
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
    """In :func:`warm` (and between the app's preparation steps): wait while a page runs or
    ran less than :data:`GRACE` s ago (at most :data:`PAUSE_LIMIT` s in all).  Without pages
    (``olearn warmup``) it returns at once.  Never call it while holding what a page may wait
    for (inside a cached function, an import, a compilation): only between such steps."""
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


_thread: threading.Thread | None = None
_thread_lock = threading.Lock()


def start_background(
    then: Callable[[], object] | None = None, first: Callable[[], object] | None = None
) -> threading.Thread:
    """Start :func:`warm` in a daemon thread, once per process, with ``first`` before it and
    ``then`` after it in the same thread (the app: its imports and default views, computed
    before students arrive); the thread."""
    global _thread
    with _thread_lock:
        if _thread is None:
            _thread = threading.Thread(
                target=_warm_quietly, args=(then, first), name="olearn-warmup", daemon=True
            )
            _thread.start()
        return _thread


def _warm_quietly(
    then: Callable[[], object] | None = None, first: Callable[[], object] | None = None
) -> None:
    for work in (first, warm, then):
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
    """Has this process started its background warm-up?  (Before, the server's first page
    may compile what it needs: the app says so while it runs.)"""
    return _thread is not None


def warming() -> bool:
    """Is a background warm-up running in this process?"""
    return _thread is not None and _thread.is_alive()
