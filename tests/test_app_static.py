"""The app's rules that can be read off the source: pages stay thin (no numpy, no array maths),
every page runs inside the error guard, and every UI string exists in both languages."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from olearn.teaching.strings import STRINGS, t

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "pages").glob("*.py"))
APP_FILES = [ROOT / "app.py", *PAGES]
# modules that would let a page do numerical work itself
FORBIDDEN = {"numpy", "scipy", "numba", "sklearn", "pandas", "quadprog"}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), filename=str(path))


@pytest.mark.parametrize("path", APP_FILES, ids=lambda p: p.name)
def test_pages_import_no_numerical_library(path):
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            roots = {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            roots = {(node.module or "").split(".")[0]}
        else:
            continue
        assert not roots & FORBIDDEN, f"{path.name}:{node.lineno} imports {roots & FORBIDDEN}"


@pytest.mark.parametrize("path", APP_FILES, ids=lambda p: p.name)
def test_pages_do_no_array_arithmetic(path):
    """No matrix products, no numpy-style reductions or slicing on tuples of indices: what a
    page computes is bookkeeping on scalars (clamping an index, adding one to t)."""
    for node in ast.walk(_tree(path)):
        assert not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult)), (
            f"{path.name}:{node.lineno} uses @"
        )
        if isinstance(node, ast.Attribute):
            assert node.attr not in {
                "dot",
                "sum",
                "mean",
                "cumsum",
                "argmax",
                "outer",
                "reshape",
                "T",
                "linalg",
            }, f"{path.name}:{node.lineno} calls .{node.attr}"
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple):
            assert not any(isinstance(e, ast.Slice | ast.Constant) for e in node.slice.elts), (
                f"{path.name}:{node.lineno} indexes an array with a tuple"
            )


@pytest.mark.parametrize(
    "path", [p for p in PAGES if not p.name.startswith("_")], ids=lambda p: p.name
)
def test_every_page_body_runs_inside_the_guard(path):
    tree = _tree(path)
    guards = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.With)
        and any(
            isinstance(i.context_expr, ast.Call)
            and getattr(i.context_expr.func, "id", "") == "guard"
            for i in n.items
        )
    ]
    assert guards, f"{path.name} has no `with guard():`"
    top = [
        n
        for n in tree.body
        if not isinstance(n, ast.Import | ast.ImportFrom | ast.FunctionDef | ast.Assign | ast.Expr)
    ]
    assert all(n in guards for n in top), f"{path.name}: statements outside the guard"


def test_the_frame_guards_every_page():
    tree = _tree(ROOT / "olearn" / "app" / "frame.py")
    assert any(
        isinstance(n, ast.With) and "navigation.run" in ast.unparse(n) for n in ast.walk(tree)
    )


def test_pages_folder_holds_page_scripts_only():
    """Every file in pages/ is a page of the navigation; the package ships them through the
    link olearn/pages; the installed entry script has no ``pages/`` folder beside it, and the
    clone's app.py, which has, is covered by every page calling ``require_frame`` first."""
    from olearn.app import ENTRY, PAGES_DIR
    from olearn.app.frame import PAGES as NAVIGATION

    assert sorted(p.stem for p in PAGES) == sorted(p.key for p in NAVIGATION)
    assert (ROOT / "olearn" / "pages").is_symlink() and PAGES_DIR == (ROOT / "pages").resolve()
    assert not (ENTRY.parent / "pages").exists()


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_every_page_asks_for_the_frame_before_drawing(path):
    """The first statement after a page's imports is ``require_frame()``."""
    body = [
        n
        for n in _tree(path).body
        if not isinstance(n, ast.Expr | ast.Import | ast.ImportFrom)
        or (isinstance(n, ast.Expr) and not isinstance(n.value, ast.Constant))
    ]
    first = body[0]
    assert ast.unparse(first) == "require_frame()", f"{path.name} starts with {ast.unparse(first)}"


def test_no_private_streamlit_api():
    """The app uses Streamlit's public API only (no ``streamlit.runtime`` internals)."""
    sources = [*PAGES, *(ROOT / "olearn" / "app").glob("*.py"), ROOT / "app.py"]
    sources += [*(ROOT / "tests").glob("*.py"), *(ROOT / "benchmarks").glob("*.py")]
    sources = [p for p in sources if p.name != "test_app_static.py"]
    for path in sources:
        text = path.read_text(encoding="utf-8")
        for private in ("PagesManager", "streamlit.runtime", "uses_pages_directory"):
            assert private not in text, f"{path.name} uses {private}"


def test_pages_do_not_stop_their_run():
    """No page calls ``st.stop()``: the frame takes a run that ends without an exception for
    a completed one, and only then lets go of the values callbacks set
    (:meth:`olearn.app.ui.Controls.set`)."""
    for path in PAGES:
        assert "st.stop(" not in path.read_text(encoding="utf-8"), path.name


def test_static_check_catches_numpy(tmp_path):
    """The checks above can fail: a page that imports numpy is flagged."""
    bad = tmp_path / "bad.py"
    bad.write_text("import numpy as np\nx = np.ones(3) @ np.ones(3)\ny = x[:, 0]\n")
    with pytest.raises(AssertionError):
        test_pages_import_no_numerical_library(bad)
    with pytest.raises(AssertionError):
        test_pages_do_no_array_arithmetic(bad)


@pytest.mark.parametrize("key", sorted(STRINGS))
def test_every_string_has_both_languages_with_the_same_placeholders(key):
    en, ja = STRINGS[key]
    assert en.strip() and ja.strip()
    fields = re.compile(r"\{(\w+)\}")
    assert sorted(fields.findall(en)) == sorted(fields.findall(ja)), key


def test_japanese_is_a_translation_not_a_copy():
    translated = [k for k, (en, ja) in STRINGS.items() if en != ja]
    assert len(translated) > 0.9 * len(STRINGS) - 10


def test_every_string_key_used_in_the_app_exists():
    used = set()
    sources = [
        *APP_FILES,
        *(ROOT / "olearn" / "teaching").glob("*.py"),
        *(ROOT / "olearn" / "viz").glob("*.py"),
    ]
    for path in sources:
        used |= set(re.findall(r"""\btr?\(\s*["']([a-z_]+\.[\w.\-]+)["']""", path.read_text()))
    missing = {k for k in used if k not in STRINGS}
    assert not missing, missing
    assert t("spa.sub.test.title", "ja", k=2).endswith("k = 2")  # numbered by the walk
