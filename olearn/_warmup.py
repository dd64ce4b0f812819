"""Compile olearn's numba kernels ahead of their first use: ``olearn warmup`` and the app
server's background preparation (:mod:`olearn.app.server.background`, which runs :func:`warm`
between page draws).  Elsewhere a fit compiles what it runs, its own rule's kernel, and says
so on stderr when that takes more than a second (:mod:`olearn._jit`).

A fresh install has an empty numba cache, so the first ``fit`` of each family, and the first
visit of each app page, compiles its kernels.  :func:`warm` calls
every jitted function with the argument types the estimators and the pages give it, on tiny
problems (:func:`problem`): numba compiles each signature once and saves it in its on-disk
cache (:mod:`olearn._jit`; ``NUMBA_CACHE_DIR`` chooses the folder), so every later process
*loads* the compiled code (milliseconds) instead of compiling it.  In the process that warmed,
the compiled code is in memory already.

What is compiled, one "part" at a time (a part's name is what ``progress`` receives):

- each registry estimator's ``fit`` on a tiny dense and a tiny CSR problem, with and
  without an intercept, and ``learn_stream`` (the kernels with their mistakes output);
- each online algorithm's readable rule (:meth:`olearn.registry.AlgorithmSpec.readable`),
  three steps: the jitted closed forms of :mod:`olearn.core` that the pages' walkthroughs call.

This module compiles and nothing else: when to compile (the app's server compiles nothing
while a page is being drawn) is its caller's business, through :func:`warm`'s ``pause``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable

import numpy as np
import scipy.sparse as sp

MESSAGE = "preparing kernels (first run only)"


def problem(n_classes: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A tiny problem, 4 samples per class and 3 features, far apart (every solver converges
    in a few sweeps, so no ConvergenceWarning): what :func:`warm` fits, and what a Dask
    worker fits once before its first shard (:func:`olearn.distributed._shards.warm_worker`).

    >>> X, y = problem(2, np.random.default_rng(0))
    >>> X.shape, y.tolist()
    ((8, 3), [0, 0, 0, 0, 1, 1, 1, 1])
    """
    y = np.repeat(np.arange(n_classes), 4)
    X = 0.1 * rng.normal(size=(y.size, 3)) + 3.0 * np.eye(3)[y]
    return X, y


def _fit(spec) -> None:
    """``fit`` on dense and CSR input, with and without an intercept; ``learn_stream``."""
    rng = np.random.default_rng(0)
    for n_classes in (2, 3):  # some families have a two-class path
        X, y = problem(n_classes, rng)
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
    progress: Callable[[str, int, int], None] | None = None,
    only: Iterable[str] | None = None,
    pause: Callable[[], None] | None = None,
) -> float:
    """Compile (and cache on disk) every kernel signature olearn uses; the seconds it took.

    ``progress(name, i, n)`` is called before part ``i`` of ``n`` (and with ``i == n`` at the
    end); ``only`` keeps the parts whose name contains one of its strings (``["fit pa"]``);
    ``pause()`` is called before each part, between two compilations (the app's server waits
    there while a page is drawn: :func:`olearn.app.server.background.yield_to_pages`).

    >>> warm(only=["rule perceptron"]) >= 0.0
    True
    """
    from olearn._jit import quiet

    todo = parts(only)
    start = time.perf_counter()
    for i, (name, compile_) in enumerate(todo):
        if progress is not None:
            progress(name, i, len(todo))
        if pause is not None:
            pause()
        with quiet():  # the kernels' own compile messages: the warm-up says what it does
            compile_()
    if progress is not None:
        progress("done", len(todo), len(todo))
    return time.perf_counter() - start


def enabled() -> bool:
    """Is a warm-up wanted (the app server's background one)?
    Not when numba is off (``NUMBA_DISABLE_JIT=1``: nothing to compile) nor when
    ``OLEARN_WARMUP=0`` (the test suite, whose every AppTest would otherwise start a warm-up
    in the test process)."""
    if os.environ.get("OLEARN_WARMUP", "1").strip().lower() in ("0", "false", "no", "off"):
        return False
    import numba

    return not numba.config.DISABLE_JIT
