"""Every path into a model goes through public doors (issue "One engine, one door").

The River adapter, training from a store (``olearn/estimators/_stream.py``), parameter mixing
(``olearn/distributed/``), the app and every other module outside ``olearn/estimators/`` use
the engine's public methods (:mod:`olearn.estimators.engine`) and the estimators' public API
only: none reads or writes an underscore attribute of an estimator or an engine.  The names
checked are read off the classes themselves (every registry estimator and every engine), so
a new private name is covered the day it is added; an access through ``self`` / ``cls`` /
``super()`` is a class's own business and not a door.

The test module itself is the proof that it can fail: it plants one such access in a
throwaway source and checks that the scan reports it.
"""

from __future__ import annotations

import ast
import collections
import functools
from pathlib import Path

import numpy as np

from olearn import registry
from olearn.estimators import engine

ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def private_names() -> frozenset[str]:
    """Single-underscore names of every registry estimator and every engine: their classes'
    and their fitted instances' (a tiny fit of each)."""
    classes = {spec.estimator_class for spec in registry.ALGORITHMS}
    classes |= {getattr(engine, name) for name in engine.__all__ if name[0].isupper()}
    objects = [*classes]
    X, y = np.eye(4), np.array([0, 1, 1, 0])
    for spec in registry.ALGORITHMS:
        est = spec.make().fit(X, y)
        objects += [est, *vars(est).values()]  # the estimator and its engine
    names = set()
    for obj in objects:
        names |= set(dir(obj)) | (set(vars(obj)) if hasattr(obj, "__dict__") else set())
    # a named tuple's own methods (``_replace``, ``_asdict`` ...) are its documented public API
    public = set(dir(collections.namedtuple("Sample", "a"))) - set(dir(tuple))
    return frozenset(n for n in names - public if n.startswith("_") and not n.startswith("__"))


def doors() -> list[Path]:
    """The product's modules outside ``olearn/estimators/`` (and its store path)."""
    package = ROOT / "olearn"
    files = [p for p in package.rglob("*.py") if "estimators" not in p.relative_to(package).parts]
    files = [p for p in files if "pages" not in p.relative_to(package).parts]  # a link to pages/
    return [*files, package / "estimators" / "_stream.py", ROOT / "app.py",
            *sorted((ROOT / "pages").glob("*.py"))]  # fmt: skip


def private_accesses(source: str, names: set[str]) -> list[str]:
    """``expr._name`` for every ``_name`` in ``names`` read or written through anything but
    ``self``, ``cls`` or ``super()``; also ``getattr(x, "_name")`` / ``setattr``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in names:
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            if isinstance(owner, ast.Call) and getattr(owner.func, "id", "") == "super":
                continue
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", "") in ("getattr", "setattr", "hasattr", "delattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in names
        ):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_outside_the_estimators_names_their_private_attributes():
    names = private_names()
    assert {"_structure", "_steps", "_scan", "_epoch"} <= names  # the scan sees the classes
    offenders = {}
    for path in doors():
        hits = private_accesses(path.read_text(encoding="utf-8"), names)
        if hits:
            offenders[str(path.relative_to(ROOT))] = hits
    assert offenders == {}


def test_the_scan_finds_a_planted_access():
    names = private_names()
    planted = (
        "def adapter(est, engine):\n"
        "    est._check_params()\n"
        "    engine._generation = 3\n"
        "    return getattr(est, '_steps')()\n"
        "class Fine:\n"
        "    def go(self):\n"
        "        return self._steps(), super()._scan(1)\n"
    )
    hits = private_accesses(planted, names)
    assert sorted(h.split(":")[0] for h in hits) == ["2", "3", "4"]
