"""A trial's verdict from what happened, in one place (docs/suites.md, "A trial").

Harness and machine faults are errors, never failures: an agent that could
not start or ran out of budget, a stamp that could not be written, a check
that came back INFRA, SKIPPED or UNAVAILABLE. Only a clean run is judged.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from benchwright.dsl import GUARD_CHECKS
from benchwright.model import CheckResult, Task

READ_ONLY = re.compile(r"read-only file system|\bEROFS\b|sandbox.{0,40}(denied|read-only)", re.I)


def verdict_of(
    tier: str,
    error: str | None,
    exit_codes: Sequence[int | None],
    checks: Sequence[CheckResult],
    replay_errors: Sequence[object],
) -> tuple[str, str | None]:
    """(verdict, error) once the checks ran (or were skipped because of ``error``)."""
    if error:
        return "errored", error
    broken = next((r for r in checks if r.status.is_harness_fault), None)
    if broken is not None:
        return "errored", f"check {broken.check_id}: {broken.status.value}: {broken.detail}"
    if tier == "latency":
        bad = next((code for code in exit_codes if code != 0), None)
        if bad is not None or not exit_codes:
            return "errored", f"agent: exited {bad} (a latency task counts only a clean exit)"
        return "completed", None
    passed = bool(checks) and all(r.passed for r in checks) and not replay_errors
    return ("passed" if passed else "failed"), None


def read_only_error(
    task: Task, changed: bool, steps: Sequence[Mapping[str, Any]], output: str
) -> str | None:
    """Why a mutating task's agent looks unable to write, if it changed nothing and was refused."""
    mutating = any(s.type not in GUARD_CHECKS | {"answer_matches"} for s in task.checks)
    if not mutating or changed:
        return None
    refused = [s for s in steps if str(s.get("tool", "")).startswith("failed:")]
    match = READ_ONLY.search(output)
    if not refused and match is None:
        return None
    first = str(refused[0].get("error", "")) if refused else match.group(0)  # type: ignore[union-attr]
    return f"read-only: the agent changed no file and its writes were refused ({first[:200]})"
