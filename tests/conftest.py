"""Shared fixtures: fresh registries and the real console script."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from benchwright.checks import BUILTIN_CHECKS, CheckRegistry, build_registry

BENCHWRIGHT = Path(sys.executable).with_name("benchwright")

CliRunner = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(autouse=True)
def state_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run keys go to a fresh directory per test, never the real ``~/.local/state``."""
    path = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("BENCHWRIGHT_STATE_DIR", str(path))
    return path


@pytest.fixture
def registry() -> CheckRegistry:
    """A fresh registry of the built-in checks, without installed plugins."""
    return build_registry(BUILTIN_CHECKS, plugins=False)


@pytest.fixture
def cli(tmp_path: Path) -> CliRunner:
    """Run the real console script in a subprocess (cwd ``tmp_path`` unless given)."""

    def run(
        *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", **(env or {})}
        return subprocess.run(
            [str(BENCHWRIGHT), *args],
            cwd=cwd or tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    return run
