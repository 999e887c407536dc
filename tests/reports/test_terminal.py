"""The terminal report prints what checks said, verbatim, and stays readable at scale."""

from __future__ import annotations

from rich.console import Console

from benchwright.model import CheckResult, GateResult, RunResult, Status
from benchwright.reports.terminal import DETAILED_TASKS, print_gate


def _render(gate: GateResult) -> str:
    console = Console(width=200, record=True, color_system=None)
    with console.capture() as captured:
        print_gate(gate, console)
    return captured.get()


def test_details_that_look_like_markup_are_printed_verbatim():
    detail = r"no match for /x[/]/ and \[1, 2\] [bold]"
    run = RunResult("t[1]", (CheckResult.failing("c[/]", detail),))
    out = _render(GateResult((run,)))
    assert detail in out
    assert "c[/]" in out and "t[1]" in out


def test_a_large_gate_lists_only_failing_tasks_with_their_first_problem():
    runs = [
        RunResult(f"task-{n:02d}", (CheckResult.passing("a", "ok"),))
        for n in range(DETAILED_TASKS + 5)
    ]
    runs[3] = RunResult(
        "task-03", (CheckResult.passing("a", "ok"), CheckResult.failing("b", "broken thing"))
    )
    out = _render(GateResult(tuple(runs)))
    assert "Failing tasks" in out
    [row] = [line for line in out.splitlines() if "task-03" in line]
    assert "1/2" in row and "b: broken thing" in row
    assert "task-04" not in out
    assert f"Gate summary: {DETAILED_TASKS + 4}/{DETAILED_TASKS + 5} tasks passed" in out


def test_a_small_gate_prints_every_task_and_statuses():
    run = RunResult("t", (CheckResult("s", Status.SKIPPED, 0.0, "needs docker"),))
    out = _render(GateResult((run,)))
    assert "SKIPPED" in out and "needs docker" in out and "FAILED" in out


def test_brief_prints_one_line_per_task_naming_the_checks_that_failed_it():
    long_id = "x" * 150  # wider than any terminal: still one line
    runs = (RunResult("ok", (CheckResult.passing("a", "fine"),)),
            RunResult("bad", (CheckResult.passing("a", "fine"), CheckResult.failing("b", "no"),
                              CheckResult.failing(long_id, "no"))))  # fmt: skip
    console = Console(width=80, record=True, color_system=None)
    with console.capture() as captured:
        print_gate(GateResult(runs), console, brief=True)
    assert captured.get().splitlines() == [
        "PASSED  ok",
        f"FAILED  bad: caught by b, {long_id}",
        "Gate summary: 1/2 tasks passed",
    ]
