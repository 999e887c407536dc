"""``test_must_pass``: a command (usually the project's tests) passes on a copy of the workspace.

What the checker guarantees, and what a task must still protect itself, is in
docs/tasks.md (``test_must_pass``). In short: each command runs on its own copy of
the workspace, sandboxed, with a minimal environment and the grader's interpreter
in safe-path mode (`_interpreter`); a pytest run also gets the checker's own config
(`_pytest_config`), no plugin autoload, no conftest the task does not own, a start
with nothing of the workspace importable and the task's test modules resolved to the
task's files (`_bootstrap`), and passes only on the JUnit report it writes outside the
copy (`_junit`), which must show the trial's canary tests failed (`_canary`,
`_verdict`).
"""

from __future__ import annotations

import os
import secrets
import shlex
import time
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from pydantic import Field, field_validator

from benchwright.checks._context import CheckContext
from benchwright.checks._registry import CheckParams, check
from benchwright.checks.test_must_pass._bootstrap import (
    DEFER_VARIABLE,
    OWNED_VARIABLE,
    owned_modules,
    write_bootstrap,
)
from benchwright.checks.test_must_pass._canary import plant
from benchwright.checks.test_must_pass._command import Invocation, parse
from benchwright.checks.test_must_pass._interpreter import (
    environment,
    interpreter_words,
    write_site,
)
from benchwright.checks.test_must_pass._junit import (
    Case,
    ReportError,
    read_report,
    stamped_tests,
)
from benchwright.checks.test_must_pass._program import missing_program, not_started
from benchwright.checks.test_must_pass._pycache import harness_pycache
from benchwright.checks.test_must_pass._pytest_config import PytestConfig, fixture_config
from benchwright.checks.test_must_pass._verdict import exit_detail, judge_report
from benchwright.checks.test_must_pass._workdir import Workdir, remove_conftests, workdir
from benchwright.model import CheckResult, Status, Task
from benchwright.probes import CommandObservation, run_command
from benchwright.sandbox import Network

Canaries = Mapping[str, tuple[str, ...]]
"""Canary test names by stamped file."""
EVIDENCE_LIMIT = 64_000
REPORT = "junit.xml"


class TestMustPassParams(CheckParams):
    __test__ = False  # not a pytest class, despite the name

    command: str = Field(min_length=1)
    """Shell command run on a copy of the workspace; a leading ``python`` means the grader's
    interpreter in safe-path mode, a leading ``pytest`` means ``python -m pytest``."""
    timeout: float = Field(default=60.0, gt=0)
    """Seconds before the command's whole process group is killed and the check fails."""
    import_path: tuple[str, ...] = (".",)
    """Workspace directories Python imports from, appended after the stdlib and site-packages."""

    @field_validator("command")
    @classmethod
    def _runnable_on_our_terms(cls, command: str) -> str:
        parse(command)
        return command

    @field_validator("import_path")
    @classmethod
    def _inside_the_workspace(cls, paths: tuple[str, ...]) -> tuple[str, ...]:
        for path in paths:
            pure = PurePosixPath(path)
            if not path or "\0" in path or pure.is_absolute() or ".." in pure.parts:
                raise ValueError(f"{path!r} is not a directory relative to the workspace")
        return paths


@check("test_must_pass", params=TestMustPassParams)
def test_must_pass(p: TestMustPassParams, ctx: CheckContext) -> CheckResult:
    """Passes when the command exits 0 in time and, for pytest, its own report shows a pass.

    Fails on a non-zero exit, a timeout, or a pytest run whose JUnit report is missing,
    shows no test, a failure, or a stamped test that did not pass; INFRA when the harness
    could not run the command at all, or the command's own program is missing here
    (`_program`: a missing tool is not the agent's fault). A pytest run with canary tests
    (`_canary`) must report each of them failed, else it fails as "report tampered".
    """
    invocation = parse(p.command)
    shell = invocation.runner == "shell"
    if shell and (missing := missing_program(p.command, os.environ.get("PATH", os.defpath))):
        return ctx.result(Status.INFRA, 0.0, missing, command=p.command)
    try:
        stamped = stamped_tests(invocation.words, ctx.task.stamp)
    except SyntaxError as exc:
        return ctx.result(Status.INFRA, 0.0, f"a stamped test file does not parse: {exc}")
    config = fixture_config(ctx.task.files)
    started = time.perf_counter()
    try:
        with workdir(ctx.directory(), shared=ctx.confinement.enabled) as work:
            obs, facts = _execute(invocation, p, ctx, work, config)
            report = _report(work) if invocation.runner == "pytest" else None
    except OSError as exc:
        return ctx.result(Status.INFRA, 0.0, f"cannot copy the workspace for the command: {exc}")
    # The check's time beyond its command's (its view, the sandbox, clean-up): the table's
    # time column is the two together, and the detail names the command's alone.
    harness_s = max(0.0, time.perf_counter() - started - obs.duration_s)
    evidence = {**_evidence(p.command, obs), "harness_s": round(harness_s, 3), **facts}
    if obs.error:  # the shell itself could not start: the harness, not the work
        return ctx.result(Status.INFRA, 0.0, obs.error, **evidence)
    if obs.timed_out:
        return ctx.failed(
            f"timed out after {p.timeout:g}s (process group killed): {p.command}", **evidence
        )
    # A background process that outlived the command was killed; the verdict stays the
    # command's own, and the detail says what was killed.
    left = STRAGGLER_NOTE if obs.straggler else ""
    if shell and (why := not_started(p.command, obs.exit_code, obs.stderr)):
        return ctx.result(Status.INFRA, 0.0, why, **evidence)
    if report is None:  # not pytest: the exit status is all there is
        if obs.exit_code != 0:
            return ctx.failed(exit_detail(obs, left), **evidence)
        return ctx.passed(f"exit 0 in {obs.duration_s:.2f}s: {p.command}{left}", **evidence)
    words = [*config.addopts, *invocation.words]
    return judge_report(ctx, p.command, obs, report, stamped, words, evidence, left)


