"""The ``benchwright`` command line: parse, call one package function, print, exit.

Exit codes: 0 all passed, 1 some check failed, 2 invalid input, 3 harness failure.
Heavy imports happen inside the commands so that ``--help`` stays fast.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

if TYPE_CHECKING:
    from benchwright.model import GateResult, RunResult, Task, Trajectory

app = typer.Typer(
    name="benchwright",
    help="Grade what AI coding agents build.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
checks_app = typer.Typer(help="The check types this installation knows.", no_args_is_help=True)
trajectory_app = typer.Typer(
    help="Convert agent transcripts to trajectories.", no_args_is_help=True
)
app.add_typer(checks_app, name="checks")
app.add_typer(trajectory_app, name="trajectory")

F = TypeVar("F", bound=Callable[..., Any])

JsonOpt = Annotated[Path | None, typer.Option("--json", help="Write the JSON report here.")]
JunitOpt = Annotated[Path | None, typer.Option("--junit", help="Write JUnit XML here.")]
KeepOpt = Annotated[bool, typer.Option("--keep", help="Keep workspaces (and their initial copy).")]


def _reports_errors(command: F) -> F:
    """Map `BenchwrightError` to its one-line messages on stderr and its exit code."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from benchwright.errors import BenchwrightError

        try:
            return command(*args, **kwargs)
        except BenchwrightError as exc:
            for line in exc.lines():
                typer.echo(f"error: {line}", err=True)
            raise typer.Exit(exc.exit_code) from None

    return wrapper  # type: ignore[return-value]


@app.command()
@_reports_errors
def validate(
    paths: Annotated[
        list[Path], typer.Argument(help="Task, trajectory or manifest files, or directories.")
    ],
) -> None:
    """Validate suite files without running anything; exit 2 naming every invalid field."""
    from benchwright.dsl import validate_documents

    checked = validate_documents(paths)
    plurals = {"task": "tasks", "trajectory": "trajectories", "manifest": "manifests"}
    counts = {kind: sum(v.kind == kind for v in checked) for kind in plurals}
    summary = ", ".join(
        f"{n} {kind if n == 1 else plurals[kind]}" for kind, n in counts.items() if n
    )
    if not checked:
        typer.echo("error: no task, trajectory or manifest file found", err=True)
        raise typer.Exit(2)
    typer.echo(f"valid: {summary}")


@app.command()
@_reports_errors
def run(
    task: Annotated[Path, typer.Option("--task", help="The task file.")],
    trajectory: Annotated[Path, typer.Option("--trajectory", help="The recorded trajectory.")],
    json_out: JsonOpt = None,
    junit_out: JunitOpt = None,
    keep: KeepOpt = False,
) -> None:
    """Replay one trajectory onto one task and grade it."""
    from benchwright.dsl import load_task, load_trajectory

    pair = (load_task(task), load_trajectory(trajectory))
    _grade([pair], json_out, junit_out, keep)


@app.command()
@_reports_errors
def gate(
    trajectory: Annotated[
        Path,
        typer.Option(
            "--trajectory", help="A trajectory for every task, or a directory of <task-id>.json."
        ),
    ],
    tasks: Annotated[Path | None, typer.Option("--tasks", help="Directory of task files.")] = None,
    manifest: Annotated[
        Path | None, typer.Option("--manifest", help="Manifest selecting task files.")
    ] = None,
    json_out: JsonOpt = None,
    junit_out: JunitOpt = None,
    keep: KeepOpt = False,
) -> None:
    """Grade many tasks; exit 0 only when every task passed."""
    from benchwright.dsl import pair_trajectories, select_tasks

    _grade(pair_trajectories(select_tasks(tasks, manifest), trajectory), json_out, junit_out, keep)


def _grade(
    pairs: list[tuple[Task, Trajectory]], json_out: Path | None, junit_out: Path | None, keep: bool
) -> None:
    from rich.console import Console

    from benchwright.errors import EXIT_FAILED, EXIT_HARNESS, EXIT_PASSED
    from benchwright.execution import run_gate
    from benchwright.reports import write_json, write_junit
    from benchwright.reports.terminal import print_gate

    with _progress(len(pairs)) as advance:
        result = run_gate(pairs, keep=keep, on_result=advance)
    if json_out:
        write_json(result, json_out)
    if junit_out:
        write_junit(result, junit_out)
    print_gate(result, Console())
    for run in result.runs:
        if run.workspace:
            typer.echo(f"kept workspace of {run.task_id}: {run.workspace}")
    raise typer.Exit(_exit_code(result, EXIT_PASSED, EXIT_FAILED, EXIT_HARNESS))


def _exit_code(result: GateResult, ok: int, failed: int, harness: int) -> int:
    if result.harness_failed:
        return harness
    return ok if result.passed else failed


class _progress:
    """A progress bar on stderr for long gates on a terminal; silent otherwise."""

    def __init__(self, total: int) -> None:
        self.total = total
        self._bar: Any = None

    def __enter__(self) -> Callable[[RunResult], None]:
        if self.total > 1 and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import Progress

            self._bar = Progress(console=Console(stderr=True), transient=True)
            self._bar.start()
            task = self._bar.add_task("grading", total=self.total)
            return lambda run: self._bar.update(task, advance=1, description=run.task_id)
        return lambda run: None

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()


@checks_app.command("list")
def checks_list() -> None:
    """List every registered check type with its parameters."""
    from benchwright.checks import default_registry

    registry = default_registry()
    for name in registry.names():
        check_type = registry.get(name)
        typer.echo(f"{name}: {check_type.summary}")
        for field, info in check_type.params.model_fields.items():
            need = "required" if info.is_required() else f"default {info.default!r}"
            typer.echo(f"    {field} ({need}){': ' + info.description if info.description else ''}")


@trajectory_app.command("import")
@_reports_errors
def trajectory_import(
    source: Annotated[Path, typer.Argument(help="The transcript file.")],
    from_format: Annotated[str, typer.Option("--from", help="claude-code, codex or jsonl.")],
    out: Annotated[Path, typer.Option("-o", "--out", help="Where to write the trajectory JSON.")],
) -> None:
    """Convert a Claude Code, Codex or generic JSONL transcript into a trajectory file."""
    from benchwright.agents.transcripts import import_transcript

    trajectory = import_transcript(from_format, source, out)
    typer.echo(f"wrote {out}: {len(trajectory['steps'])} step(s)")


def main() -> None:
    """Entry point: an unexpected crash is a harness failure (exit 3), never a verdict."""
    from benchwright.errors import EXIT_HARNESS

    try:
        app()
    except Exception:
        import traceback

        traceback.print_exc()
        typer.echo("error: internal error in benchwright (the traceback is above)", err=True)
        sys.exit(EXIT_HARNESS)
