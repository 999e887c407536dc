"""``benchwright grade SUITE --tree PATH``: execute a built app and score it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from benchwright.cli._app import JsonOpt, JunitOpt, app, reports_errors

PhasesOpt = Annotated[
    str | None, typer.Option("--phases", help="Comma-separated phases to run (default: all).")
]
AppNoSandboxOpt = Annotated[
    bool,
    typer.Option(
        "--no-sandbox",
        help="Run the app under test unconfined (the scorecard carries isolation: none).",
    ),
]


@app.command("grade")
@reports_errors
def grade_cmd(
    suite: Annotated[str, typer.Argument(help="Suite name or directory, e.g. suites/vspro.")],
    tree: Annotated[Path, typer.Option("--tree", help="The built tree (holds vspro/).")],
    json_out: JsonOpt = None,
    junit_out: JunitOpt = None,
    reference: Annotated[
        bool, typer.Option("--reference", help="Run the freeze gate; marker only on pass.")
    ] = False,
    seed: Annotated[int, typer.Option("--seed", help="Fixture seed of the vendor mock.")] = 0,
    phases: PhasesOpt = None,
    no_sandbox: AppNoSandboxOpt = False,
) -> None:
    """Grade TREE for SUITE and print the scorecard: exit 0 when the grading completed,
    whatever the score; 2 invalid input; 3 harness failure (a phase raised, the app cannot
    be sandboxed here without --no-sandbox) or refused (the --reference freeze gate, a
    thresholds file that breaks its pin)."""
    from benchwright.suites.grade_run import run_grade

    lines = run_grade(suite, tree, json_out, junit_out, reference, seed, phases, no_sandbox)
    for line in lines:
        typer.echo(line)
