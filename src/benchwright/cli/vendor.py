"""Vendor mocks for agents to build against: ``vendor meridian``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from benchwright.cli._app import app, reports_errors

DEFAULT_PORTS = {"v1": 8787, "v2": 8899, "v3": 8850}
"""Where each public mock listened by default."""

vendor_app = typer.Typer(help="Mock vendors to build and grade against.", no_args_is_help=True)
app.add_typer(vendor_app, name="vendor")


@vendor_app.command("meridian")
@reports_errors
def vendor_meridian(
    port: Annotated[
        int | None,
        typer.Option("--port", help="Port on 127.0.0.1 (default 8899; v1: 8787; v3: 8850)."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Fixture seed; 0 is the published one.")] = 0,
    trace: Annotated[Path | None, typer.Option("--trace", help="JSONL trace file.")] = None,
    control_port: Annotated[
        int,
        typer.Option(
            "--control-port", help="Port of the /admin/* controls; 0: any free (v3 has none)."
        ),
    ] = 0,
    api: Annotated[
        str,
        typer.Option("--api", help="API version: v2 (vspro's), v1 (vendorsync's) or v3 (sb-7's)."),
    ] = "v2",
) -> None:
    """Serve the Meridian API mock (v2 by default, docs at /v2/docs; --api v1: docs at
    /v1/docs; --api v3: docs at /v3/docs) until Ctrl-C; v1/v2 controls are on a port of
    their own, printed with the token they require (v3's seeded schedule runs by itself)."""
    from benchwright.errors import SpecError
    from benchwright.services.meridian.standalone import serve_forever
    from benchwright.services.meridian_v3.standalone import serve_forever as serve_v3
    from benchwright.services.vendors import named

    try:
        named(DEFAULT_PORTS, api, "Meridian API version")
    except KeyError as exc:
        raise SpecError.single("--api", exc.args[0]) from None
    port = port if port is not None else DEFAULT_PORTS[api]
    if api == "v3":
        serve_v3(port, seed, trace, typer.echo)
        return
    serve_forever(port=port, seed=seed, trace=trace, echo=typer.echo, control_port=control_port,
                  version=api)  # fmt: skip
