"""A pytest run's verdict: its JUnit report, its exit status, and the canaries in it.

The report is pytest's, written where the command cannot reach it but produced inside
the process the agent's code runs in; so it is read for evidence (`_junit`), and the
canary tests planted in the stamped files (`_canary`) must appear in it as pytest
would honestly report them: failed.
"""

from __future__ import annotations

from typing import Any

from benchwright.checks._context import CheckContext
from benchwright.checks.test_must_pass._junit import Case, canary_cases, shortfall, tampered
from benchwright.model import CheckResult
from benchwright.probes import CommandObservation

DETAIL_LIMIT = 500
OUTCOMES = ("passed", "failed", "skipped")


def judge_report(
    ctx: CheckContext,
    command: str,
    obs: CommandObservation,
    report: list[Case] | str,
    stamped: list[str],
    words: list[str],
    evidence: dict[str, Any],
    left: str,
) -> CheckResult:
    """A pytest run's verdict, from its JUnit report, its exit status and the canaries.

    With canaries in the run, pytest must exit 1 (they fail) and the report must show
    each of them failed; the task's own tests are judged without them.
    """
    if isinstance(report, str):
        if obs.exit_code != 0:
            return ctx.failed(exit_detail(obs, left), **evidence)
        return ctx.failed(f"exit 0 but {report}", **evidence)
    canaries = canary_cases(report, ctx.canaries)
    own = [c for c in report if c not in canaries]
    evidence["junit"] = {o: sum(c.outcome == o for c in own) for o in OUTCOMES}
    evidence["stamped_tests"] = stamped
    evidence["canaries"] = {path: list(names) for path, names in ctx.canaries.items()}
    if obs.exit_code not in (0, 1) or (obs.exit_code == 1 and not canaries):
        return ctx.failed(exit_detail(obs, left), **evidence)
    if reason := tampered(report, ctx.canaries, ctx.task.stamp, words):
        return ctx.failed(reason, **evidence)
    if canaries and obs.exit_code == 0:
        return ctx.failed("report tampered: exit 0 though canary tests failed", **evidence)
    if reason := shortfall(own, stamped):
        joined = ": " if obs.exit_code else " but "
        return ctx.failed(f"exit {obs.exit_code}{joined}{reason}", **evidence)
    passed = evidence["junit"]["passed"]
    return ctx.passed(
        f"exit {obs.exit_code} in {obs.duration_s:.2f}s, {passed} passed in the JUnit report"
        f"{_canary_note(canaries)}: {command}{left}",
        **evidence,
    )


def exit_detail(obs: CommandObservation, left: str) -> str:
    limit = f" ({obs.limit})" if obs.limit else ""
    return f"exit {obs.exit_code}{limit}: {_headline(obs.stdout, obs.stderr)}{left}"


def _canary_note(canaries: list[Case]) -> str:
    return f" (and {len(canaries)} canary tests failed, as they must)" if canaries else ""


def _headline(stdout: str, stderr: str) -> str:
    """The first stderr line, else the last stdout line (where test runners summarize).

    A Python traceback's first line says nothing; its last line names the exception.
    """
    err = [line for line in stderr.splitlines() if line.strip()]
    out = [line for line in stdout.splitlines() if line.strip()]
    if err:
        line = err[-1] if err[0].startswith("Traceback (most recent call last)") else err[0]
    else:
        line = out[-1] if out else "(no output)"
    return line.strip()[:DETAIL_LIMIT]
