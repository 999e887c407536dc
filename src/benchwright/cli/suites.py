"""Running agents on suites: ``run SUITE --agent``, ``run --resume``, ``compare``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from benchwright.cli._app import app, invalid, reports_errors, say_written

if TYPE_CHECKING:
    from benchwright.agents.model.config import ModelConfig
    from benchwright.execution.executor import Executor
    from benchwright.execution.isolation import IsolationRequest


def run_suite(
    suite: Path | None, agent: str | None, tasks_glob: str, iterations: int,
    budget: float | None, env: list[str], seed: int, out: Path, resume: Path | None,
    json_out: Path | None, junit_out: Path | None, isolation: IsolationRequest,
    executor: Executor, caps: tuple[int, int], allow_unverified: bool = False,
    model: ModelConfig | None = None, strict: bool = False,
) -> None:  # fmt: skip
    """Plan (exit 2 on bad input), run with a progress bar, print tiers, exit by docs/suites.md."""
    from rich.console import Console

    from benchwright.agents import parse_env_options
    from benchwright.execution import execute, exit_status, plan_resume, plan_run
    from benchwright.execution.junit import write_suite_junit
    from benchwright.execution.run_display import TrialProgress, print_summary
    from benchwright.execution.store import write_json
    from benchwright.workspace import WorkspaceCaps

    try:
        extra = parse_env_options(env)
    except ValueError as exc:
        invalid(str(exc))
    if resume is not None:
        # the caps the run was started with; refused unless it verifies (or allowed)
        plan = plan_resume(resume, extra, isolation, allow_unverified, strict)
    elif suite is None or agent is None:
        invalid("give SUITE and --agent (or --resume RUN_DIR, or --task with --trajectory)")
    else:
        plan = plan_run(suite, agent, tasks_glob=tasks_glob, iterations=iterations,
                        budget_s=budget, env=extra, seed=seed, out=out,
                        isolation=isolation, caps=WorkspaceCaps(*caps),
                        model=model, strict=strict)  # fmt: skip
    for warning in plan.warnings:
        typer.echo(f"warning: {warning}", err=True)
    console = Console()
    todo = len(plan.trials) - len(plan.done)
    with TrialProgress(todo, console, Console(stderr=True)) as progress:
        outcome = execute(plan, progress, executor)
    if json_out:
        write_json(json_out, outcome.summary)
    if junit_out:
        write_suite_junit(plan.suite.name, outcome.results, junit_out)
    print_summary(outcome.summary, str(plan.run_dir), console)
    say_written(json_out, junit_out)
    code, message = exit_status(outcome)
    if message:
        typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def model_options(
    agent: str | None, resume: Path | None, flags: dict[str, Any]
) -> ModelConfig | None:
    """The ``--model-*`` flags given as a `ModelConfig` for a ``model:`` agent; refused
    (exit 2) with any other agent, and with ``--resume`` (the run's recorded ones apply)."""
    from benchwright.agents.model.config import build_config

    if flags and resume is not None:
        invalid(f"--model-* flags with --resume: the run's recorded settings apply "
                f"(given: {', '.join(sorted(flags))})")  # fmt: skip
    if agent is None or not agent.startswith("model:"):
        if flags:
            invalid("--model-* flags need --agent model:PROVIDER/MODEL")
        return None
    return build_config(agent, **flags)


@app.command()
@reports_errors
def compare(
    a: Annotated[Path, typer.Argument(help="summary.json (or run directory) A.")],
    b: Annotated[Path, typer.Argument(help="summary.json (or run directory) B.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
    allow_unverified: Annotated[
        bool,
        typer.Option("--allow-unverified", help="Compare a run never sealed here (marked so)."),
    ] = False,
    fail_on_regression: Annotated[
        bool,
        typer.Option("--fail-on-regression", help="Exit 1 when any task newly fails in B."),
    ] = False,
) -> None:
    """Compare two runs: pass rates, then tasks newly failing, newly passing, changed in
    score (with the check rows that moved); refuses different schema versions, a file
    that fails verification, or a run it cannot verify (never sealed here) unless
    --allow-unverified, with which the output starts with an UNVERIFIED line (exit 2).
    With --fail-on-regression, exit 1 when a task passed in A and fails in B."""
    import json

    from benchwright.execution.compare import compare_runs, comparison_lines

    result = compare_runs(a, b, allow_unverified)
    typer.echo(json.dumps(result, indent=2) if as_json else "\n".join(comparison_lines(result)))
    failing = result["counts"]["newly_failing"]
    if fail_on_regression and failing:
        typer.echo(f"error: regression: {failing} task(s) newly failing in {b}", err=True)
        raise typer.Exit(1)
