"""``olearn app --workers N``'s parts, without starting a server: the nginx configuration
(checked by nginx itself, ``nginx -t``), the options' parsing, the clear errors, and the
app-only requirements file.  The running proxy and workers: tests/test_browser_app_load.py."""

from __future__ import annotations

import ast
import re
import shutil
import socket
import subprocess
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from olearn import cli
from olearn.app.server import hosting, launch

ROOT = Path(__file__).resolve().parents[1]
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


@pytest.mark.parametrize(
    ("workers", "upstream_header"), [(1, False), (2, True), (3, False), (7, False)]
)
def test_nginx_accepts_the_configuration(tmp_path, workers, upstream_header):
    """nginx's own check (``-t``) of the generated file, and the sticky split's shares."""
    if not Path(NGINX).exists():
        pytest.fail("nginx is needed (apt-get install nginx)")
    (tmp_path / "static" / "static").mkdir(parents=True)
    ports = [20000 + k for k in range(workers)]
    text = hosting.nginx_config(
        ports,
        listen="127.0.0.1:8501",
        static=tmp_path / "static",
        run_dir=tmp_path,
        max_body_mib=50,
        upstream_header=upstream_header,
    )
    assert "@" not in re.sub(r"#.*", "", text)  # every placeholder filled
    # the worker's address in responses only when asked for (issue 30, item 17)
    assert ("X-Olearn-Upstream $upstream_addr" in re.sub(r"#.*", "", text)) is upstream_header
    conf = tmp_path / "nginx.conf"
    conf.write_text(text)
    done = subprocess.run(
        [NGINX, "-t", "-p", str(tmp_path), "-c", str(conf)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    # every worker reachable by its cookie, every one a candidate for a new visitor, and the
    # cookie set to the name of the worker that answered
    for k, port in enumerate(ports):
        assert f"upstream w{k} {{\n        server 127.0.0.1:{port};" in text
        assert f"        w{k} w{k};" in text
        assert f'        "127.0.0.1:{port}" w{k};' in text
    chooser = text[text.index("upstream olearn_any {") :].split("}", 1)[0]
    assert "least_conn;" in chooser and chooser.count("server 127.0.0.1:") == workers


def test_a_missing_proxy_says_which_package(monkeypatch, capsys):
    monkeypatch.setattr(hosting.shutil, "which", lambda name: None)
    monkeypatch.setattr(hosting.os, "access", lambda path, mode: False)
    with pytest.raises(ValueError, match="apt-get install nginx"):
        hosting.find_proxy()
    # the CLI: one line, exit status 2, nothing started
    assert cli.main(["app", "--workers", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("olearn: error:") and "apt-get install nginx" in err


def test_a_public_port_in_use_is_a_clear_error_before_anything_starts(monkeypatch, capsys):
    started = []
    monkeypatch.setattr(hosting, "find_proxy", lambda: "/usr/sbin/nginx")
    monkeypatch.setattr(hosting, "_start", lambda *a, **k: started.append(a))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        argv = ["app", "--workers", "2", "--server.port", str(port)]
        assert cli.main([*argv, "--server.address", "127.0.0.1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("olearn: error: cannot listen on 127.0.0.1:") and started == []


@pytest.mark.parametrize("bad", ["0", "-1", "two", "65"])
def test_a_bad_worker_count_is_a_usage_error(bad, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["app", "--workers", bad])
    assert exc.value.code == 2 and "--workers" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "workers", "rest"),
    [
        (["--workers", "3", "--server.port", "9"], 3, ["--server.port", "9"]),
        (["--server.port=9", "--workers=2"], 2, ["--server.port=9"]),
        (["--server.port", "9"], None, ["--server.port", "9"]),
        (["--", "--workers", "2"], None, ["--", "--workers", "2"]),  # the script's own
    ],
)
def test_workers_is_taken_out_of_streamlit_options(argv, workers, rest):
    assert cli._take_workers(argv, None) == (rest, workers)


def test_the_public_address_goes_to_the_proxy_and_the_rest_to_each_worker():
    address, port, rest = launch.split_public(
        ["--server.address", "::", "--theme.base=dark", "--server.port=8600"]
    )
    assert (address, port, rest) == ("::", 8600, ["--theme.base=dark"])
    argv = launch.worker_command(41000, rest)
    # the worker's own address, port and headless mode come last: they win
    assert argv[-3:] == [
        "--server.address=127.0.0.1",
        "--server.port=41000",
        "--server.headless=true",
    ]
    assert "--theme.base=dark" in argv
    # after "--", the app script's own arguments: neither the proxy's nor before the worker's
    address, port, rest = launch.split_public(["--theme.base=dark", "--", "--server.port=1"])
    assert (address, port, rest) == (
        "0.0.0.0",
        8501,
        ["--theme.base=dark", "--", "--server.port=1"],
    )
    argv = launch.worker_command(41000, rest)
    assert argv[-6:] == [
        "--theme.base=dark",
        "--server.address=127.0.0.1",
        "--server.port=41000",
        "--server.headless=true",
        "--",
        "--server.port=1",
    ]


BAD_PORTS = ["99999", "65536", "-1", "0", "x", "8.5", ""]


@pytest.mark.parametrize("workers", [[], ["--workers", "2"]])
@pytest.mark.parametrize("form", ["apart", "joined"])
@pytest.mark.parametrize("bad", BAD_PORTS)
def test_a_port_that_is_none_is_one_line_and_status_2_before_anything_starts(
    monkeypatch, capsys, bad, form, workers
):
    """Issue 30, item 13: ``--server.port 99999`` (or -1) was "unexpected error:
    OverflowError" with ``--workers``, Streamlit's traceback without."""
    started = []
    monkeypatch.setattr(hosting, "find_proxy", lambda: "/usr/sbin/nginx")
    monkeypatch.setattr(hosting, "_start", lambda *a, **k: started.append(a))
    monkeypatch.setattr(launch, "run", lambda extra=(): started.append(extra) or 0)
    port = ["--server.port", bad] if form == "apart" else [f"--server.port={bad}"]
    assert cli.main(["app", *workers, *port, "--server.address", "127.0.0.1"]) == 2
    err = capsys.readouterr().err
    assert (
        err == f"olearn: error: --server.port must be a port number from 1 to 65535, got {bad!r}\n"
    )
    assert started == []


def test_a_workers_port_out_of_range_is_refused():
    with pytest.raises(ValueError, match="a worker's port must be a port number"):
        launch.worker_command(70000)
    assert launch.port_number("1") == 1 and launch.port_number("65535") == 65535


def test_static_cache_has_a_gzip_copy_of_every_compressible_file(tmp_path):
    source = tmp_path / "src"
    (source / "static" / "js").mkdir(parents=True)
    big = b"const x = 1;\n" * 500
    (source / "static" / "js" / "a.js").write_bytes(big)
    (source / "static" / "js" / "b.woff2").write_bytes(bytes(range(256)) * 8)
    folder = hosting.static_cache(source, tmp_path / "cache")
    import gzip

    js = folder / "static" / "js"
    assert gzip.decompress((js / "a.js.gz").read_bytes()) == big
    assert (js / "a.js").read_bytes() == big
    assert not (js / "b.woff2.gz").exists()  # compressed already: left as it is
    assert hosting.static_cache(source, tmp_path / "cache") == folder  # made once


def _requirement_names(requirements: list[str]) -> set[str]:
    return {
        re.split(r"[\s\[<>=!~;]", r, maxsplit=1)[0].lower().replace("_", "-") for r in requirements
    }


def test_the_app_only_requirements_install_what_the_app_imports():
    """requirements-app.txt is olearn with its [app] extra, and that extra with the core
    dependencies covers every third-party module olearn imports (but the modules of the
    [river] and [dask] extras): a hosting service that reads it can run ``olearn app``."""
    lines = [
        line.strip()
        for line in (ROOT / "requirements-app.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert lines == [".[app]"]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = _requirement_names(project["dependencies"] + project["optional-dependencies"]["app"])
    other_extras = {"river", "distributed", "dask"}
    dists = packages_distributions()
    needed: dict[str, str] = {}
    for path in (ROOT / "olearn").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top == "olearn" or top in other_extras:
                    continue
                for dist in dists.get(top, [top]):
                    needed[dist.lower().replace("_", "-")] = str(path.relative_to(ROOT))
    assert {"streamlit", "plotly", "numba"} <= set(needed)
    missing = {d: where for d, where in needed.items() if d not in declared}
    assert not missing, f"imported but not installed by olearn[app]: {missing}"


@pytest.mark.skipif(not Path(NGINX).exists() or not Path("/proc").is_dir(), reason="nginx")
@pytest.mark.parametrize(("env", "named"), [({}, False), ({"OLEARN_UPSTREAM_HEADER": "1"}, True)])
def test_responses_name_the_worker_only_when_asked(tmp_path, env, named):
    """Issue 30, item 17: every response of ``--workers`` carried ``X-Olearn-Upstream:
    127.0.0.1:<port>``, the workers' private ports.  The real command and nginx, with a
    stand-in worker (tests/launcher_harness.py); ``OLEARN_UPSTREAM_HEADER=1`` asks for it."""
    import urllib.request

    from tests import launcher_harness

    seen = []

    def look(port: int) -> None:
        for path in ("/", "/_stcore/health"):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
                seen.append((r.status, dict(r.headers)))

    out = launcher_harness.run(tmp_path, "serving", ["SIGTERM"], 1, env=env, on_serving=look)
    assert out.clean, out
    assert [status for status, _ in seen] == [200, 200]
    for _, headers in seen:
        assert headers["Set-Cookie"].startswith("olearn_worker=w0;")  # sticky, by name only
        upstream = headers.get("X-Olearn-Upstream", "")
        if named:
            assert re.fullmatch(r"127\.0\.0\.1:\d+", upstream), headers
        else:
            assert upstream == "" and "127.0.0.1" not in str(headers), headers


def test_an_unreadable_upstream_header_switch_is_one_line_before_anything_starts(
    monkeypatch, capsys
):
    started = []
    monkeypatch.setattr(hosting, "find_proxy", lambda: "/usr/sbin/nginx")
    monkeypatch.setattr(hosting, "_start", lambda *a, **k: started.append(a))
    monkeypatch.setenv("OLEARN_UPSTREAM_HEADER", "maybe")
    assert cli.main(["app", "--workers", "2", "--server.address", "127.0.0.1"]) == 2
    err = capsys.readouterr().err
    assert err == "olearn: error: OLEARN_UPSTREAM_HEADER must be 1 or 0, got 'maybe'\n"
    assert started == []
