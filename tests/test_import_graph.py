"""No import circle inside ``olearn``: every ``import`` (at the top of a module or inside a
function, absolute or relative) read from the source with ``ast``, the module graph built, and
its strongly connected components must all be single modules.  A package's ``__init__`` that
imports its own submodules is not a circle: ``from pkg import sub`` is an edge to ``pkg.sub``
only; nor is an import under ``if TYPE_CHECKING:`` (it never runs).  The checker itself is
tested on a small package with a circle."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def modules(package_dir: Path) -> dict[str, tuple[Path, bool]]:
    """Dotted name -> (file, is a package) for every module under ``package_dir``."""
    found = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = list(path.relative_to(package_dir.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def imports(name: str, known: dict) -> set[str]:
    """The modules of ``known`` that module ``name`` imports, anywhere in its source."""
    path, is_package = known[name]
    package = name if is_package else name.rpartition(".")[0]
    out = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(ast.Module(body=node.body, type_ignores=[]))
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            target = node.module or ""
            if node.level:  # relative: from the package, ``level - 1`` packages up
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.add(sub if sub in known else target)
    return (out & set(known)) - {name}


def circles(package_dir: Path) -> list[list[str]]:
    """The import graph's strongly connected components of more than one module (Tarjan)."""
    known = modules(package_dir)
    graph = {name: sorted(imports(name, known)) for name in known}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for name in graph:
        if name not in index:
            visit(name)
    return found


def test_olearn_has_no_import_circle():
    assert circles(ROOT / "olearn") == []


def test_the_checker_finds_a_circle_through_a_lazy_import(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from pkg import a\n")
    (pkg / "a.py").write_text("from .sub import b\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("def f():\n    from pkg.a import g\n")
    (pkg / "c.py").write_text("import pkg.a\n")
    typing_only = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.e\n"
    (pkg / "d.py").write_text(typing_only)
    (pkg / "e.py").write_text("import pkg.d\n")  # d -> e for type checkers only: no circle
    assert circles(pkg) == [["pkg.a", "pkg.sub.b"]]
