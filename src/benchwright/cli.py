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
    plurals = {"task": "tasks", "trajectory": "trajectories", "manifest": "manifests",
               "suite": "suites"}  # fmt: skip
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
    suite: Annotated[Path | None, typer.Argument(help="Suite directory or suite file.")] = None,
    agent: Annotated[str | None, typer.Option("--agent", help=_AGENT_HELP)] = None,
    tasks_glob: Annotated[str, typer.Option("--tasks", help="Task ids to run (glob).")] = "*",
    iterations: Annotated[int, typer.Option("--iterations", help="Trials per task.")] = 1,
    budget: Annotated[float | None, typer.Option("--budget", help="Seconds per phase.")] = None,
    env: Annotated[list[str] | None, typer.Option("--env", help="NAME or NAME=VALUE.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Given to agents.")] = 0,
    out: Annotated[Path, typer.Option("--out", help="Where runs are written.")] = Path("runs"),
    resume: Annotated[Path | None, typer.Option("--resume", help="Finish a run dir.")] = None,
    task: Annotated[Path | None, typer.Option("--task", help="One task file (replay).")] = None,
    trajectory: Annotated[
        Path | None, typer.Option("--trajectory", help="The recorded trajectory (with --task).")
    ] = None,
    json_out: JsonOpt = None,
    junit_out: JunitOpt = None,
    keep: KeepOpt = False,
) -> None:
    """Run an agent on a suite (SUITE --agent A), resume a run, or replay one --task."""
    if task is not None or trajectory is not None:
        from benchwright.dsl import load_task, load_trajectory

        if task is None or trajectory is None or suite is not None:
            _invalid("--task and --trajectory go together, without SUITE")
        pair = (load_task(task), load_trajectory(trajectory))
        _grade([pair], json_out, junit_out, keep)
    _run_suite(suite, agent, tasks_glob, iterations, budget, env or [], seed, out, resume,
               json_out, junit_out)  # fmt: skip


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


# --- vendor commands ---
vendor_app = typer.Typer(help="Mock vendors to build and grade against.", no_args_is_help=True)
app.add_typer(vendor_app, name="vendor")


@vendor_app.command("meridian")
@_reports_errors
def vendor_meridian(
    port: Annotated[int, typer.Option("--port", help="Port on 127.0.0.1.")] = 8899,
    seed: Annotated[int, typer.Option("--seed", help="Fixture seed; 0 is the published one.")] = 0,
    trace: Annotated[Path | None, typer.Option("--trace", help="JSONL trace file.")] = None,
) -> None:
    """Serve the Meridian API v2 mock (docs at /v2/docs) until Ctrl-C."""
    from benchwright.services.meridian.standalone import serve_forever

    serve_forever(port=port, seed=seed, trace=trace, echo=typer.echo)


# --- end vendor commands ---


# --- suite runs (issue #4): benchwright run SUITE --agent …, compare ------------------------

_AGENT_HELP = "nop | oracle | replay:F | command:'…' | claude-code | codex | aider | goose"


