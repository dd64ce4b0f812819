"""One source for every hyper-parameter control (issue 29, item 4, the pages' half): no page or
teaching module writes a hyper-parameter's range, options or default; every slider is built
from the registry's :class:`~olearn.registry.Hyper` (checked in the running pages too).

The scan reads the source's syntax tree: a hyper-parameter's name (``C``, ``eta``, ``r``,
``b``, ``lam``, and names built on them: ``C_VALUES``, ``c_grid``, ``lambdas``) bound to a
number or a sequence of numbers, as a variable, a parameter's default, a dataclass field, a
call's keyword, ``.get(name, number)``, or the range and default arguments of a slider call.
A dict entry (``{"C": 0.1}``: a link's or a lesson step's setting, not a default) is allowed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from olearn import registry
from olearn.teaching.hypers import (
    algorithm_hyper,
    c_grids,
    hyper_options,
    view_hyper,
    view_hypers,
)

ROOT = Path(__file__).resolve().parents[1]
NAMES = {h.name for a in registry.ALGORITHMS for h in a.hypers}
ALIASES = {"lam": ("lambda", "lambdas")}
SLIDERS = ("select_slider", "slider", "number")
SOURCES = sorted(
    [*ROOT.glob("pages/*.py"), *ROOT.glob("olearn/teaching/*.py")], key=lambda p: str(p)
)


def hyper_of(name: str | None) -> str | None:
    """The hyper-parameter ``name`` is about (``C_VALUES`` -> ``C``), else None."""
    if not name:
        return None
    low = name.lower()
    for hyper in NAMES:
        h = hyper.lower()
        words = low.split("_")
        if h in words or low.rstrip("s") == h or low in ALIASES.get(hyper, ()):
            return hyper
    return None


def _number(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _number(node.operand)
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int | float)
        and not isinstance(node.value, bool)
    )


def _literal(node: ast.AST) -> bool:
    """A number, or a tuple / list / set / dict of them (a range, options, a grid)."""
    if _number(node):
        return True
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return bool(node.elts) and all(
            _literal(e.value) if isinstance(e, ast.Starred) else _number(e) for e in node.elts
        )
    if isinstance(node, ast.Dict):
        return bool(node.values) and all(_literal(v) for v in node.values)
    return False


def _bindings(node: ast.AST):
    """(name, value) pairs ``node`` binds: assignments, parameter defaults, keywords."""
    if isinstance(node, ast.Assign):
        yield from ((t.id, node.value) for t in node.targets if isinstance(t, ast.Name))
    elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
        yield node.target.id, node.value
    elif isinstance(node, ast.keyword):
        yield node.arg, node.value
    elif isinstance(node, ast.FunctionDef):
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        with_default = positional[len(positional) - len(args.defaults) :]
        yield from ((a.arg, d) for a, d in zip(with_default, args.defaults))
        yield from ((a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        first = node.args[0] if node.args else None
        named = isinstance(first, ast.Constant) and isinstance(first.value, str)
        if named and node.func.attr == "get" and len(node.args) == 2:  # params.get("C", 1.0)
            yield first.value, node.args[1]
        if named and node.func.attr in SLIDERS:  # ui.slider("C", label, low, high, default)
            yield from ((first.value, a) for a in node.args[2:])


def literal_hypers(source: str) -> list[tuple[int, str, str]]:
    """(line, name, value) of every hyper-parameter written as a number in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        for name, value in _bindings(node):
            if hyper_of(name) and _literal(value):
                found.append((value.lineno, name, ast.unparse(value)[:60]))
    return found


def test_the_scan_finds_each_way_of_writing_a_range_or_a_default():
    """The check can fail: each form the pages and teaching modules used before (issue 29)."""
    forms = [
        "C_VALUES = [0.001, 0.01, 0.1]",
        'C_GRIDS = {"1": (1.0,)}',
        "def scenario(name, C: float = 1.0): pass",
        "class S:\n    C: float = 0.3",
        'run = Run(keys, "blobs", C=1.0)',
        'x = float(params.get("C", 1.0))',
        'lam = ui.select_slider("lam", "λ", [1e-4, 1e-3], 1e-3)',
        "def sweep(lambdas=(10.0, 100.0)): pass",
        "def walk(lam: float = -1e-3): pass",
    ]
    for form in forms:
        assert literal_hypers(form), form
    assert not literal_hypers('STEP = {"C": 0.1, "rule": "SPA-I"}')  # a link's setting
    assert not literal_hypers("n = 150\nK = ui.slider('K', 'K', 2, 6, 3)")  # not hypers


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_or_teaching_module_writes_a_hyper_parameter(path):
    assert literal_hypers(path.read_text(encoding="utf-8")) == []


# --- the running pages: every hyper-parameter slider is the registry's ----------------------

streamlit = pytest.importorskip("streamlit")

from tests.test_app_pages import open_page  # noqa: E402

PAGE_SLIDERS = [  # page, widget key, the registry's Hyper it must offer
    ("pages/playground.py", "play.C", view_hyper("playground", "C")),
    ("pages/spa.py", "spa.C", algorithm_hyper("spa1", "C")),
    ("pages/cs_svm.py", "cs.C", algorithm_hyper("cs-svm", "C")),
    ("pages/sgd.py", "sgd.lam", algorithm_hyper("sgd-svm", "lam")),
    ("pages/pcvm.py", "pcvm.lam", algorithm_hyper("pcvm", "lam")),
    *(("pages/cw.py", f"cw.{name}", hyper) for name, hyper in view_hypers("cw").items()),
]


@pytest.fixture(autouse=True)
def _raise_errors(monkeypatch):
    monkeypatch.setenv("OLEARN_APP_RAISE", "1")


@pytest.mark.parametrize("page", sorted({p for p, _, _ in PAGE_SLIDERS}))
def test_every_hyper_parameter_slider_offers_the_registry_range_and_default(page):
    at = open_page(page)
    for _, key, hyper in (s for s in PAGE_SLIDERS if s[0] == page):
        slider = at.select_slider(key=key)
        values = [float(v) for v in hyper_options(hyper)]
        assert all(str(v) in slider.options or f"{v:g}" in slider.options for v in values), key
        assert len(slider.options) - len(values) in (0, 1), key  # PCVM adds gamma = 1
        assert float(slider.value) == hyper.default, key  # the page starts at the default


def test_the_compare_grids_are_the_registrys():
    at = open_page("pages/compare.py")
    grid = at.selectbox(key="cmp.grid")
    assert grid.options == list(c_grids("compare"))
    assert (
        c_grids("compare")[grid.value]
        == tuple(
            c for c in view_hyper("compare", "C").grid if c <= view_hyper("compare", "C").default
        )[-3:]
    )
