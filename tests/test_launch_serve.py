"""``olearn app``'s server prepares the pages from its start (issue 17: the cold first visit).

What is ours: :mod:`olearn.app.server.serve` starts the preparation thread *before*
Streamlit's server and hands Streamlit exactly the command line ``streamlit run`` would get;
the preparation imports every olearn module a page imports.  (That it gives way to pages being
drawn: tests/test_server_background.py.  The seconds it saves are measured, not asserted:
``python -m benchmarks.app_timing --cold``.)
"""

from __future__ import annotations

import ast
import gc
import subprocess
import sys
from pathlib import Path

import pytest

from olearn import _warmup
from olearn.app import ENTRY
from olearn.app.server import background, launch, serve

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("enabled", [True, False])
def test_serve_starts_the_preparation_before_streamlit(monkeypatch, enabled):
    pytest.importorskip("streamlit")
    import streamlit.web.cli

    calls = []
    monkeypatch.setattr(_warmup, "enabled", lambda: enabled)

    def start_background(first, then):
        calls.append(("prepare", first))
        gc.unfreeze()
        try:
            then()  # the heap frozen (olearn.app.server.heap), and the console's last line
            calls.append(("frozen", gc.get_freeze_count() > 0))
        finally:
            gc.unfreeze()  # the rest of the suite runs with an ordinary heap

    monkeypatch.setattr(background, "start_background", start_background)
    monkeypatch.setattr(
        streamlit.web.cli, "main", lambda prog_name: calls.append((prog_name, list(sys.argv)))
    )
    monkeypatch.setattr(sys, "argv", ["before"])
    monkeypatch.setattr(serve, "say", lambda message: calls.append(message[:26]))
    monkeypatch.setattr(serve, "network_address", lambda: None)  # (test_serve_names_...)
    serve.main(["--server.port", "8600"])
    streamlit_call = ("streamlit", ["streamlit", "run", str(ENTRY), "--server.port", "8600"])
    if enabled:
        said = ["olearn: preparing the page", "olearn: pages prepared in "]  # (N s: any)
        prepared = ("prepare", serve.prepare)
        assert calls == [said[0], prepared, said[1], ("frozen", True), streamlit_call]
    else:
        assert calls == [streamlit_call]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--server.port", "8600"], "http://192.0.2.7:8600"),  # every address, by default
        (["--server.address=0.0.0.0"], "http://192.0.2.7:8501"),
        (["--server.address", "::", "--server.port=9000"], "http://192.0.2.7:9000"),
        (["--server.address", "127.0.0.1"], None),  # this machine only (a worker)
        (["--server.port", "not-a-port"], None),  # Streamlit says what is wrong
    ],
)
def test_serve_names_the_network_link_on_every_address(monkeypatch, argv, said):
    """Streamlit's banner names ``browser.serverAddress`` only (set, so that it asks no one
    for an "External URL"): ``olearn app`` on every address says the link students open."""
    lines = []
    monkeypatch.setattr(serve, "say", lines.append)
    monkeypatch.setattr(serve, "network_address", lambda: "192.0.2.7")
    serve.say_network_url(argv)
    assert lines == ([f"olearn: students on this network open {said}"] if said else [])
    monkeypatch.setattr(serve, "network_address", lambda: None)  # no network
    del lines[:]
    serve.say_network_url(argv)
    assert lines == []


def test_olearn_app_runs_the_serving_module_with_the_apps_settings():
    argv = launch.command(["--server.port", "8600"])
    assert argv[:3] == [sys.executable, "-m", "olearn.app.server.serve"]
    assert "--server.fileWatcherType=none" in argv and argv[-2:] == ["--server.port", "8600"]


def _olearn_imports_of_the_pages() -> set[str]:
    """Every ``olearn`` module a page script imports, read from the scripts themselves."""
    names = set()
    for script in (ROOT / "pages").glob("*.py"):
        for node in ast.walk(ast.parse(script.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("olearn"):
                names.add(node.module)
            elif isinstance(node, ast.Import):
                names.update(a.name for a in node.names if a.name.startswith("olearn"))
    return names


def test_preparation_imports_every_olearn_module_the_pages_import():
    """In a fresh interpreter (this one has imported them already): nothing fails, and every
    module a page script names is loaded afterwards, with the heavy third-party ones."""
    pytest.importorskip("streamlit")
    wanted = sorted(_olearn_imports_of_the_pages() | set(serve.THIRD_PARTY))
    assert "olearn.app.cached" in wanted  # the reading of the scripts found their imports
    code = (
        "import sys\nfrom olearn.app.server.serve import import_pages_modules\n"
        "failed = import_pages_modules()\n"
        f"missing = [m for m in {wanted!r} if m not in sys.modules]\n"
        "assert not failed and not missing, (failed, missing)\n"
        "assert 'olearn.app.streamlit_app' not in sys.modules  # the entry script is not run"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-2000:]
