"""Shared fixtures: fresh registries and the real console script."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from meridian_v1 import FAST, serve_meridian_v1

from benchwright.checks import BUILTIN_CHECKS, CheckRegistry, build_registry
from benchwright.services.meridian import MeridianMock

BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
_REPO = Path(__file__).parents[1]
_GOLDEN = _REPO / "suites" / "vspro" / "reference"

CliRunner = Callable[..., subprocess.CompletedProcess[str]]

# worker_groups and host_lease act under `pytest -n` (make test); run_timeline on --timeline
pytest_plugins = ["worker_groups", "host_lease", "run_timeline", "pytester"]


@pytest.fixture(scope="session", autouse=True)
def session_state_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Session fixtures (runs made once for many tests, and the servers they start) keep
    their run keys out of the real ``~/.local/state`` too; autouse, so it comes first."""
    path = tmp_path_factory.mktemp("session-state")
    patch = pytest.MonkeyPatch()
    patch.setenv("BENCHWRIGHT_STATE_DIR", str(path))
    yield path
    patch.undo()


@pytest.fixture(scope="session", autouse=True)
def session_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The harness's bytecode cache is the session's: filled once for the tests and every
    console script they start, never in the real ``~/.cache``."""
    path = tmp_path_factory.mktemp("cache")
    patch = pytest.MonkeyPatch()
    patch.setenv("BENCHWRIGHT_CACHE_DIR", str(path))
    yield path
    patch.undo()


@pytest.fixture(autouse=True)
def state_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run keys go to a fresh directory per test, never the real ``~/.local/state``."""
    path = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("BENCHWRIGHT_STATE_DIR", str(path))
    return path


@pytest.fixture(scope="session")
def sealed_made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Real sealed runs, made once per session (``execution/sealed_runs.py``)."""
    from execution.sealed_runs import make_runs

    return make_runs(tmp_path_factory.mktemp("sealed"))


@pytest.fixture
def sealed_runs(
    sealed_made: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> dict[str, Path]:
    """A fresh copy of those runs and their keys, the state dir pointing at the copy."""
    from execution.sealed_runs import fresh_copy

    return fresh_copy(sealed_made, tmp_path, monkeypatch)


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


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A headless Chromium per test module of the web tests (the board, the viewer),
    launched the way the grader launches it (`BrowserSession`); ``make setup`` installs
    it, so its absence is a failure here, not a skip. Per module, not per session: tests
    that count Chromium processes must not see one left running by another module."""
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


@pytest.fixture(scope="session")
def golden_twice(tmp_path_factory, request):
    """The golden graded twice in a row through the command line, on one copy of the tree
    (a pass writes its marker into the graded tree, so never into the repo's), with every
    temporary file of the harness (work dir, databases, browser profile) under a private
    TMPDIR; yields (tmp, [(process, card), ...], tree). Session-wide: the vspro end-to-end
    tests, the board's and the viewer's all read these two gradings (about a minute each).
    With the host to itself (`host_lease`): the freeze gate needs every timed row at its
    top rung."""
    from host_lease import host_to_itself  # imported here: a plugin, registered after us

    if not (_GOLDEN / "vspro" / "__main__.py").is_file():
        pytest.skip("golden reference not present")
    tmp = tmp_path_factory.mktemp("golden")
    tree, scratch = tmp / "golden", tmp / "scratch"
    scratch.mkdir()
    skip = shutil.ignore_patterns("__pycache__", "*.db*", "sb6-reference-pass.json")
    shutil.copytree(_GOLDEN, tree, ignore=skip)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "TMPDIR": str(scratch)}
    runs, marker = [], _GOLDEN / "sb6-reference-pass.json"  # `make demo` may have written it
    before = marker.read_bytes() if marker.exists() else None
    with host_to_itself(request.config):
        for n in (1, 2):
            out = tmp / f"card{n}.json"
            args = [sys.executable, "-m", "benchwright", "grade", str(_REPO / "suites" / "vspro"),
                    "--tree", str(tree), "--json", str(out), "--junit", str(tmp / f"j{n}.xml"),
                    "--reference"]  # fmt: skip
            done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=400,
                                  cwd=_REPO)  # fmt: skip
            assert done.returncode == 0, done.stdout + done.stderr
            runs.append((done, json.loads(out.read_text())))
        assert (marker.read_bytes() if marker.exists() else None) == before  # the copy's, only
    return tmp, runs, tree


@pytest.fixture(scope="session")
def golden_card(golden_twice: tuple[Path, list[Any], Path]) -> Path:
    """The scorecard JSON of the golden's first grading, its evidence beside it."""
    return golden_twice[0] / "card1.json"


@pytest.fixture(scope="session")
def served_meridian_v1() -> Iterator[MeridianMock]:
    """One Meridian v1 mock for the session (each start costs a server): the vendor the
    vendorsync tests sync from (tests/suites/vendorsync)."""
    mock = serve_meridian_v1()
    yield mock
    mock.stop()


@pytest.fixture(scope="module")
def vendor(served_meridian_v1: MeridianMock) -> MeridianMock:
    """The session's mock, reset (rows, traps, trace) for each test module."""
    served_meridian_v1.reset()
    return served_meridian_v1


@pytest.fixture
def own_vendor() -> Iterator[MeridianMock]:
    """A fresh mock of its own, for a test that must not disturb the module's vendor."""
    mock = serve_meridian_v1()
    yield mock
    mock.stop()


@pytest.fixture(scope="session")
def vendorsync_golden(request: pytest.FixtureRequest) -> tuple[Any, float]:
    """The vendorsync golden graded once for the session, in-process (sandboxed, every
    phase the grader has, by name: the browser's too once it exists), the v1 mock's
    throttle shortened (`meridian_v1.FAST`); (the `Grading`, its seconds). No build-phase
    trace: ``vendor_read_docs`` is UNAVAILABLE, as for any ``grade --tree``. With the host
    to itself: tests hold its timed rows at their top rung."""
    import time

    from host_lease import host_to_itself

    from benchwright.suites.vendorsync import PHASE_NAMES, grade

    with host_to_itself(request.config):
        started = time.monotonic()
        grading = grade(_REPO / "suites" / "vendorsync" / "reference", timing=FAST,
                        phases=list(PHASE_NAMES))  # fmt: skip
        return grading, time.monotonic() - started


@pytest.fixture(scope="session")
def sb7_golden(request: pytest.FixtureRequest) -> tuple[Any, float]:
    """The sb-7 golden graded once for the session, in-process: sandboxed, every phase,
    seed 0, the v3 mock at the contract's timing (its 2 s Retry-After, its 6 s held
    create); (the `Grading`, its seconds). Every sb-7 test that needs a whole run reads
    this one. With the host to itself: tests hold its timed rows at their top rung."""
    import time

    from host_lease import host_to_itself

    from benchwright.suites.sb7 import grade

    reference = _REPO / "suites" / "sb7" / "reference"
    if not (reference / "app" / "__main__.py").is_file():
        pytest.skip("sb-7 golden reference not present")
    with host_to_itself(request.config):
        started = time.monotonic()
        grading = grade(reference, seed=0)
        return grading, time.monotonic() - started
