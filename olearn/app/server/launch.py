"""``olearn app``: start the Streamlit app from an installed package.

Streamlit reads ``.streamlit/config.toml`` from the working directory, which an installed
package cannot rely on, so the app's settings are passed as command-line options; the
repository's ``.streamlit/config.toml`` is written from :data:`SETTINGS` and a test keeps the
two equal.  This module imports nothing from Streamlit: the CLI can say what is missing.

``olearn app`` becomes the Streamlit server (``os.execv``, on POSIX) rather than starting it
as a child: a signal sent to ``olearn app`` (Ctrl-C, ``kill``, a test's ``terminate()``) reaches
the server itself, and no server is left running when the command is stopped.  The server runs
through :mod:`olearn.app.server.serve`, which prepares the pages from its start (imports,
default views, kernels) so that the first visitor does not wait for them.

``olearn app --workers N`` (:func:`run_workers`) runs N such servers on private loopback ports
behind nginx on the public one (:mod:`olearn.app.server.hosting`); this process stays, and
stops them all on SIGTERM/SIGINT.
"""

from __future__ import annotations

import importlib.util
import os
import secrets
import signal
import subprocess
import sys
from collections.abc import Sequence

from olearn.datasets._decode import MAX_BYTES

MIB = 1024 * 1024  # Streamlit's "megabytes" (server.maxUploadSize) are MiB

# Streamlit options ("section.name": value) the app is designed for.
SETTINGS: dict[str, object] = {
    "client.showErrorDetails": "none",  # errors are caught and explained by the pages
    "client.toolbarMode": "minimal",
    "browser.gatherUsageStats": False,
    # named, so that a headless start on every address (docs/hosting.md) does not ask
    # checkip.amazonaws.com for an "External URL" (no request leaves the server); the console
    # then shows this one URL, and `olearn app` adds the network's (olearn.app.server.serve)
    "browser.serverAddress": "localhost",
    "server.runOnSave": False,
    # no watching of source files: Streamlit's watcher walks every imported module's path
    # (thousands with numba, scipy, scikit-learn) for each new session, 70-85 % of a warm
    # arrival's server CPU above a minimal app (benchmarks/arrival_cpu.py)
    "server.fileWatcherType": "none",
    # the server refuses what the upload parser would refuse: one limit, MAX_BYTES (50 MiB)
    "server.maxUploadSize": MAX_BYTES // MIB,
    # permessage-deflate: a Playground visit's 765 KB of messages cross as 111 KB
    # (benchmarks/app_timing.py --bytes)
    "server.enableWebsocketCompression": True,
    # a light and a dark theme: Streamlit follows the system's, or the choice the page
    # carries in the URL (olearn.app.components.theme); the figures' backgrounds are these
    # (olearn.viz.theme's paper)
    "theme.light.primaryColor": "#006D2C",  # SPA's green (olearn.viz.palette)
    "theme.light.backgroundColor": "#FFFFFF",
    "theme.dark.primaryColor": "#2E9E5B",
    "theme.dark.backgroundColor": "#0E1117",
    "theme.font": "sans serif",
}


