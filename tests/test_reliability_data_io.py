"""Files written by olearn: the process umask, and no temp files left by killed writers
(issue 22, items 16 and 18)."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
import time

import pytest

from olearn import _io

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _child(code: str, **popen) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": ROOT}
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)], env=env, cwd=ROOT, text=True, **popen
    )


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o077, 0o002], ids=oct)
def test_files_are_created_with_the_process_umask(tmp_path, umask):
    """Reference: the mode ``open()`` gives a new file in the same process (0600 before)."""
    code = f"""
        import os, stat, sys
        os.umask({umask})
        from olearn import _io
        d = sys.argv[1]
        with open(os.path.join(d, "reference"), "w"):
            pass
        _io.atomic_write_text(os.path.join(d, "text"), "x")
        _io.atomic_write_many({{os.path.join(d, "many1"): b"1", os.path.join(d, "many2"): b"2"}})
        with _io.atomic_path(os.path.join(d, "path"), suffix=".part") as tmp:
            tmp.write_bytes(b"p")
        for name in ("reference", "text", "many1", "many2", "path"):
            print(name, oct(stat.S_IMODE(os.stat(os.path.join(d, name)).st_mode)))
    """
    proc = _child(code.replace("sys.argv[1]", repr(str(tmp_path))), stdout=subprocess.PIPE)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0
    modes = dict(line.split() for line in out.splitlines())
    assert modes["reference"] == oct(0o666 & ~umask)
    assert set(modes.values()) == {modes["reference"]}, modes


def test_umask_is_read_without_changing_it():
    before = os.umask(0o027)
    try:
        assert _io.current_umask() == 0o027
    finally:
        os.umask(before)


def test_a_killed_writer_leaves_a_temp_file_the_next_write_removes(tmp_path):
    target = tmp_path / "results.json"
    code = f"""
        import sys, time
        from olearn import _io
        def write_to(f):
            f.write(b"half")
            f.flush()
            print("writing", flush=True)
            time.sleep(60)
        _io.atomic_write({str(target)!r}, write_to)
    """
    proc = _child(code, stdout=subprocess.PIPE)
    try:
        assert proc.stdout.readline().strip() == "writing"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
    left = [p.name for p in tmp_path.iterdir()]
    assert len(left) == 1 and left[0].startswith(".results.json.olearn-"), left
    assert f"-{proc.pid}-" in left[0]
    _io.atomic_write_text(tmp_path / "other.txt", "next write")  # a fresh folder for _io
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.txt"]


def test_a_live_writers_temp_file_is_kept_and_an_old_one_removed(tmp_path):
    live = tmp_path / f".a.olearn-{_io._HOST}-{os.getpid()}-abcdefgh.tmp"
    other_host = tmp_path / ".b.olearn-elsewhere-1-abcdefgh.tmp"
    legacy_new, legacy_old = tmp_path / ".c.abcdefgh.tmp", tmp_path / ".d.abcdefgh.tmp"
    user_file = tmp_path / ".notes.txt"
    for p in (live, other_host, legacy_new, legacy_old, user_file):
        p.write_bytes(b"x")
    assert _io.remove_stale_temp_files(tmp_path) == []  # all recent, writers alive or unknown
    old = time.time() - _io.STALE_SECONDS - 60
    for p in (other_host, legacy_old, user_file):
        os.utime(p, (old, old))
    removed = sorted(p.name for p in _io.remove_stale_temp_files(tmp_path))
    assert removed == sorted([other_host.name, legacy_old.name])
    assert live.exists() and legacy_new.exists() and user_file.exists()
    assert stat.S_ISREG(live.stat().st_mode)
