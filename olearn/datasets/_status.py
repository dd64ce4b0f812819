"""Who is told that a corpus is being parsed: slow the first time (seconds to a minute),
then read from the cache.  The library prints nothing; a front end (the CLI) listens.

>>> lines = []
>>> with listening(lambda name, text: lines.append(f"{name}: {text}")):
...     with parsing("usps", ("usps.bz2",)):
...         pass
>>> lines[0]
'usps: parsing usps.bz2 (first time only; cached afterwards)'
>>> lines[1].startswith("usps: parsed in ")
True
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

Listener = Callable[[str, str], None]  # (dataset name, one line of text)

_listeners: list[Listener] = []
_lock = threading.Lock()


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Call ``listener(name, text)`` when a dataset starts and ends parsing, inside the block."""
    with _lock:
        _listeners.append(listener)
    try:
        yield
    finally:
        with _lock:
            _listeners.remove(listener)


def _tell(name: str, text: str) -> None:
    for listener in list(_listeners):
        listener(name, text)


@contextmanager
def parsing(name: str, files: Sequence[str]) -> Iterator[None]:
    """Around the parse of ``name`` from ``files``: tell the listeners before and after."""
    if not _listeners:
        yield
        return
    _tell(name, f"parsing {', '.join(files)} (first time only; cached afterwards)")
    start = time.perf_counter()
    yield
    _tell(name, f"parsed in {time.perf_counter() - start:.1f} s")
