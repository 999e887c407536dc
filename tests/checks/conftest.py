"""Grade one check against one trajectory, through the real loader, replay and evaluator."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from builders import make_task, make_trajectory

from benchwright.checks import CheckRegistry
from benchwright.execution import run_task
from benchwright.model import CheckResult

Grade = Callable[..., CheckResult]


@pytest.fixture
def grade(registry: CheckRegistry) -> Grade:
    """``grade(check, files, *steps, answer=None)``: the single check's result.

    Every step must replay cleanly, so a check test never passes on a broken replay.
    """

    def run(
        check: dict[str, Any],
        files: dict[str, str] | None = None,
        *steps: dict[str, Any],
        answer: str | None = None,
    ) -> CheckResult:
        task = make_task([check], files, registry=registry)
        result = run_task(task, make_trajectory(*steps, answer=answer), registry=registry)
        assert result.replay_errors == (), [str(e) for e in result.replay_errors]
        (only,) = result.results
        return only

    return run
