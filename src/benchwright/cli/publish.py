"""``benchwright publish``: post a graded scorecard to a board."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from benchwright.cli._app import app, reports_errors


@app.command("publish")
@reports_errors
def publish(
    card: Annotated[
        Path,
        typer.Argument(
            help="A scorecard JSON (benchwright grade --json), or a run's trial "
            "(RUN_DIR/trials/<task>/<n>, or RUN_DIR with one graded trial): its scorecard "
            "with the run metadata the trial measured."
        ),
    ],
    to: Annotated[str, typer.Option("--to", help="The board's base URL.")],
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            help="The model the agent ran (default: the card's; for a trial, only when its "
            "record names none).",
        ),
    ] = None,
    nodes: Annotated[
        int | None,
        typer.Option(
            "--nodes",
            min=0,
            help="0 = a single agent; N = a swarm of N nodes (a card only: a trial's "
            "are measured).",
        ),
    ] = None,
    screenshots_dir: Annotated[
        Path | None,
        typer.Option(
            "--screenshots-dir",
            help="Read the card's marked screenshots from here (default: <card stem>.browser/).",
        ),
    ] = None,
    insecure: Annotated[
        bool,
        typer.Option("--insecure", help="Allow plain http:// to a board that is not loopback."),
    ] = False,
) -> None:
    """Post CARD (or a run's trial) to the board: prints the run's URL, or the board's
    error (exit 1)."""
    from benchwright.board.publish import publish as post_card

    def say(line: str) -> None:
        typer.echo(line, err=True)

    typer.echo(post_card(card, to, insecure=insecure, model=model, nodes=nodes,
                         screenshots_dir=screenshots_dir, say=say))  # fmt: skip
