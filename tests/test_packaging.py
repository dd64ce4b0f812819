"""Packaging: every import is declared in pyproject.toml (the library's in its dependencies,
the app's in the [app] extra), and the app's Streamlit settings are the same whether it is
started by ``streamlit run app.py`` (``.streamlit/config.toml``) or ``olearn app``."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

from olearn.app.launch import SETTINGS

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
# import name -> distribution name, where they differ
DISTRIBUTION = {"sklearn": "scikit-learn", "yaml": "pyyaml"}


def _requirement_names(requirements: list[str]) -> set[str]:
    names = set()
    for req in requirements:
        name = req.split(";")[0].split("[")[0]
        for sep in "<>=!~ ":
            name = name.split(sep)[0]
        names.add(name.strip().lower())
    return names


def _imports(path: Path) -> set[str]:
    """Top-level names of the modules ``path`` imports (all of them, lazy ones included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def _third_party(paths) -> set[str]:
    names = set().union(*(_imports(p) for p in paths))
    names -= set(sys.stdlib_module_names) | {"olearn", "__future__"}
    return {DISTRIBUTION.get(n, n).lower() for n in names}


def _declared(*extras: str) -> set[str]:
    project = PYPROJECT["project"]
    declared = _requirement_names(project["dependencies"])
    for extra in extras:
        declared |= _requirement_names(project["optional-dependencies"][extra])
    return declared


APP_LAYER = {"app", "pages", "viz"}  # plotly and streamlit: the [app] extra


def test_library_imports_are_base_dependencies():
    files = [
        p
        for p in (ROOT / "olearn").rglob("*.py")
        if p.relative_to(ROOT / "olearn").parts[0] not in APP_LAYER
    ]
    # optional extras, imported only when asked for: the experiment engine's dask backend,
    # and River by olearn.river (the [river] extra)
    optional = _requirement_names(["distributed", "dask"]) | _declared("river")
    missing = _third_party(files) - _declared() - optional
    assert not missing, f"imported but not in [project] dependencies: {sorted(missing)}"


def test_app_imports_are_in_the_app_extra():
    files = [
        p
        for p in (ROOT / "olearn").rglob("*.py")
        if p.relative_to(ROOT / "olearn").parts[0] in APP_LAYER
    ]
    missing = _third_party(files) - _declared("app")
    assert not missing, f"imported by the app but not in [app]: {sorted(missing)}"


def test_streamlit_config_matches_the_launcher():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    flat = {f"{section}.{k}": v for section, table in config.items() for k, v in table.items()}
    assert flat == SETTINGS


def test_page_scripts_ship_with_the_package():
    data = PYPROJECT["tool"]["setuptools"]["package-data"]["olearn"]
    assert "pages/*.py" in data
    assert PYPROJECT["project"]["scripts"]["olearn"] == "olearn.cli:console"


def test_upload_limit_is_one_number():
    """The server's upload limit (``olearn app`` and ``streamlit run app.py``) is the upload
    parser's: Streamlit's default (200 MB) once accepted files the page refused."""
    from olearn.datasets.upload import MAX_BYTES

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    mib = 1024 * 1024  # Streamlit's megabytes: max_size_bytes = maxUploadSize * 1024 * 1024
    assert SETTINGS["server.maxUploadSize"] * mib == MAX_BYTES
    assert config["server"]["maxUploadSize"] * mib == MAX_BYTES
