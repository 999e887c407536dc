"""``test_must_pass``: a command (usually the project's tests) exits 0 in the workspace."""

from __future__ import annotations

import os
import shlex
import sys

from pydantic import Field

from benchwright.checks._context import CheckContext
from benchwright.checks._registry import CheckParams, check
from benchwright.model import CheckResult, Status
from benchwright.probes import run_command

DETAIL_LIMIT = 500
EVIDENCE_LIMIT = 64_000


class TestMustPassParams(CheckParams):
    __test__ = False  # not a pytest class, despite the name

    command: str = Field(min_length=1)
    """Shell command run in the workspace; a leading ``python`` means the grader's interpreter."""
    timeout: float = Field(default=60.0, gt=0)
    """Seconds before the command's whole process group is killed and the check fails."""


def resolve_interpreter(command: str) -> str:
    """Run ``python …`` under the grader's own interpreter, not whatever PATH finds."""
    for name in ("python", "python3"):
        if command == name or command.startswith(name + " "):
            return shlex.quote(sys.executable) + command[len(name) :]
    return command


@check("test_must_pass", params=TestMustPassParams)
def test_must_pass(p: TestMustPassParams, ctx: CheckContext) -> CheckResult:
    """Passes when the command exits 0 within the timeout; fails otherwise, with its output."""
    command = resolve_interpreter(p.command)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    obs = run_command(command, ctx.directory(), timeout_s=p.timeout, env=env)
    evidence = {
        "command": p.command,
        "exit_code": obs.exit_code,
        "stdout": _tail(obs.stdout),
        "stderr": _tail(obs.stderr),
        "command_s": round(obs.duration_s, 3),
        "straggler": obs.straggler,
    }
    if obs.error:  # the shell itself could not start: the harness, not the work
        return ctx.result(Status.INFRA, 0.0, obs.error, **evidence)
    if obs.timed_out:
        return ctx.failed(
            f"timed out after {p.timeout:g}s (process group killed): {p.command}", **evidence
        )
    # A background process that outlived the command was killed; the verdict stays the
    # command's own exit code, and the detail says what was killed.
    left = STRAGGLER_NOTE if obs.straggler else ""
    if obs.exit_code == 0:
        return ctx.passed(f"exit 0 in {obs.duration_s:.2f}s: {p.command}{left}", **evidence)
    detail = f"exit {obs.exit_code}: {_headline(obs.stdout, obs.stderr)}{left}"
    return ctx.failed(detail, **evidence)


STRAGGLER_NOTE = " (a background process outlived the command and was killed)"


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


def _tail(text: str) -> str:
    if len(text) <= EVIDENCE_LIMIT:
        return text
    return f"[{len(text) - EVIDENCE_LIMIT} characters cut]\n" + text[-EVIDENCE_LIMIT:]
