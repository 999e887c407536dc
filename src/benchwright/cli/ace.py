"""``benchwright ace score|selftest``: the ACE oracle over one workspace, and its gate."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from benchwright.cli._app import (
    ExecutorOpt,
    JsonOpt,
    RayAddressOpt,
    WorkersOpt,
    app,
    invalid,
    reports_errors,
)

ace_app = typer.Typer(help="The ACE oracle: score a workspace on a rung, selftest.",
                      no_args_is_help=True)  # fmt: skip
app.add_typer(ace_app, name="ace")
GRADLE_MODES = ("docker", "local")


@ace_app.command("score")
@reports_errors
def score_cmd(
    workspace: Annotated[Path, typer.Argument(help="The workspace directory to grade.")],
    rung: Annotated[str, typer.Option("--rung", help="A rung of scorers/ace-ladder.json.")],
    skip_docker: Annotated[
        bool, typer.Option("--skip-docker", help="Docker-gated rows SKIPPED, no engine probed.")
    ] = False,
    base_url: Annotated[
        str | None, typer.Option("--base-url", help="A running stack for F1-F9 and C2.")
    ] = None,
    gradle: Annotated[str, typer.Option("--gradle", help="docker | local (B1-B3).")] = "docker",
    json_out: JsonOpt = None,
) -> None:
    """Score WORKSPACE on one rung with the fixed denominator (2: unknown rung or input, or
    a workspace with no Java, Kotlin or Gradle file, which no rung can grade)."""
    import json

    from rich.console import Console

    from benchwright.checks.ace.grade import grade_workspace
    from benchwright.reports.ace import print_grade

    if gradle not in GRADLE_MODES:
        invalid(f"--gradle {gradle!r}: choose one of {', '.join(GRADLE_MODES)}")
    mode: Literal["docker", "local"] = "local" if gradle == "local" else "docker"
    grade = grade_workspace(workspace, rung, skip_docker=skip_docker, base_url=base_url,
                            gradle=mode, refuse_other_kinds=True)  # fmt: skip
    if json_out:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(grade.to_dict(), indent=2) + "\n", encoding="utf-8")
    print_grade(grade, Console())


@ace_app.command("selftest")
@reports_errors
def selftest_cmd(
    fixtures: Annotated[Path, typer.Argument(help="A directory with expectations.yaml.")],
    workers: WorkersOpt = None,
    executor: ExecutorOpt = "local",
    ray_address: RayAddressOpt = None,
) -> None:
    """Grade every fixture against its expectations, one job each on the executor (1: one
    broke, 2: bad expectations, 3: grading a fixture raised)."""
    from benchwright.checks.ace.selftest import run_selftest
    from benchwright.execution.executor import make_executor

    outcomes = run_selftest(fixtures, make_executor(executor, workers, ray_address))
    for outcome in outcomes:
        mark = "BROKEN" if outcome.broken else "ok"
        typer.echo(f"{mark:6} {outcome.workspace}: partial {outcome.partial_pct}%")
        for line in outcome.broken:
            typer.echo(f"  {outcome.workspace}: {line}", err=True)
    if any(o.broken for o in outcomes):
        raise typer.Exit(1)
    typer.echo(f"ace selftest passed: {len(outcomes)} fixture(s) within their expectations")