def _flag(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def command(extra: Sequence[str] = ()) -> list[str]:
    """The command line of the app's server: ``streamlit run`` on the installed entry script
    with :data:`SETTINGS`, through :mod:`olearn.app.server.serve` (which prepares the pages
    from the server's start).

    >>> command(["--server.port", "8600"])[1:3]
    ['-m', 'olearn.app.server.serve']
    """
    options = [f"--{name}={_flag(value)}" for name, value in SETTINGS.items()]
    return [sys.executable, "-m", "olearn.app.server.serve", *options, *extra]


def run(extra: Sequence[str] = ()) -> int:
    """Start the app.

    On POSIX this process becomes Streamlit (``os.execv``) and never returns.  Elsewhere
    Streamlit runs as a child: SIGINT/SIGTERM received here are passed on to it, it is
    waited for, and its exit status is returned.
    """
    if importlib.util.find_spec("streamlit") is None:
        raise ImportError('the app needs the [app] extra: pip install "olearn[app]"')
    argv = command(extra)
    if os.name == "posix":
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(argv[0], argv)
    return _run_child(argv)


def _run_child(argv: list[str]) -> int:
    """Run ``argv``, forwarding SIGINT/SIGTERM to it; its exit status (``128 + N`` when
    signal ``N`` ended it, as a shell reports it).  The handlers are in place before the
    child starts: a signal arriving while it starts is passed on once it exists (with the
    handlers set after, such a signal ended this process alone and left the child running)."""
    child: subprocess.Popen | None = None
    early: list[int] = []  # signals that came before the child existed

    def forward(signum, _frame) -> None:
        if child is None:
            early.append(signum)
        else:
            child.send_signal(signum)

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        child = subprocess.Popen(argv)
        for signum in early:
            child.send_signal(signum)
        status = child.wait()
        return 128 - status if status < 0 else status
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if child is not None and child.poll() is None:  # leaving (an exception): the server too
            child.terminate()
            child.wait()


def port_number(text: str, option: str = "--server.port") -> int:
    """``text`` as a TCP port to listen on (1 to 65535), or a ValueError naming ``option``.

    >>> port_number("8600")
    8600
    >>> port_number("99999")
    Traceback (most recent call last):
    ...
    ValueError: --server.port must be a port number from 1 to 65535, got '99999'
    """
    try:
        port = int(text)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise ValueError(f"{option} must be a port number from 1 to 65535, got {text!r}")
    return port


def split_public(extra: Sequence[str]) -> tuple[str, int, list[str]]:
    """``(address, port, the rest)``: the public address and port among Streamlit options
    (``--server.address``/``--server.port``, as ``--opt value`` or ``--opt=value``, before any
    ``--``; defaults ``0.0.0.0`` and 8501), which the proxy takes, and the options left for
    each worker.  A port that is not one (:func:`port_number`) is a ValueError: ``olearn app``
    calls this before it starts anything, with or without ``--workers``.

    >>> split_public(["--server.port=8600", "--theme.base", "dark"])
    ('0.0.0.0', 8600, ['--theme.base', 'dark'])
    """
    found = {"--server.address": "0.0.0.0", "--server.port": "8501"}
    rest: list[str] = []
    items = list(extra)
    i = 0
    while i < len(items):
        if items[i] == "--":  # the app script's own arguments from here on
            rest += items[i:]
            break
        name, eq, value = items[i].partition("=")
        if name in found:
            if not eq:
                if i + 1 >= len(items):
                    raise ValueError(f"{name} needs a value")
                value = items[i + 1]
                i += 1
            found[name] = value
        else:
            rest.append(items[i])
        i += 1
    return found["--server.address"], port_number(found["--server.port"]), rest


def worker_command(port: int, extra: Sequence[str] = ()) -> list[str]:
    """One worker of ``olearn app --workers``: the app on ``127.0.0.1:port``, headless."""
    port_number(str(port), "a worker's port")  # chosen free by the system: in range
    private = ["--server.address=127.0.0.1", f"--server.port={port}", "--server.headless=true"]
    extra = list(extra)
    cut = extra.index("--") if "--" in extra else len(extra)  # after it: the script's own
    return command([*extra[:cut], *private, *extra[cut:]])


UPSTREAM_ENV = "OLEARN_UPSTREAM_HEADER"  # 1: --workers names the worker in every response


def env_switch(name: str) -> bool:
    """The on/off environment variable ``name``: unset, empty, ``0``, ``false``, ``no`` or
    ``off`` is off; ``1``, ``true``, ``yes`` or ``on`` is on; anything else a ValueError."""
    value = os.environ.get(name, "").strip().lower()
    if value in ("", "0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise ValueError(f"{name} must be 1 or 0, got {os.environ[name]!r}")


def run_workers(workers: int, extra: Sequence[str] = ()) -> int:
    """``olearn app --workers N``: N Streamlit processes behind nginx on one port (see
    :func:`olearn.app.server.hosting.serve`); returns when a signal stopped them all.
    ``$OLEARN_UPSTREAM_HEADER=1`` adds the header naming the worker that answered
    (:data:`olearn.app.server.hosting.UPSTREAM_HEADER`) to every response."""
    from olearn.app.server import hosting

    if importlib.util.find_spec("streamlit") is None:
        raise ImportError('the app needs the [app] extra: pip install "olearn[app]"')
    address, port, rest = split_public(extra)
    upstream_header = env_switch(UPSTREAM_ENV)
    # one cookie secret for every worker (Streamlit's XSRF and auth cookies are signed with
    # it), in the environment rather than on command lines that `ps` shows
    os.environ.setdefault("STREAMLIT_SERVER_COOKIE_SECRET", secrets.token_hex(32))
    return hosting.serve(
        lambda p: worker_command(p, rest),
        workers=workers,
        address=address,
        port=port,
        max_body_mib=MAX_BYTES // MIB,
        upstream_header=upstream_header,
    )
