"""``benchwright audit SUITE``: the suite's self-test (golden reference + adversarial controls)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from benchwright.cli._app import (
    ExecutorOpt,
    JsonOpt,
    NoSandboxOpt,
    RayAddressOpt,
    WorkersOpt,
    app,
    reports_errors,
)

QUICK_HELP = "Grade each control, and the golden, through the control's own phases only."


@app.command("audit")
@reports_errors
def audit_cmd(
    suite: Annotated[str, typer.Argument(help="Suite directory, e.g. suites/vspro.")],
    only: Annotated[
        str | None, typer.Option("--only", help="Comma-separated controls (default: all).")
    ] = None,
    quick: Annotated[bool, typer.Option("--quick", help=QUICK_HELP)] = False,
    seed: Annotated[int, typer.Option("--seed", help="Fixture seed of the vendor mock.")] = 0,
    json_out: JsonOpt = None,
    no_sandbox: NoSandboxOpt = False,
    workers: WorkersOpt = None,
    executor: ExecutorOpt = "local",
    ray_address: RayAddressOpt = None,
) -> None:
    """Grade the golden and every control; the last line is the verdict: exit 0 when every
    control met its expectations and the severity order held, 1 when not (2 invalid input,
    3 harness failure or no sandbox here). The golden and each control are one job each
    on the executor; the table is the same with one worker or many."""
    from benchwright.execution.executor import make_executor
    from benchwright.reports.scorecard import UNCONFINED_WARNING
    from benchwright.sandbox import require
    from benchwright.suites import browser_slots
    from benchwright.suites.audit import audit, audit_lines, exit_code, write_audit
    from benchwright.suites.hermetic import require_hermetic

    confinement = require(no_sandbox)
    pool = make_executor(executor, workers, ray_address, browser_slots(suite))
    require_hermetic(confinement, pool)
    result = audit(suite, only=only.split(",") if only else None, quick=quick, seed=seed,
                   confinement=confinement, executor=pool)  # fmt: skip
    if no_sandbox:
        typer.echo(UNCONFINED_WARNING)
    if json_out:
        write_audit(result, Path(json_out))
        typer.echo(f"wrote {json_out}", err=True)
    for line in audit_lines(result):
        typer.echo(line)
    raise typer.Exit(exit_code(result))
