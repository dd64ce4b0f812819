"""``olearn app --workers N``: N Streamlit processes behind nginx, started and stopped as one.

One Streamlit process runs every session's script on one core; N processes on one machine
use N cores.  They listen on private loopback ports; nginx (Debian's ``nginx`` package, not a
balancer of our own) listens on the one public port and

- keeps each visitor on one process (a cookie, :data:`COOKIE`, set on the first response and
  read by nginx's ``map``; a visitor without it goes to the process with the fewest open
  connections, ``least_conn``, and the cookie names it), so a Streamlit session's page,
  websocket and upload/media requests live in one process;
- serves Streamlit's static files itself from a cache folder holding a gzip copy of each
  (``gzip_static``), made once per Streamlit version (:func:`static_cache`): no worker spends
  CPU on them and a first visit transfers them compressed;
- compresses what the workers send (``gzip``) and passes websockets through.

:func:`serve` starts everything, waits, and stops every process (proxy and workers) when it
receives SIGTERM or SIGINT, at any moment of its start too, or when any of them exits.  This
module imports nothing from Streamlit except to find its static folder.
"""

from __future__ import annotations

import contextlib
import gzip
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path

COOKIE = "olearn_worker"
# the worker that answered (its private loopback address), added to every response only when
# asked for (serve's upstream_header; olearn app: $OLEARN_UPSTREAM_HEADER=1): it tells
# visitors the workers' private ports
UPSTREAM_HEADER = "X-Olearn-Upstream"
TEMPLATE = Path(__file__).with_name("nginx.conf.template")
PROXY_PACKAGE = "nginx"  # Debian/Ubuntu: apt-get install nginx
# the static files worth compressing (the rest, images and woff2 fonts, are compressed already)
COMPRESSIBLE = frozenset({".js", ".mjs", ".css", ".svg", ".json", ".map", ".txt", ".ttf", ".html"})
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class _Stopped(Exception):
    """A stop signal came: raised by :meth:`_StopSignals.check`, between two steps of
    :func:`serve`, never by the signal handler itself."""


class _StopSignals:
    """SIGTERM and SIGINT while :func:`serve` runs (a context manager: the handlers are set
    on entry and the previous ones restored on exit).

    The handler only records the signal: it raises nothing, so whatever Python code it
    interrupts, the signal cannot be lost.  (A handler that raised ran, when the signal landed
    while a worker was being forked, inside CPython's at-fork callback, where an exception is
    printed as "Exception ignored" and dropped: the launcher went on, started nginx and
    served, issue 30.)  :func:`serve` calls :meth:`check` between every two steps of its
    start, and every wait polls it.
    """

    def __init__(self) -> None:
        self.received: int | None = None
        self._previous: dict = {}

    def __enter__(self) -> _StopSignals:
        self._previous = {sig: signal.signal(sig, self._record) for sig in STOP_SIGNALS}
        return self

    def __exit__(self, *exc) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)

    def _record(self, signum: int, _frame) -> None:
        if self.received is None:
            self.received = signum

    def check(self) -> None:
        """Raise :class:`_Stopped` if a stop signal has come."""
        if self.received is not None:
            raise _Stopped(self.received)

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (a signal's handler runs meanwhile), then :meth:`check`."""
        time.sleep(seconds)
        self.check()

    def ignore(self) -> None:
        """From now on a stop signal does nothing (while everything is being stopped)."""
        for sig in STOP_SIGNALS:
            signal.signal(sig, signal.SIG_IGN)


def find_proxy() -> str:
    """The ``nginx`` binary, or a ValueError saying which package to install."""
    found = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )
    if found is None:
        raise ValueError(
            "olearn app --workers needs nginx as its reverse proxy and none was found: "
            f"install it (Debian/Ubuntu: apt-get install {PROXY_PACKAGE}; macOS: brew install "
            "nginx), or run without --workers for one Streamlit process"
        )
    return found


def streamlit_static_dir() -> Path:
    """Streamlit's own static folder (``index.html`` and ``static/js``, ``static/css``...)."""
    import streamlit

    return Path(streamlit.__file__).resolve().parent / "static"


def _cache_root() -> Path:
    env = os.environ.get("OLEARN_STATIC_CACHE")
    if env:
        return Path(env).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or "~/.cache").expanduser() / "olearn" / "static"


