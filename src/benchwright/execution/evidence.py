"""Files a check leaves as evidence: per-check directories, carried back bounded, sealed.

A check that produces files (the ``executed_app`` check's scorecard, screenshots and
vendor trace) writes them into its `CheckContext.evidence_dir`, a directory the trial
creates after the agent's last phase, beside the workspace and never inside it or the
agent's scratch directory, so nothing the agent left can pose as evidence. After the
checks the trial reads them back as ``artifacts`` (relative path -> bytes) that travel
with the `TrialResult` (across a worker pool too), at most `MAX_TOTAL_BYTES` in all:
files past the cap are dropped and the check's evidence says which. `store.write_trial`
writes them under ``trials/<task>/<n>/evidence/``, and ``result.json`` lists each one's
sha256 (`digests`), so the seal covers them and `verification` refuses a changed file.

The trace of the build vendor (every request the agent sent it while building) is the
trial's own evidence, not a check's: the harness writes it at `BUILD_TRACE` in the same
directory, from the mock's memory, once the agent's last phase has ended, and hands its
path to every check (`CheckContext.build_trace`). The agent never had the directory, so a
trace it wrote anywhere it could write is never the one read.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path, PurePosixPath

from benchwright.model import CheckResult

EVIDENCE_DIR = "evidence"
"""Its name in the trial's temporary directory and in the run's trial directory."""
MAX_TOTAL_BYTES = 64 * 1024 * 1024
"""All of a trial's evidence files together; past it the rest are dropped (and named)."""
DROPPED = "evidence_files_dropped"
"""The evidence key naming the files a check wrote past the cap."""
_UNSAFE = re.compile(r"[^A-Za-z0-9._#@+=-]")
BUILD_TRACE = "~build/vendor-trace.jsonl"
"""Where the build vendor's trace is kept below the evidence directory: ``~`` is never in a
check's directory name (`check_dir_name` replaces it), so no check's evidence can be it."""


def check_dir_name(check_id: str) -> str:
    """The directory of ``check_id``'s evidence: the id itself when it is a plain file
    name (every built-in id is), else the id with each unsafe character replaced."""
    name = _UNSAFE.sub("_", check_id)
    return "_" + name if name in (".", "..") or not name else name


def prepare(root: Path, check_ids: Iterable[str]) -> dict[str, Path]:
    """Create ``root`` afresh and one empty directory per check; return them by check id."""
    root.mkdir(mode=0o700)
    dirs = {check_id: root / check_dir_name(check_id) for check_id in check_ids}
    for path in dirs.values():
        path.mkdir(exist_ok=True)
    return dirs


def write_build_trace(root: Path, lines: Iterable[dict]) -> Path:
    """Write the build vendor's trace (`BuildVendor.trace`) below ``root``; its path."""
    from benchwright.services.meridian.trace import write_lines

    path = root / BUILD_TRACE
    path.parent.mkdir()
    write_lines(lines, path)
    return path


def collect(
    root: Path, checks: tuple[CheckResult, ...], cap: int = MAX_TOTAL_BYTES
) -> tuple[dict[str, bytes], tuple[CheckResult, ...]]:
    """The regular files under ``root`` (links are never followed) as relative POSIX path
    -> bytes, in name order, while their total stays within ``cap``; and ``checks`` with
    the files dropped past it named in the evidence of the check that wrote them."""
    artifacts: dict[str, bytes] = {}
    dropped: dict[str, list[str]] = {}
    total = 0
    for path in sorted(_regular_files(root)):
        rel = path.relative_to(root).as_posix()
        size = path.stat().st_size
        if total + size > cap:
            dropped.setdefault(rel.split("/", 1)[0], []).append(f"{rel} ({size} bytes)")
            continue
        artifacts[rel] = path.read_bytes()
        total += size
    if not dropped:
        return artifacts, checks
    noted = tuple(
        replace(c, evidence={**c.evidence, DROPPED: dropped[name]})
        if (name := check_dir_name(c.check_id)) in dropped
        else c
        for c in checks
    )
    return artifacts, noted


def _regular_files(root: Path) -> Iterable[Path]:
    for dirpath, _dirnames, filenames in os.walk(root):  # never descends through a link
        for name in filenames:
            path = Path(dirpath, name)
            if path.is_file() and not path.is_symlink():
                yield path


def digests(artifacts: Mapping[str, bytes]) -> dict[str, str]:
    """Each file's sha256, as ``result.json`` lists them."""
    return {rel: hashlib.sha256(data).hexdigest() for rel, data in sorted(artifacts.items())}


def safe_relative(rel: str) -> bool:
    """``rel`` names a file below the evidence directory: relative, no ``..``, no empty
    or ``.`` part (what `collect` produces; anything else in a result is refused)."""
    parts = PurePosixPath(rel).parts
    return (
        bool(parts)
        and not rel.startswith("/")
        and "\\" not in rel
        and all(p not in ("", ".", "..") for p in parts)
        and rel == "/".join(parts)
    )


def mismatch(trial_dir: Path, listed: Mapping[str, str]) -> str | None:
    """Why the evidence files under ``trial_dir`` are not the ones ``listed`` (path ->
    sha256) in a sealed result: a path that is unsafe, missing, a link or a file whose
    digest differs. None when every listed file matches."""
    base = trial_dir / EVIDENCE_DIR
    for rel, digest in sorted(listed.items()):
        if not isinstance(rel, str) or not safe_relative(rel):
            return f"evidence path {rel!r} is not a path below evidence/"
        path = base / rel
        if any(p.is_symlink() for p in (path, *path.parents) if p.is_relative_to(trial_dir)):
            return f"evidence file {rel} is a link"
        try:
            data = path.read_bytes()
        except OSError:
            return f"evidence file {rel} is missing"
        if hashlib.sha256(data).hexdigest() != digest:
            return f"evidence file {rel} does not match its sha256"
    return None