def plant_canaries(task: Task) -> tuple[dict[str, bytes], Canaries]:
    """The task's stamp with fresh canary tests in its test files, and their names by file.

    Only when one of the task's checks is a pytest ``test_must_pass`` (the only reader of
    canaries); otherwise the stamp as it is.
    """
    if not any(_runs_pytest(spec.type, spec.params) for spec in task.checks):
        return dict(task.stamp), {}
    python_files = fixture_config(task.files).python_files
    return plant(task.stamp, python_files, secrets.SystemRandom())


def _runs_pytest(check_type: str, params: object) -> bool:
    return (
        check_type == "test_must_pass"
        and isinstance(params, TestMustPassParams)
        and parse(params.command).runner == "pytest"
    )


STRAGGLER_NOTE = " (a background process outlived the command and was killed)"


def _execute(
    invocation: Invocation,
    p: TestMustPassParams,
    ctx: CheckContext,
    work: Workdir,
    config: PytestConfig,
) -> tuple[CommandObservation, dict[str, Any]]:
    """Run the command on ``work``'s copy, confined; returns what it did and what was set up."""
    write_site(work.site)
    pycache = harness_pycache()
    python = shlex.join(interpreter_words(pycache))
    import_path = [work.copy / d for d in p.import_path]
    facts: dict[str, Any] = {"runner": invocation.runner, "left_out": work.left_out}
    facts["files_copied"] = work.copied  # 0 when the trial's shared base was reused
    extra_env: dict[str, str] = {}
    line = f"{python}{invocation.tail}" if invocation.runner == "python" else p.command
    if invocation.runner == "pytest":
        owned = {*ctx.task.files, *ctx.task.stamp}
        import_path += [work.copy / d for d in config.pythonpath]
        facts["conftest_removed"] = remove_conftests(work, owned)
        facts["pytest_config"] = config.source
        options = [*config.write(ctx.task.files, work.config), *_pytest_options(invocation, work)]
        bootstrap = shlex.quote(str(write_bootstrap(work.site)))
        line = f"{python} {bootstrap}{invocation.tail} {shlex.join(options)}"
        extra_env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        extra_env[DEFER_VARIABLE] = "1"
        listing = work.config / "owned-modules.json"
        extra_env[OWNED_VARIABLE] = owned_modules(work.copy, owned, config.python_files, listing)
    env = environment(
        site=work.site,
        pycache=pycache,
        import_path=import_path,
        home=work.home,
        extra=extra_env,
    )
    sandbox = ctx.confinement.sandbox(
        writable=work.writable,
        readable=[work.site, work.config, pycache],
        network=Network.NONE,
        overlay=work.overlay,
    )
    return run_command(line, work.copy, timeout_s=p.timeout, env=env, sandbox=sandbox), facts


def _pytest_options(invocation: Invocation, work: Workdir) -> list[str]:
    """The checker's terms: its rootdir, no cache, no conftest above the copy, its report."""
    options = ["--rootdir", str(work.copy), "--confcutdir", str(work.copy)]
    options += ["-p", "no:cacheprovider", f"--junitxml={work.report / REPORT}"]
    options.append("--maxfail=0")  # a canary's failure must not stop the run (-x)
    if not any(w.startswith("--import-mode") for w in invocation.words):
        options.append("--import-mode=append")  # test dirs join sys.path last, not first
    return options


def _report(work: Workdir) -> list[Case] | str:
    try:
        return read_report(work.report / REPORT)
    except ReportError as exc:
        return str(exc)


def _evidence(command: str, obs: CommandObservation) -> dict[str, Any]:
    return {
        "command": command,
        "exit_code": obs.exit_code,
        "stdout": _tail(obs.stdout),
        "stderr": _tail(obs.stderr),
        "command_s": round(obs.duration_s, 3),
        "straggler": obs.straggler,
        "limit": obs.limit,
    }


def _tail(text: str) -> str:
    if len(text) <= EVIDENCE_LIMIT:
        return text
    return f"[{len(text) - EVIDENCE_LIMIT} characters cut]\n" + text[-EVIDENCE_LIMIT:]
