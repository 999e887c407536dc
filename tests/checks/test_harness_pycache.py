"""The harness's bytecode cache: filled once per install, kept between processes, used only
when it is this user's alone, and seen by the sandboxed check commands."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchwright.checks.test_must_pass import _pycache
from benchwright.checks.test_must_pass._pycache import CACHE_ENV, DONE
from benchwright.model import Status


@pytest.fixture
def cache_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache" / "pycache"


def _in_a_new_process(cache: Path) -> str:
    code = f"from {_pycache.__name__} import harness_pycache; print(harness_pycache())"
    env = {**os.environ, CACHE_ENV: str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_cache_is_filled_once_and_the_next_process_uses_it_as_it_is(cache_root: Path):
    key = _pycache._key()
    (cache_root / key).mkdir(parents=True)  # half built by a filler that was killed
    (cache_root / key / "junk.pyc").write_text("junk")
    (cache_root / f".{key}-dead").mkdir()
    filled = _pycache._shared()
    assert filled == cache_root / key and (filled / DONE).is_file()
    assert not (filled / "junk.pyc").exists() and not list(cache_root.glob(f".{key}-*"))
    compiled = [p for p in filled.rglob("*.pyc") if "_pytest" in p.parts]
    assert compiled, "the warm-up compiled what pytest imports"
    assert not [p for p in filled.rglob("*") if "bw-warm-" in str(p)], "nor its own test"
    modes = {p.stat().st_mode & 0o777 for p in filled.rglob("*")}
    assert modes <= {0o755, 0o644}, "readable by a sandbox's uid, writable by no one else"
    marker = (filled / DONE).stat()
    assert _in_a_new_process(cache_root.parent) == str(filled)
    again = (filled / DONE).stat()
    assert (again.st_ino, again.st_mtime_ns) == (marker.st_ino, marker.st_mtime_ns)


@pytest.mark.parametrize("mode", [0o775, 0o757])
def test_a_cache_someone_else_could_write_is_not_used(cache_root: Path, mode: int):
    target = cache_root / _pycache._key()
    target.mkdir(parents=True)
    (target / DONE).write_text("")
    target.chmod(mode)
    assert _pycache._shared() is None


def test_a_sandboxed_check_command_reads_the_filled_cache(grade):
    # importlib names where bytecode is read from under the harness's pycache_prefix;
    # the command sees that file only when the sandbox shows it the cache.
    probe = (
        "import importlib.util, os, sys, _pytest.main as m; "
        "cached = importlib.util.cache_from_source(m.__file__); "
        "sys.exit(0 if sys.pycache_prefix and os.path.isfile(cached) else 1)"
    )
    result = grade({"type": "test_must_pass", "command": f'python -c "{probe}"'})
    assert result.status is Status.PASS, result.detail
