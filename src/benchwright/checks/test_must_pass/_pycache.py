"""The harness's bytecode cache: the ``pycache_prefix`` of every check command, filled once
per install and kept between processes.

A check command reads bytecode only from this prefix (`_interpreter`), read-only to it,
so nothing the workspace plants is ever loaded. Filling it means a whole pytest run that
compiles every module pytest imports from source: CPU bound, ~0.6 s on an idle core and
5-6 s on a loaded one. Done once per process, as it used to be, every ``benchwright``
command (and every pool worker) paid it at its first check; kept here, only the first
check on a new install (or after pytest changes) does.

Where: ``$BENCHWRIGHT_CACHE_DIR``, else ``$XDG_CACHE_HOME/benchwright``, else
``~/.cache/benchwright``; under it ``pycache/<key>``, the key a digest of the
interpreter, its prefix, pytest's version and the warm-up itself. Sandboxed agents never
see that path (their ``$HOME`` is private), so none can plant bytecode in it; an
unconfined agent (``--no-sandbox``) can write anywhere the user can, this cache as well
as the venv that holds pytest (docs/security.md). A cache that is not ours alone (not
owned by this user, or writable by others) is not used: this process fills a private
one instead, as before.

Processes filling it at once take turns on a lock; each fills a directory of its own
and renames it into place, so a reader never sees half a cache.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import hashlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from importlib import metadata
from pathlib import Path

from benchwright.checks.test_must_pass._interpreter import interpreter_words

CACHE_ENV = "BENCHWRIGHT_CACHE_DIR"
DONE = "complete"
"""The marker a filled cache holds (written last, before it is renamed into place)."""
WARM_TEST = "def test_warm():\n    assert True\n"

_LOCK = threading.Lock()
_found: list[Path] = []


def cache_dir() -> Path:
    """Where benchwright keeps what it can rebuild: outside every run and sandbox."""
    if explicit := os.environ.get(CACHE_ENV):
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return Path(xdg) / "benchwright" if xdg else Path.home() / ".cache" / "benchwright"


def harness_pycache() -> Path:
    """The ``pycache_prefix`` of every check command, filled on first use."""
    with _LOCK:
        if not _found:
            _found.append(_shared() or _private())
        return _found[0]


def _key() -> str:
    """Which install the cache is for: a new interpreter or pytest gets a new one."""
    try:
        pytest_version = metadata.version("pytest")
    except metadata.PackageNotFoundError:
        pytest_version = "none"
    parts = (sys.version, sys.prefix, os.path.realpath(sys.executable), pytest_version, WARM_TEST)
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


def _shared() -> Path | None:
    """The install's cache under `cache_dir`, filled now if need be; None when this user
    cannot keep one there, or the one there is not this user's alone."""
    root = cache_dir() / "pycache"
    key = _key()
    target = root / key
    try:
        root.mkdir(parents=True, exist_ok=True)
        with open(root / f"{key}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when closed
            if not (target / DONE).is_file():
                for stale in (target, *root.glob(f".{key}-*")):  # left by a killed filler
                    shutil.rmtree(stale, ignore_errors=True)
                building = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=root))
                try:
                    _fill(building)
                    (building / DONE).write_text("")
                    (building / DONE).chmod(0o644)
                    building.rename(target)
                finally:
                    shutil.rmtree(building, ignore_errors=True)
    except OSError:
        return None
    return target if _ours_alone(target) else None


def _private() -> Path:
    """A cache for this process only, removed when it exits."""
    root = Path(tempfile.mkdtemp(prefix="bw-pycache-"))
    atexit.register(shutil.rmtree, root, True)
    root.chmod(0o755)
    _fill(root / "prefix")
    return root / "prefix"


def _ours_alone(path: Path) -> bool:
    """Whether ``path`` and all in it is owned by this user and writable by no one else."""
    me = os.geteuid()
    for directory, _dirs, files in os.walk(path):
        for each in (directory, *(os.path.join(directory, f) for f in files)):
            st = os.lstat(each)
            if st.st_uid != me or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                return False
    return True


def _fill(prefix: Path) -> None:
    """Compile what a pytest run imports into ``prefix``: harness code only, unconfined;
    then make it readable to a sandbox's own uid, writable to no one else.

    A failure leaves the prefix partial, which costs time, never correctness.
    """
    prefix.mkdir(exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="bw-warm-"))
    (scratch / "test_warm.py").write_text(WARM_TEST, encoding="utf-8")
    env = {"PATH": os.environ.get("PATH", os.defpath), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    argv = [*interpreter_words(prefix), "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    argv += [f"--junitxml={scratch / 'report.xml'}", str(scratch / "test_warm.py")]
    try:
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            subprocess.run(argv, cwd=scratch, env=env, capture_output=True, timeout=120)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    # the warm-up's own test file is no harness code: its bytecode goes
    shutil.rmtree(prefix / scratch.relative_to(scratch.anchor), ignore_errors=True)
    for directory, _dirs, files in os.walk(prefix):
        os.chmod(directory, 0o755)
        for name in files:
            os.chmod(os.path.join(directory, name), 0o644)
