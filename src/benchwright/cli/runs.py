"""``benchwright runs list|show|rm``: the runs ``run SUITE --agent`` left under ``--runs-dir``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from benchwright.cli._app import app, reports_errors

if TYPE_CHECKING:
    from benchwright.execution.runs import RunEntry

runs_app = typer.Typer(help="List, show and remove suite runs.", no_args_is_help=True)
app.add_typer(runs_app, name="runs")

RunsDirOpt = Annotated[Path, typer.Option("--runs-dir", help="Where runs are written (run --out).")]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]


@runs_app.command("list")
@reports_errors
def runs_list(runs_dir: RunsDirOpt = Path("runs"), as_json: AsJson = False) -> None:
    """Every run, newest first: id, suite, agent, date, trials done/total, pass rate (none
    for a run with a tampered file), and its seals: UNVERIFIED or TAMPERED unless it is
    verified, then how many results are verified/unverified/tampered."""
    from benchwright.execution.runs import list_runs

    entries = list_runs(runs_dir)
    if as_json:
        typer.echo(json.dumps([e.to_dict() for e in entries], indent=2))
        return
    if not entries:
        typer.echo(f"no runs in {runs_dir}")
        return
    rows = [("run", "suite", "agent", "created", "trials", "pass", "complete", "seals")]
    rows += [(e.id, e.suite, e.agent, e.created_at, f"{e.done}/{e.total}", _rate(e.pass_rate),
              "yes" if e.complete else "no", e.seals_cell) for e in entries]  # fmt: skip
    widths = [max(len(row[n]) for row in rows) for n in range(len(rows[0]))]
    for row in rows:
        typer.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())


@runs_app.command("show")
@reports_errors
def runs_show(
    run: Annotated[str, typer.Argument(help="Run id or run directory.")],
    runs_dir: RunsDirOpt = Path("runs"),
    as_json: AsJson = False,
) -> None:
    """A run's summary, each task's verdict and why each of its trials that did not pass
    failed (its error, or its first failing check and that check's detail), the state of
    its seals (first, unless it is verified; naming each tampered file), and where its
    files are; exit 1 if unknown."""
    from benchwright.execution.run_display import failure_reason, per_trial_lines, task_line
    from benchwright.execution.run_meta import usage_line
    from benchwright.execution.runs import run_entry
    from benchwright.execution.verification import verify_run

    path = _find(runs_dir, run)
    seals = verify_run(path)
    entry = run_entry(path, seals)
    summary = {} if entry.tampered else seals.summary_doc or {}
    tasks = summary.get("tasks") or {}
    if as_json:
        typer.echo(json.dumps({**entry.to_dict(), "summary": summary or None}, indent=2))
        return
    if entry.headline:
        typer.echo(entry.headline)
    typer.echo(_headline(entry))
    typer.echo(_seals_line(entry))
    for sentence in entry.tampered:
        typer.echo(f"  TAMPERED {sentence}")
    for line in per_trial_lines(summary):
        typer.echo(line)
    for task_id, task in tasks.items():
        typer.echo(f"  {task.get('verdict', '?'):<13} {task_id} ({task_line(summary, task)})")
        for trial in seals.trials if not entry.tampered else ():
            if trial.task_id == task_id and trial.result and (why := failure_reason(trial.result)):
                typer.echo(f"    #{trial.iteration} {why}")
    if usage := summary.get("usage"):
        typer.echo(f"run: {usage_line(usage)}")
    if entry.tampered:
        typer.echo("  verdicts withheld: the run has tampered files")
    elif not tasks:
        typer.echo("  no summary.json yet: the run is still going, or was stopped "
                   "(finish it with run --resume)")  # fmt: skip
    typer.echo(f"files: {path}/run.json, summary.json, trials/<task>/<iteration>/"
               "{result.json, agent.log, trajectory.json, answer.txt}")  # fmt: skip


@runs_app.command("rm")
@reports_errors
def runs_rm(
    runs: Annotated[list[str], typer.Argument(help="Run ids or run directories.")],
    runs_dir: RunsDirOpt = Path("runs"),
) -> None:
    """Remove runs (and their keys) without asking; refuses any path outside --runs-dir
    before removing anything (exit 2); exit 1 when a run is unknown."""
    from benchwright.execution.runs import UnknownRun, find_run, remove_run

    found: list[Path] = []
    unknown: list[str] = []
    for name in runs:
        try:
            found.append(find_run(runs_dir, name))
        except UnknownRun as exc:
            unknown.append(str(exc))
    for path in dict.fromkeys(found):
        for removed in remove_run(path):
            typer.echo(f"removed {removed}")
    for message in unknown:
        typer.echo(f"error: {message}", err=True)
    if unknown:
        raise typer.Exit(1)


def _find(runs_dir: Path, name: str) -> Path:
    from benchwright.execution.runs import UnknownRun, find_run

    try:
        return find_run(runs_dir, name)
    except UnknownRun as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None


def _rate(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.0%}"


def _seals_line(e: RunEntry) -> str:
    counts = ", ".join(f"{n} {state}" for state, n in e.seals.items())
    return f"results: {counts}; summary.json: {e.summary_seal or 'none'}"


def _headline(e: RunEntry) -> str:
    state = "complete" if e.complete else "incomplete"
    return (f"{e.id}: suite {e.suite}, agent {e.agent}, created {e.created_at}, "
            f"{e.done}/{e.total} trials, correctness {_rate(e.pass_rate)}, {state}")  # fmt: skip
