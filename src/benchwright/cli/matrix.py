"""``benchwright matrix``: grade model x prompt cells and compare them with a baseline."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from benchwright.cli._app import (
    NoSandboxOpt,
    SandboxRoOpt,
    app,
    invalid,
    isolation_request,
    reports_errors,
)


@app.command()
@reports_errors
def matrix(
    config: Annotated[Path | None, typer.Argument(help="Matrix config (YAML/JSON).")] = None,
    config_opt: Annotated[
        Path | None, typer.Option("--config", help="The config, as AgentBench names it.")
    ] = None,
    tasks: Annotated[Path | None, typer.Option("--tasks", help="Override tasks_dir.")] = None,
    baseline: Annotated[
        Path | None, typer.Option("--baseline", help="Baseline file (or a --json report).")
    ] = None,
    threshold: Annotated[
        float | None,
        typer.Option("--drift-threshold", min=0.0, max=1.0, help="Override drift_threshold."),
    ] = None,
    fail_on_drift: Annotated[
        bool, typer.Option("--fail-on-drift", help="Exit 1 when drift is detected.")
    ] = False,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the JSON here.")] = None,
    markdown_out: Annotated[
        Path | None, typer.Option("--markdown", help="Write the markdown table here.")
    ] = None,
    html_out: Annotated[
        Path | None,
        typer.Option("--html", help="Write a one-file HTML page (charts with intervals) here."),
    ] = None,
    output: Annotated[
        str | None, typer.Option("--output", help="AgentBench's: 'markdown' or a JSON path.")
    ] = None,
    no_sandbox: NoSandboxOpt = False,
    sandbox_ro: SandboxRoOpt = None,
) -> None:
    """Pass rates per model x prompt cell with Wilson intervals; drift against a baseline."""
    from benchwright.errors import EXIT_FAILED, EXIT_HARNESS
    from benchwright.matrix import compare, read_baseline, read_config, run_matrix
    from benchwright.matrix.report import (
        document,
        html,
        markdown,
        summary,
        write_json,
        write_text,
    )

    if (config is None) == (config_opt is None):
        invalid("give the matrix config once: CONFIG or --config")
    path: Path = config if config is not None else config_opt  # type: ignore[assignment]
    cfg = read_config(path)
    base = read_baseline(baseline) if baseline is not None else cfg.baseline
    if fail_on_drift and base is None:
        invalid(f"--fail-on-drift needs a baseline: {path} has none and --baseline is not given")
    result = run_matrix(cfg, path, tasks, isolation_request(no_sandbox, sandbox_ro))
    drift = (
        None
        if base is None
        else compare(result, base, cfg.drift_threshold if threshold is None else threshold)
    )
    typer.echo("\n".join(summary(result, drift)))
    if output is not None and output.lower() == "markdown":
        typer.echo("\n" + markdown(result, drift), nl=False)
    elif output is not None:
        json_out = json_out or Path(output)
    if json_out is not None:
        write_json(json_out, document(result, drift))
    if markdown_out is not None:
        write_text(markdown_out, markdown(result, drift))
    if html_out is not None:
        write_text(html_out, html(result, drift))
    if result.harness_failed:
        raise typer.Exit(EXIT_HARNESS)
    if fail_on_drift and drift is not None and drift.drift_detected:
        raise typer.Exit(EXIT_FAILED)
