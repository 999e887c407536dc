"""Where the black-box checks (C2, F1-F9) find the running stack, or why there is none."""

from __future__ import annotations

from benchwright.checks.ace._env import AceEnv
from benchwright.model import CheckResult, Status

REQUEST_TIMEOUT_S = 10.0
"""Every request the scenarios make is bounded by this; a slower answer is a FAIL."""


def no_stack(env: AceEnv, check_id: str) -> CheckResult:
    """SKIPPED: no base URL was given. Without an engine the engine's reason says why; with
    one, the compose stack is brought up by the oracle, which passes its URL in."""
    reason = env.engine.reason if not env.engine.available else "the oracle passed no base URL"
    return CheckResult(check_id, Status.SKIPPED, 0.0, f"no stack: {reason}", {})
