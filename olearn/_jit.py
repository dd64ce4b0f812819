"""``@jit``: ``numba.njit(cache=True)`` that falls back to compiling without a cache.

numba's on-disk cache is a speed-up, never a reason to fail.  Three ways it used to fail:

- no writable cache folder (a read-only install, no writable ``~/.cache``): ``njit(cache=True)``
  raised "cannot cache function ...: no locator available" at *import*;
- a full disk or an unwritable cache folder: saving the compiled code raised ``OSError`` at the
  first call of every process, so every ``fit`` failed;
- a damaged cache file (``.nbi`` index or ``.nbc`` data, e.g. a process killed while writing
  it): loading it raised ``UnpicklingError`` / ``EOFError``.

Each now costs one :class:`NumbaCacheWarning` per process, and the kernels are compiled in
memory as ``njit()`` would: at decoration, a function numba cannot cache is compiled without
a cache; at a call, a cache that fails to load or save is bypassed: the function is compiled by
a cache-less twin (``numba.njit(py_func)``) whose result is added to the original dispatcher
(``Dispatcher.add_overload``), so jitted callers, which hold the original, use it too.  From
the first failure on, every ``@jit`` function of the process compiles without its cache.

Every ``@jit`` function is inlined into the jitted functions that call it (numba's
``inline="always"``, at numba's IR level): a kernel then compiles as one function, instead of
each callee being compiled, optimised and linked on its own, which took most of the first
``fit``'s seconds.  Called from Python, a function compiles (and is cached) as usual.

A compile still running after :data:`SLOW_COMPILE` seconds says so on stderr, in one line:
what is compiled (a kernel's rule type names its rule: ``rule_name``), that it takes a few
seconds, and where the result is cached.  A cache load takes milliseconds and says nothing;
each message is said once per process, and :func:`quiet` silences it (the warm-up, which
compiles everything and says so itself).

Only numba's public interface is used: ``numba.njit``, a dispatcher's ``compile``,
``add_overload``, ``overloads``, ``py_func`` and ``stats``.  ``NUMBA_CACHE_DIR`` chooses the
cache folder, as numba documents; ``NUMBA_DISABLE_JIT=1`` gives the plain Python functions.
"""

from __future__ import annotations

import contextlib
import pickle
import sys
import threading
import warnings
from collections.abc import Callable, Iterator

import numba

# What a damaged or unwritable cache raises: I/O errors (full disk, read-only, a folder that is
# a file) and the errors of unpickling a truncated or overwritten file.
CACHE_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    EOFError,
    pickle.UnpicklingError,
    ValueError,  # e.g. "unsupported pickle protocol", "insecure string pickle"
    ImportError,  # a cache file naming a module that no longer exists
)


class NumbaCacheWarning(RuntimeWarning):
    """numba's on-disk cache cannot be used; kernels are compiled in memory instead."""


_state = {"broken": False, "warned": False}
_lock = threading.Lock()

# A compile still running after this many seconds says so on stderr (module docstring).
SLOW_COMPILE = 1.0
_compiling = threading.local()  # this thread's compile in progress, or quiet()
_said: set[str] = set()  # the messages said in this process


def _give_up_cache(reason: str) -> None:
    """From now on, compile without a cache; warn the first time only."""
    with _lock:
        _state["broken"] = True
        if _state["warned"]:
            return
        _state["warned"] = True
    warnings.warn(
        f"numba's cache cannot be used ({reason}); olearn's kernels are compiled without it "
        "in this process (slower first calls). To cache again, make the cache folder "
        "writable, free disk space, delete damaged files (*.nbi, *.nbc), or set "
        "NUMBA_CACHE_DIR to a writable folder.",
        NumbaCacheWarning,
        stacklevel=4,
    )


def _one_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"[:300]


def jit(fn: Callable) -> Callable:
    """``numba.njit(cache=True)(fn)``, degrading to no cache as the module docstring says.

    Used as ``@jit`` on a module-level function of a file (numba caches by source file)::

        @jit
        def row_dot(indptr, indices, data, row, w): ...
    """
    if not _state["broken"]:
        try:
            dispatcher = numba.njit(cache=True, inline="always")(fn)
        except RuntimeError as exc:  # "cannot cache function ...: no locator available ..."
            _give_up_cache(_one_line(exc))
            dispatcher = numba.njit(fn)
    else:
        dispatcher = numba.njit(fn)
    if not hasattr(dispatcher, "add_overload"):  # NUMBA_DISABLE_JIT=1: the function itself
        return dispatcher
    _guard(dispatcher)
    return dispatcher


def _guard(dispatcher) -> None:
    """Route ``dispatcher.compile`` (numba calls it for a call from Python and when it compiles
    a jitted caller) through a cache-less twin when the cache fails."""
    cached_compile = dispatcher.compile
    twin: list = []

    def uncached_compile(sig):
        if not twin:
            twin.append(numba.njit(dispatcher.py_func))
        entry_point = twin[0].compile(sig)
        for key, cres in twin[0].overloads.items():
            if key not in dispatcher.overloads:
                dispatcher.add_overload(cres)  # jitted callers hold `dispatcher`, not the twin
        return entry_point

    def compile(sig):
        if getattr(_compiling, "active", False):  # nested, or quiet(): the outer one speaks
            return guarded_compile(sig)
        _compiling.active = True
        timer = threading.Timer(SLOW_COMPILE, lambda: _say(_compiling_message(dispatcher, sig)))
        timer.daemon = True
        timer.start()
        try:
            return guarded_compile(sig)
        finally:
            timer.cancel()
            _compiling.active = False

    def guarded_compile(sig):
        if _state["broken"]:
            return uncached_compile(sig)
        before = set(dispatcher.overloads)
        try:
            return cached_compile(sig)
        except CACHE_ERRORS as exc:
            _give_up_cache(_one_line(exc))
            added = set(dispatcher.overloads) - before  # compiled, then saving failed
            if len(added) == 1:
                return dispatcher.overloads[added.pop()].entry_point
            return uncached_compile(sig)

    dispatcher.compile = compile


def _compiling_message(dispatcher, sig) -> str:
    """``olearn: compiling the SPA-II kernel ...``: what, about how long, where it is cached."""
    what = f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__name__}"
    args = getattr(sig, "args", sig)  # argument types (a tuple, or a numba signature's)
    for arg in args if isinstance(args, tuple) else ():  # a kernel's rule type names its rule
        name = getattr(getattr(arg, "instance_class", None), "rule_name", None)
        if name:
            what = f"the {name} kernel"
    where = "not cached: numba's cache cannot be used"
    cached = getattr(dispatcher.stats, "cache_path", None)
    if cached and not _state["broken"]:
        where = f"cached in {cached}"
    return f"olearn: compiling {what} for this kind of input, once (a few seconds; {where})"


def _say(message: str) -> None:
    with _lock:
        if message in _said:
            return
        _said.add(message)
    print(message, file=sys.stderr, flush=True)


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """No compile message from this thread inside the block."""
    before = getattr(_compiling, "active", False)
    _compiling.active = True
    try:
        yield
    finally:
        _compiling.active = before
