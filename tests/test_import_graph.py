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


# -- the app's two houses (issue 29) ---------------------------------------------------------

SERVER = "olearn.app.server"
# What the page glue may use of the server house: the frame's hooks, and nothing else.
FRAME_HOOKS = {
    f"{SERVER}.background": {"page_running", "started", "warming", "start_background"},
    f"{SERVER}.heap": {"prepare_and_settle"},
}
SERVER_USERS = {"olearn.cli"}  # ``olearn app``: the launcher


def _in_server(name: str) -> bool:
    return name == SERVER or name.startswith(SERVER + ".")


def _reached(start: str, graph: dict[str, set[str]]) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for w in graph[todo.pop()] - seen:
            seen.add(w)
            todo.append(w)
    return seen


def test_the_warmup_compiles_and_knows_nothing_of_the_app():
    """``olearn._warmup`` is the library's: nothing it imports, even through other modules,
    is part of :mod:`olearn.app` (when to compile, around page draws, is the server's)."""
    known = modules(ROOT / "olearn")
    graph = {name: imports(name, known) for name in known}
    reached = _reached("olearn._warmup", graph)
    assert "olearn.registry" in reached  # the graph is read (the parts come from it)
    assert not {m for m in reached if m == "olearn.app" or m.startswith("olearn.app.")}


def _server_names_used(path: Path, known: dict) -> set[tuple[str, str]]:
    """``(module, name)`` for each name of the server house a file uses: ``from M import
    name``, or ``module.name`` after ``from P import module``; ``(M, "*")`` for a whole module
    imported, or a module handed on without naming what of it is used."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bound: dict[str, str] = {}  # local name -> server module
    uses = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            uses |= {(a.name, "*") for a in node.names if _in_server(a.name)}
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if _in_server(full) and full in known:
                    bound[alias.asname or alias.name] = full
                elif _in_server(node.module):
                    uses.add((node.module, alias.name))
    attributes = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in bound:
                uses.add((bound[node.value.id], node.attr))
                attributes.add(id(node.value))
    for node in ast.walk(tree):  # a bound module used other than as ``module.name``
        if isinstance(node, ast.Name) and node.id in bound and id(node) not in attributes:
            uses.add((bound[node.id], "*"))
    return uses


def test_only_the_frames_hooks_of_the_server_house_are_used_outside_it():
    """The rule of :mod:`olearn.app`: outside ``olearn/app/server/``, only ``olearn/cli.py``
    imports the server house, and the page glue's frame uses its hooks (:data:`FRAME_HOOKS`);
    no page script, no other module of ``olearn``."""
    known = modules(ROOT / "olearn")
    files = {name: path for name, (path, _) in known.items()}
    files |= {f"pages/{p.name}": p for p in (ROOT / "pages").glob("*.py")}
    files["app.py"] = ROOT / "app.py"
    found: dict[str, set[tuple[str, str]]] = {}
    for name, path in files.items():
        if _in_server(name) or name in SERVER_USERS:
            continue
        if uses := _server_names_used(path, known):
            found[name] = uses
    allowed = {(module, hook) for module, hooks in FRAME_HOOKS.items() for hook in hooks}
    assert set(found) == {"olearn.app.frame"}, found
    assert found["olearn.app.frame"] <= allowed, found["olearn.app.frame"] - allowed
    # and the checker sees what it must: the launcher's use by the CLI
    cli = _server_names_used(ROOT / "olearn" / "cli.py", known)
    assert (f"{SERVER}.launch", "run_workers") in cli


def test_the_server_rule_checker_sees_every_way_in(tmp_path):
    source = tmp_path / "glue.py"
    source.write_text(
        "from olearn.app.server import background, heap as h\n"
        "import olearn.app.server.launch\n"
        "from olearn.app.server.hosting import serve\n"
        "background.page_running()\nh.settle()\nf(background)\n"
    )
    assert _server_names_used(source, modules(ROOT / "olearn")) == {
        (f"{SERVER}.background", "page_running"),
        (f"{SERVER}.background", "*"),
        (f"{SERVER}.heap", "settle"),
        (f"{SERVER}.launch", "*"),
        (f"{SERVER}.hosting", "serve"),
    }
