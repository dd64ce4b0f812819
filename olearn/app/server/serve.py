"""The process ``olearn app`` runs: Streamlit's server, prepared from the moment it starts.

``python -m olearn.app.server.serve [streamlit options]`` is ``streamlit run`` on the
installed entry script (Streamlit's own command-line entry point, ``streamlit.web.cli.main``,
the function the ``streamlit`` command calls), with one addition made before the server opens
its port: a daemon thread (:func:`olearn.app.server.background.start_background`) that, once
the first visitor's page has been drawn (or after :data:`FIRST_PAGE_WAIT` seconds without one:
a page opened the moment a fresh server answers is drawn faster alone than beside the
preparation),

1. imports what the pages import (:data:`PACKAGES`: plotly, numba, scikit-learn and olearn's
   own modules, about 2-4 s on 2 cores),
2. computes the default views of Home, Playground, SPA and CW, in English and Japanese
   (:func:`olearn.app.cached.prepare_defaults`),
3. compiles, or loads from numba's on-disk cache, every kernel
   (:func:`olearn.app.server.background.warm_kernels`),
4. freezes what is then alive (:func:`olearn.app.server.heap.settle`), so that Streamlit's
   full garbage collection after every script run walks only what sessions make.

A fresh server's first visitor then finds the imports done and those views in the cache; a
page that needs a value still being prepared waits for it (``st.cache_resource`` computes a
value once, the other callers wait) instead of computing it a second time, and says
"Preparing kernels (first run only)" while the thread runs.  Kernel compilation yields to any
page being drawn, and so does the preparation between two steps (a module, a view:
:func:`olearn.app.server.background.yield_to_pages`): a page opened before the preparation
reached it is drawn as without one, not slower.  The console says when the preparation starts
and how long it took ("pages prepared in N s").  The thread ends with the server.
``OLEARN_WARMUP=0`` turns it off (the page then computes what it shows).
"""

from __future__ import annotations

import importlib
import pkgutil
import socket
import sys
import time
from collections.abc import Sequence

from olearn import _warmup
from olearn.app.server import background

# the packages whose modules the pages import (every module of each; the entry script and the
# server house excepted: no page imports them, and the frame imports the hooks it uses)
PACKAGES = (
    "olearn.app",
    "olearn.teaching",
    "olearn.viz",
    "olearn.core",
    "olearn.kernels",
    "olearn.estimators",
    "olearn.experiments",
    "olearn.datasets",
)
SKIP = ("olearn.app.streamlit_app", "olearn.app.server")  # each with its submodules
THIRD_PARTY = ("plotly.graph_objects", "plotly.io", "sklearn.base", "numba")


def import_pages_modules() -> list[str]:
    """Import every module the pages may import; the names that failed (an optional
    dependency missing: the page that needs it says so when visited)."""
    failed = []
    names = list(THIRD_PARTY)
    for package in PACKAGES:
        names.append(package)
        path = importlib.import_module(package).__path__
        names += [m.name for m in pkgutil.walk_packages(path, package + ".")]
    for name in names:
        if any(name == skip or name.startswith(skip + ".") for skip in SKIP):
            continue
        background.yield_to_pages()  # a page being drawn goes first (its imports are the same)
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a page importing it reports the error itself
            failed.append(name)
    return failed


FIRST_PAGE_WAIT = 10.0  # seconds the preparation waits for a first page to be drawn alone


def prepare() -> None:
    """Steps 1 and 2 of the module docstring (step 3 is the warm-up itself), once the first
    page has been drawn or :data:`FIRST_PAGE_WAIT` seconds have passed
    (:func:`olearn.app.server.background.wait_for_a_page`)."""
    background.wait_for_a_page(FIRST_PAGE_WAIT)
    import_pages_modules()
    from olearn.app.cached import prepare_defaults

    prepare_defaults(pause=background.yield_to_pages)


def say(message: str) -> None:
    """A line on the server's console (stderr, beside Streamlit's own)."""
    print(message, file=sys.stderr, flush=True)


def network_address() -> str | None:
    """This machine's IPv4 address on its network (the one its default route leaves from),
    found without sending anything: connecting a UDP socket only chooses the route."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737); no packet is sent
            address = probe.getsockname()[0]
    except OSError:  # no network
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def say_network_url(argv: Sequence[str]) -> None:
    """On every address (``0.0.0.0``, ``::``, the default), the link students open: Streamlit
    shows only ``browser.serverAddress`` (:data:`olearn.app.server.launch.SETTINGS`)."""
    from olearn.app.server.launch import split_public

    try:
        address, port, _ = split_public(argv)
    except ValueError:  # Streamlit says what is wrong with the port
        return
    ip = network_address() if address in ("0.0.0.0", "::", "") else None
    if ip:
        say(f"olearn: students on this network open http://{ip}:{port}")


def main(argv: Sequence[str]) -> None:
    """``streamlit run ENTRY *argv``, the preparation thread started first."""
    from olearn.app import ENTRY
    from olearn.app.server import heap

    say_network_url(argv)
    if _warmup.enabled():
        start = time.perf_counter()
        say("olearn: preparing the pages in the background (first run only)")

        def done() -> None:
            heap.settle()  # what lives as long as the server leaves Streamlit's collections
            say(f"olearn: pages prepared in {time.perf_counter() - start:.0f} s")

        background.start_background(first=prepare, then=done)
    from streamlit.web.cli import main as streamlit_main

    sys.argv = ["streamlit", "run", str(ENTRY), *argv]
    streamlit_main(prog_name="streamlit")


if __name__ == "__main__":
    main(sys.argv[1:])
