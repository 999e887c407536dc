"""``benchwright calibrate SUITE``: fit this host's thresholds from the frozen reference."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from benchwright.cli._app import WorkersOpt, app, reports_errors
from benchwright.cli.grade import AppNoSandboxOpt


@app.command("calibrate")
@reports_errors
def calibrate_cmd(
    suite: Annotated[str, typer.Argument(help="Suite directory, e.g. suites/vspro.")],
    runs: Annotated[int, typer.Option("--runs", help="Gradings of the reference to fit on.")] = 3,
    tree: Annotated[
        Path | None,
        typer.Option("--tree", help="The reference tree (default: SUITE/reference)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Where to write the thresholds (default: "
            "scorers/<scorer>-thresholds.calibrated.json beside the scorer config).",
        ),
    ] = None,
    no_sandbox: AppNoSandboxOpt = False,
    workers: WorkersOpt = None,
) -> None:
    """Grade the reference RUNS times (each must pass the freeze gate and measure every
    calibration-owned figure), fit the thresholds, write them and print their sha256 and
    how to pin them (exit 3 when a run refuses or this host is too slow to calibrate on).
    The runs are graded one at a time: --workers above 1 is refused (exit 2), since
    parallel runs would contend each other's latency."""
    from benchwright.suites.calibrate_run import refuse_workers, run_calibrate

    refuse_workers(workers)

    for line in run_calibrate(suite, tree, runs, out, no_sandbox):
        typer.echo(line)
