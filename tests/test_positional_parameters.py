"""No function outside ``olearn/kernels/`` takes more than 6 positional parameters (issue 20,
item 3): more is a setting that wants a value (:mod:`olearn.teaching.settings`) or keyword-only
extras.  Counted over the package's source by AST: positional-only and ordinary parameters,
``self``/``cls`` not counted, keyword-only ones (after ``*``) free.  Kernels are exempt (numba
takes arrays positionally)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "olearn"
LIMIT = 6


def positional_count(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """
    >>> positional_count(ast.parse("def f(self, a, /, b, *c, d, **e): pass").body[0])
    2
    """
    names = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
    return len(names) - (1 if names and names[0] in ("self", "cls") else 0)


def offenders() -> set[tuple[str, str]]:
    out = set()
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("kernels/"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                if positional_count(node) > LIMIT:
                    out.add((rel, node.name))
    return out


def test_the_counter_counts():
    src = "def f(a, b, c, d, e, f, g): pass\ndef g(a, b, c, d, e, f, *, g, h): pass"
    counts = [positional_count(n) for n in ast.parse(src).body]
    assert counts == [7, 6]


def test_no_function_outside_kernels_takes_more_than_six_positional_parameters():
    found = sorted(offenders())
    assert not found, f"more than {LIMIT} positional parameters (use a value or `*`): {found}"
