"""No JavaScript or CSS longer than a line lives in a Python string (issue 20, item 1): browser
code is in asset files (``olearn/app/components/assets``, ``olearn/viz/assets``), which Biome
formats and lints in CI.  A one-line rule a function builds from data (a selector with a key in
it) is allowed; a block of code is not.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [*sorted((ROOT / "olearn").rglob("*.py")), *sorted((ROOT / "pages").glob("*.py"))]

# what gives browser code away: a tag with code after it (a tag around an asset's text is
# glue), a function, an arrow, an event hook, a CSS declaration
BROWSER = re.compile(
    r"<(?:style|script)[^>]*>\s*[^\s<]|\bfunction\s*\(|=>\s*[{(]|addEventListener|"
    r"[\w\])\"*]\s*\{\s*[-\w]+\s*:[^;{}]*;"
)


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def offenders(source: str, name: str = "<string>") -> list[str]:
    """``name:line`` of each string literal of ``source`` of several lines that holds browser
    code (docstrings excepted: they show code, they do not ship it)."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            if "\n" in node.value.strip() and BROWSER.search(node.value):
                found.append(f"{name}:{node.lineno}")
    return found


def test_the_check_finds_browser_code_in_a_string():
    js = 'X = """<script>\nwindow.addEventListener("load", () => {});\n</script>"""\n'
    css = 'Y = """\n[data-testid="x"] { display: none; }\n.y { padding: 0; }\n"""\n'
    fine = 'Z = f"<style>.k {{ display: none; }}</style>"\nW = """two\nlines of prose"""\n'
    assert offenders(js) and offenders(css)
    assert not offenders(fine)


def test_no_browser_code_lives_in_a_python_string():
    found = [hit for p in SOURCES for hit in offenders(p.read_text(), str(p.relative_to(ROOT)))]
    assert not found, f"move these to an asset file (olearn/app/components/assets): {found}"
