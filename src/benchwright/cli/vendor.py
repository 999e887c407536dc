"""Vendor mocks for agents to build against: ``vendor meridian``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from benchwright.cli._app import app, reports_errors

vendor_app = typer.Typer(help="Mock vendors to build and grade against.", no_args_is_help=True)
app.add_typer(vendor_app, name="vendor")


@vendor_app.command("meridian")
@reports_errors
def vendor_meridian(
    port: Annotated[int, typer.Option("--port", help="Port on 127.0.0.1.")] = 8899,
    seed: Annotated[int, typer.Option("--seed", help="Fixture seed; 0 is the published one.")] = 0,
    trace: Annotated[Path | None, typer.Option("--trace", help="JSONL trace file.")] = None,
    control_port: Annotated[
        int, typer.Option("--control-port", help="Port of the /admin/* controls; 0: any free.")
    ] = 0,
) -> None:
    """Serve the Meridian API v2 mock (docs at /v2/docs) until Ctrl-C; its controls are on
    a port of their own, printed with the token they require."""
    from benchwright.services.meridian.standalone import serve_forever

    serve_forever(port=port, seed=seed, trace=trace, echo=typer.echo, control_port=control_port)