def static_cache(source: Path | None = None, root: Path | None = None) -> Path:
    """A folder whose ``static/`` mirrors Streamlit's ``static/static`` with a ``.gz`` copy of
    every compressible file, for nginx's ``root`` + ``gzip_static``.

    Made once per Streamlit version (about 2 s; ``$OLEARN_STATIC_CACHE`` or
    ``~/.cache/olearn/static`` holds it); later calls return the existing folder.
    """
    import streamlit

    source = Path(source) if source is not None else streamlit_static_dir()
    root = Path(root) if root is not None else _cache_root()
    final = root / f"streamlit-{streamlit.__version__}"
    if (final / "static").is_dir():
        return final
    root.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=".building-", dir=root))
    try:
        shutil.copytree(source / "static", building / "static")
        for path in (building / "static").rglob("*"):
            if path.is_file() and path.suffix in COMPRESSIBLE:
                data = path.read_bytes()
                packed = gzip.compress(data, compresslevel=9, mtime=0)
                if len(packed) < len(data):
                    path.with_name(path.name + ".gz").write_bytes(packed)
        for path in [building, *building.rglob("*")]:  # nginx's workers may run as another user
            path.chmod(0o755 if path.is_dir() else 0o644)
        try:
            building.rename(final)
        except OSError:  # another process made it meanwhile
            if not (final / "static").is_dir():
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return final


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free on ``host`` now."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def check_free(address: str, port: int) -> None:
    """An OSError saying so if nginx could not listen on ``address:port``."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with socket.socket(family) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((address, port))
        except OSError as exc:
            raise OSError(
                f"cannot listen on {address}:{port} ({exc.strerror}): choose another "
                "--server.port, or stop what uses it"
            ) from None


def nginx_config(
    worker_ports: Sequence[int],
    *,
    listen: str,
    static: Path,
    run_dir: Path,
    max_body_mib: int,
    upstream_header: bool = False,
) -> str:
    """The proxy's configuration (from :data:`TEMPLATE`) for workers on ``worker_ports``;
    with ``upstream_header``, every proxied response names the worker that answered
    (:data:`UPSTREAM_HEADER`)."""
    names = [f"w{i}" for i in range(len(worker_ports))]
    servers = [f"127.0.0.1:{port}" for port in worker_ports]
    upstreams = "\n".join(
        f"    upstream {name} {{\n        server {server};\n    }}"
        for name, server in zip(names, servers)
    )
    upstreams += "\n    upstream olearn_any {\n        least_conn;\n"
    upstreams += "".join(f"        server {server};\n" for server in servers) + "    }"
    user = ""
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # else nginx's workers would be nobody
        import grp
        import pwd

        user = f"user {pwd.getpwuid(0).pw_name} {grp.getgrgid(0).gr_name};"
    values = {
        "RUN": str(run_dir),
        "USER": user,
        "MAX_BODY": f"{max_body_mib}m",
        "KNOWN": "\n".join(f"        {name} {name};" for name in names),
        "CHOSEN": "\n".join(f'        "{srv}" {name};' for name, srv in zip(names, servers)),
        "COOKIE": COOKIE,
        "UPSTREAMS": upstreams,
        "LISTEN": listen,
        "STATIC": str(static),
        "UPSTREAM_HEADER": f"            add_header {UPSTREAM_HEADER} $upstream_addr always;"
        if upstream_header
        else f"            # no {UPSTREAM_HEADER} (the workers' private ports) unless asked for",
    }
    text = TEMPLATE.read_text()
    for key, value in values.items():
        text = text.replace(f"@{key}@", value)
    return text


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """Linux: the child gets SIGTERM if ``olearn app`` itself is killed (SIGKILL)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _start(argv: Sequence[str], **kwargs) -> subprocess.Popen:
    preexec = _die_with_parent if sys.platform.startswith("linux") else None
    return subprocess.Popen(list(argv), preexec_fn=preexec, **kwargs)  # noqa: PLW1509


