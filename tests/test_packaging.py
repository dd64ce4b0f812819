"""Packaging: every import is declared in pyproject.toml (the library's in its dependencies,
the app's in the [app] extra), and the app's Streamlit settings are the same whether it is
started by ``streamlit run app.py`` (``.streamlit/config.toml``) or ``olearn app``."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

from olearn.app.server.launch import SETTINGS

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

    def flat(table: dict, prefix: str = "") -> dict:  # [theme.dark] -> "theme.dark.<name>"
        out = {}
        for k, v in table.items():
            out.update(flat(v, f"{prefix}{k}.") if isinstance(v, dict) else {prefix + k: v})
        return out

    assert flat(config) == SETTINGS


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


# --- the package's own truths: licence, version, classifiers -----------------------------------


def _build_wheel(tmp_path: Path) -> Path:
    """Build the wheel from a copy of the sources (the build leaves nothing in the clone)."""
    import shutil
    import subprocess

    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", ".olearn_cache")
    shutil.copytree(ROOT / "olearn", src / "olearn", symlinks=True, ignore=ignore)
    shutil.copytree(ROOT / "pages", src / "pages", ignore=ignore)
    out = tmp_path / "wheel"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-q", "-w", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    (wheel,) = out.glob("olearn-*.whl")
    return wheel


def test_wheel_carries_the_licence_and_the_version(tmp_path):
    import email
    import zipfile

    with zipfile.ZipFile(_build_wheel(tmp_path)) as wheel:
        names = wheel.namelist()
        (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        meta = email.message_from_bytes(wheel.read(metadata))
        (licence,) = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
        assert wheel.read(licence) == (ROOT / "LICENSE").read_bytes()
        assert "olearn/pages/playground.py" in names  # page scripts, not a dangling link
        assets = ROOT / "olearn" / "app" / "components" / "assets"  # their browser code, the icon
        where = "olearn/app/components/assets"
        shipped = {f"{where}/{p.name}" for p in assets.glob("*.*") if p.suffix != ".py"}
        assert shipped and shipped <= set(names), shipped - set(names)
        assert "olearn/app/server/nginx.conf.template" in names  # olearn app --workers's proxy
    assert meta["Version"] == PYPROJECT["project"]["version"]
    assert meta["License-Expression"] == "BSD-3-Clause"


def test_licence_file_is_bsd_3_clause():
    text = (ROOT / "LICENSE").read_text()
    assert PYPROJECT["project"]["license"] == "BSD-3-Clause"
    assert text.startswith("BSD 3-Clause License") and "olearn developers" in text
    assert "Neither the name of the copyright holder" in text  # the third clause


def test_one_version():
    """``olearn.__version__`` is read from the metadata, never written in the code."""
    import importlib.metadata

    import olearn

    assert olearn.__version__ == importlib.metadata.version("olearn")
    source = (ROOT / "olearn" / "__init__.py").read_text()
    assert not re.search(r"__version__ = .\d+\.\d+", source)  # no second, hand-kept number


def test_classifiers_are_valid_trove_classifiers():
    trove = pytest.importorskip("trove_classifiers")
    classifiers = PYPROJECT["project"]["classifiers"]
    assert not set(classifiers) - trove.classifiers
    assert not [c for c in classifiers if c.startswith("License ::")]  # PEP 639: the SPDX field
    versions = {c.rsplit(" :: ", 1)[1] for c in classifiers if c.count("::") == 2 and "3." in c}
    low = PYPROJECT["project"]["requires-python"].removeprefix(">=")
    assert min(versions, key=lambda v: tuple(map(int, v.split(".")))) == low


def test_citation_cff_cites_olearn_and_the_five_seeds():
    """CITATION.cff (validated once by ``cffconvert --validate``): the keys CFF 1.2.0
    requires, this version and licence, and a reference for every seed."""
    yaml = pytest.importorskip("yaml")
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0"
    assert {"message", "title", "authors"} <= set(cff)
    assert str(cff["version"]) == PYPROJECT["project"]["version"]
    assert cff["license"] == PYPROJECT["project"]["license"]
    for ref in cff["references"]:
        assert {"type", "title", "authors"} <= set(ref), ref.get("title")
        assert ref["authors"] and all(isinstance(a, dict) and a for a in ref["authors"])
    seeds = {n[:3] for n in re.findall(r"Seed (\d{3})", yaml.safe_dump(cff, allow_unicode=True))}
    assert seeds == {"000", "001", "002", "003", "004"}
