"""Issue 22, item 17: numba's on-disk cache never makes olearn fail (:mod:`olearn._jit`).

Each case runs in a fresh interpreter (numba decides about its cache per process): no
writable cache folder at all, damaged cache files, a disk on which every cache write fails.
Each must compute the right numbers with exactly one warning."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WARNING = "numba's cache cannot be used"

# A module of two @jit functions, the caller calling the callee from compiled code.
MODULE = """
from olearn._jit import jit


@jit
def half(x):
    return x / 2.0


@jit
def quarter(x):
    return half(half(x))
"""

RUN = """
import errno, json, os, sys, warnings
warnings.simplefilter("always")
if os.environ.get("FULL_DISK"):  # every write under the cache folder fails, as on a full disk
    import builtins
    real_open, cache = builtins.open, os.environ["NUMBA_CACHE_DIR"]

    def full_open(file, mode="r", *args, **kwargs):
        if str(file).startswith(cache) and ("w" in mode or "a" in mode):
            raise OSError(errno.ENOSPC, "No space left on device", str(file))
        return real_open(file, mode, *args, **kwargs)

    builtins.open = full_open
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import twojit
    values = [twojit.quarter(10.0), twojit.half(3.0), twojit.quarter(1)]
print(json.dumps({"values": values, "warnings": [str(w.message) for w in caught]}))
"""


def _run(tmp_path: Path, env: dict[str, str]) -> dict:
    (tmp_path / "twojit.py").write_text(MODULE)
    base = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    base["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT)])
    base["PYTHONDONTWRITEBYTECODE"] = "1"
    proc = subprocess.run(
        [sys.executable, "-c", RUN],
        cwd=tmp_path,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["values"] == [2.5, 1.5, 0.25]
    return out


def _numba_warnings(out: dict) -> list[str]:
    return [w for w in out["warnings"] if WARNING in w]


def test_damaged_cache_files_recompile_with_one_warning(tmp_path):
    cache = tmp_path / "cache"
    first = _run(tmp_path, {"NUMBA_CACHE_DIR": str(cache)})
    assert _numba_warnings(first) == []
    index = sorted(cache.rglob("*.nbi"))
    data = sorted(cache.rglob("*.nbc"))
    assert {p.name.split(".")[1].split("-")[0] for p in index} == {"half", "quarter"}
    # a truncated index for one function, overwritten compiled code for the other
    half_index = next(p for p in index if ".half-" in p.name)
    half_index.write_bytes(half_index.read_bytes()[:7])
    for p in data:
        if ".quarter-" in p.name:
            p.write_bytes(b"not a pickle" * 10)
    second = _run(tmp_path, {"NUMBA_CACHE_DIR": str(cache)})
    assert len(_numba_warnings(second)) == 1, second["warnings"]
    assert "delete damaged files" in _numba_warnings(second)[0]


def test_full_disk_compiles_without_cache_with_one_warning(tmp_path):
    cache = tmp_path / "cache"
    out = _run(tmp_path, {"NUMBA_CACHE_DIR": str(cache), "FULL_DISK": "1"})
    warned = _numba_warnings(out)
    assert len(warned) == 1 and "No space left on device" in warned[0], out["warnings"]
    assert not list(cache.rglob("*.nbc"))  # nothing was written, and nothing half-written


def test_read_only_install_without_a_user_cache_imports_and_runs(tmp_path):
    """A copy of the package where no cache folder can be made: ``__pycache__`` beside the
    sources is a file (as if read-only, which root would ignore), and ``$HOME`` is not a
    folder, so numba's user-wide cache (``~/.cache/numba``) cannot be made either."""
    copy = tmp_path / "site"
    shutil.copytree(ROOT / "olearn", copy / "olearn", ignore=shutil.ignore_patterns("__pycache__"))
    for folder in (copy / "olearn").rglob("*"):
        if folder.is_dir():
            (folder / "__pycache__").write_text("not a folder")
    script = (
        "import json, warnings\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    import olearn.kernels.additive, olearn.kernels.cs_svm, olearn.kernels.cw\n"
        "    import olearn.kernels.pa, olearn.kernels.sgd_svm, olearn.kernels.spa\n"
        "    from olearn.core._pa_closed_forms import tau_pa1\n"
        "    value = tau_pa1(1.0, 0.25, 10.0)\n"
        "print(json.dumps({'file': olearn.__file__, 'value': value,\n"
        "                  'warnings': [str(w.message) for w in caught]}))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "XDG_"))}
    env.update(PYTHONPATH=str(copy), HOME="/dev/null", PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,  # not the repository: `python -c` puts the working folder first
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["file"].startswith(str(copy))  # the copy, not the editable install
    assert out["value"] == 2.0  # PA-I: min(C, l / (2 ||x||^2)) = min(10, 1 / 0.5)
    warned = [w for w in out["warnings"] if WARNING in w]
    assert len(warned) == 1 and "no locator available" in warned[0], out["warnings"]