def _invalid(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _run_suite(
    suite: Path | None, agent: str | None, tasks_glob: str, iterations: int,
    budget: float | None, env: list[str], seed: int, out: Path, resume: Path | None,
    json_out: Path | None, junit_out: Path | None,
) -> None:  # fmt: skip
    """Plan (exit 2 on bad input), run with a progress bar, print tiers, exit by docs/suites.md."""
    from rich.console import Console

    from benchwright.agents import parse_env_options
    from benchwright.execution import execute, exit_status, plan_resume, plan_run
    from benchwright.execution.junit import write_suite_junit
    from benchwright.execution.run_display import TrialProgress, print_summary
    from benchwright.execution.store import write_json

    try:
        extra = parse_env_options(env)
    except ValueError as exc:
        _invalid(str(exc))
    if resume is not None:
        plan = plan_resume(resume, extra)
    elif suite is None or agent is None:
        _invalid("give SUITE and --agent (or --resume RUN_DIR, or --task with --trajectory)")
    else:
        plan = plan_run(suite, agent, tasks_glob=tasks_glob, iterations=iterations,
                        budget_s=budget, env=extra, seed=seed, out=out)  # fmt: skip
    console = Console()
    with TrialProgress(len(plan.trials), console, Console(stderr=True)) as progress:
        outcome = execute(plan, progress)
    if json_out:
        write_json(json_out, outcome.summary)
    if junit_out:
        write_suite_junit(plan.suite.name, outcome.results, junit_out)
    print_summary(outcome.summary, str(plan.run_dir), console)
    code, message = exit_status(outcome)
    if message:
        typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


@app.command()
@_reports_errors
def compare(
    a: Annotated[Path, typer.Argument(help="summary.json (or run directory) A.")],
    b: Annotated[Path, typer.Argument(help="summary.json (or run directory) B.")],
) -> None:
    """Compare two run summaries' pass rates; refuses different schema versions (exit 2)."""
    from benchwright.execution import compare_summaries, read_summary

    def summary(path: Path) -> dict[str, Any]:
        return read_summary(path / "summary.json" if path.is_dir() else path)

    for key, row in compare_summaries(summary(a), summary(b)).items():
        typer.echo(f"{key}: {row['a']} -> {row['b']} (delta {row['delta']})")


# --- end of suite runs -----------------------------------------------------------------------


# --- scoring commands ---
scorer_app = typer.Typer(help="Check a scorer config: selftest, freeze gate.", no_args_is_help=True)
app.add_typer(scorer_app, name="scorer")
ScorerArg = Annotated[Path, typer.Argument(help="The scorer config (YAML), e.g. scorers/sb7.yaml.")]
RungOpt = Annotated[str | None, typer.Option("--rung", help="Ladder rung, for laddered scorers.")]


@app.command("compose")
@_reports_errors
def compose_cmd(
    rows: Annotated[Path, typer.Argument(help="ROWS.json: a list of {id, status, score, detail}.")],
    scorer: Annotated[Path, typer.Option("--scorer", help="The scorer config (YAML).")],
    json_out: JsonOpt = None,
    rung: RungOpt = None,
) -> None:
    """Compose check rows into a scorecard and print the verdict (2 invalid input, 3 refused)."""
    from rich.console import Console

    from benchwright.reports.scorecard import print_verdict, write_scorecard
    from benchwright.scoring import compose, load_rows, load_scorer

    resolved = load_scorer(scorer, rung)
    card = compose(load_rows(rows, resolved), resolved)
    if json_out:
        write_scorecard(card, json_out)
    print_verdict(card, Console())


@scorer_app.command("selftest")
@_reports_errors
def scorer_selftest(config: ScorerArg, rung: RungOpt = None) -> None:
    """Single-defect runs must order wrong-money < data-loss < ... < cosmetic (exit 1 if not)."""
    from benchwright.scoring import load_scorer, selftest

    result = selftest(load_scorer(config, rung))
    for name, score in result.scores:
        typer.echo(f"{name}: {score:.4f}")
    for problem in result.problems:
        typer.echo(f"error: {problem}", err=True)
    if not result.passed:
        raise typer.Exit(1)
    typer.echo("selftest passed: single defects order strictly by severity")


@scorer_app.command("freeze")
@_reports_errors
def scorer_freeze(
    config: ScorerArg,
    rows: Annotated[Path, typer.Argument(help="The golden reference's ROWS.json.")],
    out: Annotated[Path | None, typer.Option("--out", help="Marker path.")] = None,
    rung: RungOpt = None,
) -> None:
    """Freeze gate: selftest, then the reference sweep; refuses (exit 3) or writes a marker."""
    from datetime import UTC, datetime

    from benchwright.errors import RefusedError
    from benchwright.reports.scorecard import write_marker
    from benchwright.scoring import freeze_check, freeze_marker, load_rows, load_scorer

    scorer = load_scorer(config, rung)
    decision = freeze_check(load_rows(rows, scorer), scorer)
    if not decision.passed:
        raise RefusedError(f"{config}: freeze refused, nothing written", decision.problems)
    path = out or Path(f"{config.stem}-reference-pass.json")
    write_marker(freeze_marker(decision, scorer, datetime.now(UTC).date().isoformat()), path)
    typer.echo(f"frozen {scorer.version} at {decision.card.score:.4f}: wrote {path}")


# --- end scoring commands ---


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