def wait_healthy(
    url: str,
    procs: Sequence[subprocess.Popen],
    timeout: float = 120.0,
    check: Callable[[], None] | None = None,
) -> None:
    """Wait until ``url`` answers 200; an OSError (the CLI's one-line error) if any of
    ``procs`` exits meanwhile, a TimeoutError if nothing answers.  ``check()`` is called
    before each try (:func:`serve`'s: it raises once a stop signal has come)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check is not None:
            check()
        for proc in procs:
            if proc.poll() is not None:
                name = Path(proc.args[0]).name
                hint = " (is the port in use? see its message above)" if name == "nginx" else ""
                raise OSError(f"{name} exited with code {proc.returncode} while starting{hint}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise TimeoutError(f"no answer from {url} within {timeout:.0f} s")


def stop(procs: Sequence[subprocess.Popen], timeout: float = 10.0) -> None:
    """SIGTERM every process still running, then SIGKILL what is left after ``timeout``."""
    for proc in procs:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                proc.terminate()
    deadline = time.monotonic() + timeout
    for proc in procs:
        try:
            proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def serve(
    worker_command: Callable[[int], list[str]],
    *,
    workers: int,
    address: str = "0.0.0.0",
    port: int = 8501,
    max_body_mib: int = 200,
    on_ready: Callable[[list[subprocess.Popen]], None] | None = None,
    upstream_header: bool = False,
) -> int:
    """Run ``workers`` Streamlit processes and nginx in front of them until a signal.

    Parameters
    ----------
    worker_command : callable
        ``worker_command(port)``: the command line of one Streamlit process listening on
        ``127.0.0.1:port``.
    workers : int
        How many Streamlit processes (at least 1).
    address, port : str, int
        Where nginx listens: the one public address.
    max_body_mib : int
        The largest request body (uploads) nginx lets through, in MiB.
    on_ready : callable, optional
        Called with every process (workers, then nginx) once the proxy answers.
    upstream_header : bool
        Add :data:`UPSTREAM_HEADER` (the worker that answered, ``127.0.0.1:<port>``) to every
        proxied response: for checking where sessions go; off by default, as it tells
        visitors the workers' private ports.

    Returns
    -------
    int
        0 after SIGTERM/SIGINT (whenever it came: what was started is stopped), 1 if a
        process exited by itself (every other one is stopped).
    """
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    procs: list[subprocess.Popen] = []
    run_dir: Path | None = None
    # the handlers first: a stop signal at any later moment is seen at the next check
    with _StopSignals() as stopping:
        try:
            nginx = find_proxy()
            check_free(address, port)  # before starting anything
            static = static_cache()
            stopping.check()
            run_dir = Path(tempfile.mkdtemp(prefix="olearn-app-"))
            run_dir.chmod(0o755)
            ports = [free_port() for _ in range(workers)]
            for p in ports:
                stopping.check()
                procs.append(_start(worker_command(p), stdout=subprocess.DEVNULL))
            for p in ports:
                wait_healthy(f"http://127.0.0.1:{p}/_stcore/health", procs, check=stopping.check)
            listen = f"[{address}]:{port}" if ":" in address else f"{address}:{port}"
            conf = run_dir / "nginx.conf"
            conf.write_text(
                nginx_config(
                    ports,
                    listen=listen,
                    static=static,
                    run_dir=run_dir,
                    max_body_mib=max_body_mib,
                    upstream_header=upstream_header,
                )
            )
            stopping.check()
            procs.append(_start([nginx, "-p", str(run_dir), "-c", str(conf)]))
            host = "127.0.0.1" if address in ("0.0.0.0", "::", "") else address
            health = f"http://{host}:{port}/_stcore/health"
            wait_healthy(health, procs, timeout=30, check=stopping.check)
            print(
                f"olearn: serving on http://{host}:{port} ({workers} Streamlit processes "
                "behind nginx); SIGINT/SIGTERM stop them all",
                file=sys.stderr,
                flush=True,
            )
            if on_ready is not None:
                on_ready(procs)
            while all(proc.poll() is None for proc in procs):
                stopping.sleep(0.5)
            gone = next(proc for proc in procs if proc.poll() is not None)
            print(
                f"olearn: {Path(gone.args[0]).name} (pid {gone.pid}) exited with code "
                f"{gone.returncode}: stopping the others",
                file=sys.stderr,
            )
            return 1
        except _Stopped:
            return 0
        finally:
            stopping.ignore()  # a second signal while stopping must not leave half of them
            try:
                stop(procs)
            finally:
                if run_dir is not None:
                    shutil.rmtree(run_dir, ignore_errors=True)
