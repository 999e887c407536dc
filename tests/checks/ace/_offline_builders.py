"""Small real workspaces for the offline ACE families (structure, planning, money)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType

from benchwright.checks.ace._env import AceEnv, Engine
from benchwright.model import CheckResult

NO_ENGINE = Engine(False, "tests run offline")


def write(root: Path, files: Mapping[str, str | bytes]) -> Path:
    """Write ``files`` (relative path -> text or bytes) under ``root``; returns ``root``."""
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
    return root


def score(
    family: ModuleType,
    root: Path,
    check_id: str,
    phase_changes: Mapping[str, Sequence[str]] | None = None,
) -> CheckResult:
    """The one record ``family`` gives ``check_id`` for the workspace at ``root``."""
    env = AceEnv(workspace=root, engine=NO_ENGINE, phase_changes=phase_changes)
    results = family.run(env, [check_id])
    assert set(results) == {check_id}
    assert results[check_id].check_id == check_id
    return results[check_id]
