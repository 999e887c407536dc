"""Composing scores: ``compose``, ``scorer selftest``, ``scorer freeze``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from benchwright.cli._app import JsonOpt, app, reports_errors

scorer_app = typer.Typer(help="Check a scorer config: selftest, freeze gate.", no_args_is_help=True)
app.add_typer(scorer_app, name="scorer")
ScorerArg = Annotated[Path, typer.Argument(help="The scorer config (YAML), e.g. scorers/sb7.yaml.")]
RungOpt = Annotated[str | None, typer.Option("--rung", help="Ladder rung, for laddered scorers.")]


@app.command("compose")
@reports_errors
def compose_cmd(
    rows: Annotated[Path, typer.Argument(help="ROWS.json: a list of {id, status, score, detail}.")],
    scorer: Annotated[Path, typer.Option("--scorer", help="The scorer config (YAML).")],
    json_out: JsonOpt = None,
    rung: RungOpt = None,
) -> None:
    """Compose check rows into a scorecard and print the verdict (2 invalid input, 3 refused)."""
    from rich.console import Console

    from benchwright.reports.scorecard import print_verdict, write_scorecard
    from benchwright.scoring import compose, load_rows, load_scorer

    resolved = load_scorer(scorer, rung)
    card = compose(load_rows(rows, resolved), resolved)
    if json_out:
        write_scorecard(card, json_out)
    print_verdict(card, Console())


@scorer_app.command("selftest")
@reports_errors
def scorer_selftest(config: ScorerArg, rung: RungOpt = None) -> None:
    """Single-defect runs must order wrong-money < data-loss < ... < cosmetic (exit 1 if not)."""
    from benchwright.scoring import load_scorer, selftest

    result = selftest(load_scorer(config, rung))
    for name, score in result.scores:
        typer.echo(f"{name}: {score:.4f}")
    for problem in result.problems:
        typer.echo(f"error: {problem}", err=True)
    if not result.passed:
        raise typer.Exit(1)
    typer.echo("selftest passed: single defects order strictly by severity")


@scorer_app.command("freeze")
@reports_errors
def scorer_freeze(
    config: ScorerArg,
    rows: Annotated[Path, typer.Argument(help="The golden reference's ROWS.json.")],
    out: Annotated[Path | None, typer.Option("--out", help="Marker path.")] = None,
    rung: RungOpt = None,
) -> None:
    """Freeze gate: selftest, then the reference sweep; refuses (exit 3) or writes a marker."""
    from datetime import UTC, datetime

    from benchwright.errors import RefusedError
    from benchwright.reports.scorecard import write_marker
    from benchwright.scoring import freeze_check, freeze_marker, load_rows, load_scorer

    scorer = load_scorer(config, rung)
    decision = freeze_check(load_rows(rows, scorer), scorer)
    if not decision.passed:
        raise RefusedError(f"{config}: freeze refused, nothing written", decision.problems)
    path = out or Path(f"{config.stem}-reference-pass.json")
    write_marker(freeze_marker(decision, scorer, datetime.now(UTC).date().isoformat()), path)
    typer.echo(f"frozen {scorer.version} at {decision.card.score:.4f}: wrote {path}")
