"""``benchwright watch``: follow a session directory and alert as an agent cheats."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from benchwright.cli._app import app, invalid, reports_errors


@app.command()
@reports_errors
def watch(
    session_dir: Annotated[
        Path,
        typer.Argument(help="Claude Code or Codex session directory, or a run's live/ directory."),
    ],
    once: Annotated[bool, typer.Option("--once", help="Check what is there, then exit.")] = False,
    live_only: Annotated[
        bool, typer.Option("--live-only", help="Alert on new activity only, not on history.")
    ] = False,
    interval: Annotated[
        float, typer.Option("--interval", min=0.1, max=60.0, help="Seconds between polls.")
    ] = 2.0,
    fail_on_alert: Annotated[
        bool, typer.Option("--fail-on-alert", help="Exit 1 when anything alerted.")
    ] = False,
    task: Annotated[
        Path | None,
        typer.Option(
            "--task",
            help="Alert on this task's static checks (default: a watched run's own tasks).",
        ),
    ] = None,
) -> None:
    """Alert on protected-file edits and network use in agent sessions as they are written.

    Without --once it polls until Ctrl-C; the exit code then says whether anything alerted.
    """
    import time

    from benchwright.dsl import load_task
    from benchwright.watch import SessionWatcher, rules_for
    from benchwright.watch.run_tasks import find_run_tasks

    if not session_dir.exists():
        invalid(f"{session_dir}: no such session directory or file")
    if once and live_only:
        invalid("--once with --live-only would check nothing: history is all --once sees")

    def warn(message: str) -> None:
        typer.echo(f"warning: {message}", err=True)

    rules = rules_for(load_task(task) if task is not None else None)
    run = find_run_tasks(session_dir, warn) if task is None else None
    watcher = SessionWatcher(session_dir, rules, by_task=run.rules if run else None,
                             live_only=live_only, warn=warn)  # fmt: skip
    typer.echo(f"watching {session_dir} ({run.describe(rules) if run else rules.describe()})")
    alerts = 0
    try:
        while True:
            for alert in watcher.poll():
                alerts += 1
                typer.echo(str(alert))
            if once:
                break
            if watcher.polls == 1:
                typer.echo(f"following {len(watcher.sessions)} session(s) (Ctrl-C ends)")
            time.sleep(interval)
    except KeyboardInterrupt:
        pass
    typer.echo(f"{len(watcher.sessions)} session(s), {watcher.steps} step(s): {alerts} alert(s)")
    raise typer.Exit(1 if fail_on_alert and alerts else 0)
