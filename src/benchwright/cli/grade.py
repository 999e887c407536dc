"""``benchwright grade SUITE --tree PATH``: execute a built app and score it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from benchwright.cli._app import JsonOpt, JunitOpt, app, invalid, reports_errors

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

VendorUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--vendor-url",
        help="The vendor base URL rendered into the entrant's prompt, where the app reaches "
        "the mock (default: the suite's, http://127.0.0.1:9003 for vspro as for the public "
        "sb-6 harness). Sandboxed, each grading has it to itself.",
    ),
]

ThresholdsOpt = Annotated[
    Path | None,
    typer.Option(
        "--thresholds",
        help="A thresholds file (e.g. from 'benchwright calibrate') to use instead of the "
        "scorer config's; needs --thresholds-sha256.",
    ),
]
ThresholdsShaOpt = Annotated[
    str | None,
    typer.Option(
        "--thresholds-sha256",
        help="The sha256 the --thresholds file must have (exit 3 when it differs).",
    ),
]


def thresholds_pin(path: Path | None, sha256: str | None) -> Any:
    """The `ThresholdsPin` of ``--thresholds``/``--thresholds-sha256``: both or neither."""
    import re

    from benchwright.scoring.thresholds import ThresholdsPin

    if path is None and sha256 is None:
        return None
    if path is None or sha256 is None:
        invalid("--thresholds and --thresholds-sha256 go together: a file is used only with "
                "the hash it must have")  # fmt: skip
    if not re.fullmatch(r"[0-9a-fA-F]{64}", sha256):
        invalid(f"--thresholds-sha256 {sha256!r}: want 64 hex digits (a sha256)")
    return ThresholdsPin(path, sha256.lower())


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
    thresholds: ThresholdsOpt = None,
    thresholds_sha256: ThresholdsShaOpt = None,
    vendor_url: VendorUrlOpt = None,
) -> None:
    """Grade TREE for SUITE and print the scorecard: exit 0 when the grading completed,
    whatever the score; 2 invalid input; 3 harness failure (a phase raised, the app cannot
    be sandboxed here without --no-sandbox, --no-sandbox and the vendor's port is taken) or
    refused (the --reference freeze gate, a thresholds file that breaks its pin)."""
    from benchwright.suites.grade_run import run_grade

    pin = thresholds_pin(thresholds, thresholds_sha256)
    lines = run_grade(
        suite, tree, json_out, junit_out, reference, seed, phases, no_sandbox, thresholds=pin,
        vendor_url=vendor_url,
    )  # fmt: skip
    for line in lines:
        typer.echo(line)
