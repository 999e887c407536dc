"""Shared fixtures: fresh registries and the real console script."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One headless Chromium for the web tests (the board, the viewer), launched the way
    the grader launches it (`BrowserSession`); ``make setup`` installs it, so its absence
    is a failure here, not a skip."""
    from benchwright.probes.browser import BrowserSession, BrowserUnavailable

    try:
        session = BrowserSession(scratch=tmp_path_factory.mktemp("chromium")).start()
    except BrowserUnavailable as exc:
        pytest.fail(f"{exc} (run 'make setup')")
    yield session.browser
    session.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh browser context and page; ``page.dialogs`` records (and dismisses) every
    dialog, so an XSS payload that runs is seen, never left blocking."""
    context = browser.new_context()
    page = context.new_page()
    page.dialogs = []
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    yield page
    context.close()
