"""``benchwright grade SUITE --tree PATH``: execute a built app and score it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from benchwright.cli._app import (
    ExecutorOpt,
    JsonOpt,
    JunitOpt,
    RayAddressOpt,
    WorkersOpt,
    app,
    invalid,
    reports_errors,
)

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


ManyOpt = Annotated[
    bool,
    typer.Option(
        "--many",
        help="Grade every TREE argument (and --trees-from), one job each on the executor: a "
        "row per tree; exit code the worst row's.",
    ),
]
TreesArg = Annotated[
    list[Path] | None, typer.Argument(help="With --many: the trees to grade.", show_default=False)
]
TreesFromOpt = Annotated[
    Path | None,
    typer.Option("--trees-from", help="With --many: a file listing trees, one a line."),
]
JsonDirOpt = Annotated[
    Path | None,
    typer.Option("--json-dir", help="With --many: write each scorecard here as <tree>.json."),
]


@app.command("grade")
@reports_errors
def grade_cmd(
    suite: Annotated[str, typer.Argument(help="Suite name or directory, e.g. suites/vspro.")],
    trees: TreesArg = None,
    tree: Annotated[
        Path | None, typer.Option("--tree", help="The built tree (holds vspro/).")
    ] = None,
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
    many: ManyOpt = False,
    trees_from: TreesFromOpt = None,
    json_dir: JsonDirOpt = None,
    workers: WorkersOpt = None,
    executor: ExecutorOpt = "local",
    ray_address: RayAddressOpt = None,
    all_rows: Annotated[
        bool,
        typer.Option("--all-rows", help="List every weighted row, not only those below 1.0."),
    ] = False,
) -> None:
    """Grade TREE for SUITE and print the scorecard: exit 0 when the grading completed,
    whatever the score; 2 invalid input; 3 harness failure (a phase raised, the app cannot
    be sandboxed here without --no-sandbox, --no-sandbox and the vendor's port is taken) or
    refused (the --reference freeze gate, a thresholds file that breaks its pin). With
    --many: every tree, a row each, exit code the worst row's. One tree's phases are
    reported on stderr as each ends (a live line on a terminal while it runs)."""
    from benchwright.reports.phase_progress import PhaseProgress
    from benchwright.suites.grade_run import run_grade

    pin = thresholds_pin(thresholds, thresholds_sha256)
    if many:
        if tree or json_out or junit_out or reference:
            invalid("--many grades TREE arguments: --tree, --json, --junit and --reference "
                    "are for one tree (use --json-dir)")  # fmt: skip
        many_cmd(suite, trees or [], trees_from, json_dir, seed, phases, no_sandbox, pin,
                 vendor_url, (executor, workers, ray_address))  # fmt: skip
    pooled = workers is not None or executor != "local" or ray_address
    if tree is None or trees or trees_from or json_dir or pooled:
        invalid("grade one tree with --tree PATH, several with --many TREE... (--trees-from, "
                "--json-dir, --workers, --executor go with --many)")  # fmt: skip
    with PhaseProgress() as progress:  # on stderr: stdout stays the scorecard
        lines = run_grade(
            suite, tree, json_out, junit_out, reference, seed, phases, no_sandbox,
            thresholds=pin, vendor_url=vendor_url, on_phase=progress, every_row=all_rows,
        )  # fmt: skip
        for line in lines:
            typer.echo(line)


def many_cmd(
    suite: str, trees: list[Path], trees_from: Path | None, json_dir: Path | None, seed: int,
    phases: str | None, no_sandbox: bool, pin: Any, vendor_url: str | None,
    pool: tuple[str, int | None, str | None],
) -> NoReturn:  # fmt: skip
    """``grade --many``: the rows in the order given, then exit with the worst."""
    from benchwright.execution.executor import make_executor
    from benchwright.sandbox import require
    from benchwright.suites import browser_slots
    from benchwright.suites.grade_many import grade_many, read_trees, row_line, worst
    from benchwright.suites.hermetic import require_hermetic

    listed = read_trees(trees, trees_from)
    confinement = require(no_sandbox)
    executor = make_executor(*pool, browser_slots(suite))
    require_hermetic(confinement, executor)
    rows = list(grade_many(suite, listed, executor=executor, confinement=confinement,
                           json_dir=json_dir, seed=seed, phases=phases, thresholds=pin,
                           vendor_url=vendor_url))  # fmt: skip
    for row in rows:
        typer.echo(row_line(row))
    raise typer.Exit(worst(rows))
