"""Rich tables for people: one per task (check, status, detail), then a summary line."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from benchwright.model import GateResult, RunResult, Status

STATUS_STYLE = {
    Status.PASS: "green",
    Status.FAIL: "red",
    Status.NOT_ATTEMPTED: "red",
    Status.SKIPPED: "yellow",
    Status.INFRA: "magenta",
    Status.UNAVAILABLE: "yellow",
}
DETAILED_TASKS = 20
"""Up to this many tasks, a gate prints every task's table; above, only failing tasks' rows."""
LISTED_FAILURES = 100
"""The most failing tasks a large gate lists on the terminal; the JSON report has them all."""


def task_table(run: RunResult) -> Table:
    verdict = Text("PASSED", "bold green") if run.passed else Text("FAILED", "bold red")
    table = Table(
        title=Text.assemble(run.task_id, "  ", verdict), title_justify="left", expand=False
    )
    table.add_column("check")
    table.add_column("status")
    table.add_column("detail", overflow="fold")
    table.add_column("time", justify="right")
    for result in run.results:
        table.add_row(
            Text(result.check_id),
            Text(result.status.value, STATUS_STYLE[result.status]),
            Text(result.detail),  # plain text: a regex like x[/] is not Rich markup
            f"{result.duration_s:.2f}s",
        )
    for error in run.replay_errors:
        table.add_row("replay", Text("FAIL", "red"), Text(str(error)), "")
    return table


def failures_table(runs: list[RunResult]) -> Table:
    """One row per failing task with its first problem."""
    table = Table(title="Failing tasks", title_justify="left")
    table.add_column("task")
    table.add_column("checks passed", justify="right")
    table.add_column("first problem", overflow="fold")
    for run in runs:
        problems = [f"{r.check_id}: {r.detail}" for r in run.results if not r.passed]
        problems += [f"replay: {e}" for e in run.replay_errors]
        table.add_row(
            Text(run.task_id),
            f"{sum(r.passed for r in run.results)}/{len(run.results)}",
            Text(problems[0] if problems else ""),
        )
    return table


UNCONFINED_WARNING = (
    "WARNING: isolation: none — check commands ran the agent's code unsandboxed (--no-sandbox)"
)


def brief_line(run: RunResult) -> Text:
    """``PASSED  task`` or ``FAILED  task: caught by check, check`` (replay when it broke)."""
    if run.passed:
        return Text.assemble(Text("PASSED", "green"), f"  {run.task_id}")
    caught = [r.check_id for r in run.results if not r.passed]
    caught += ["replay"] if run.replay_errors else []
    return Text.assemble(Text("FAILED", "red"), f"  {run.task_id}: caught by {', '.join(caught)}")


def print_gate(gate: GateResult, console: Console, brief: bool = False) -> None:
    """Every task's table for small gates; for large ones, a row per failing task;
    ``brief``: one line per task (its verdict and the checks that failed it).

    A thousand green tables would bury the one red row a reader is looking for.
    """
    if brief:
        for run in gate.runs:
            console.print(brief_line(run), soft_wrap=True)  # one line each, however wide
    elif len(gate.runs) <= DETAILED_TASKS:
        for run in gate.runs:
            console.print(task_table(run))
    else:
        failing = [run for run in gate.runs if not run.passed]
        if failing:
            console.print(failures_table(failing[:LISTED_FAILURES]))
        if len(failing) > LISTED_FAILURES:
            console.print(f"... {len(failing) - LISTED_FAILURES} more failing task(s): see --json")
    if gate.isolation == "none":
        console.print(Text(UNCONFINED_WARNING, "bold red"))
    if gate.error:
        console.print(Text(f"Gate incomplete: {gate.error}", "bold magenta"))
    style = "bold green" if gate.passed else "bold red"
    console.print(Text(f"Gate summary: {gate.passed_count}/{len(gate.runs)} tasks passed", style))
