"""``compose`` reads the rows benchwright writes (issue #26: it refused a scorecard's own
rows), and the shipped example runs as the README and docs/scoring.md write it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import CliRunner

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = "scorers/examples/sb6-rows.json"
DOCUMENTED = f"compose --scorer scorers/sb6.yaml {EXAMPLE}"
SCORE = "score = 0.9804 = 0.9804"

pytestmark = pytest.mark.slow


def _compose(cli: CliRunner, rows: Path | str, *more: str, scorer: str = "sb6"):
    return cli("compose", "--scorer", f"scorers/{scorer}.yaml", str(rows), *more, cwd=REPO)


@pytest.fixture
def card(cli: CliRunner, tmp_path: Path) -> Path:
    """The scorecard ``compose --json`` writes of the shipped example."""
    path = tmp_path / "card.json"
    done = _compose(cli, EXAMPLE, "--json", str(path))
    assert done.returncode == 0, done.stderr
    assert SCORE in done.stdout
    return path


def test_the_documented_command_runs_on_the_shipped_example(card: Path) -> None:
    for doc in ("README.md", "docs/scoring.md"):
        assert DOCUMENTED in (REPO / doc).read_text(encoding="utf-8"), doc
    assert json.loads(card.read_text())["score"] == 0.9804


def test_a_scorecard_and_its_rows_compose_to_the_same_score(
    cli: CliRunner, card: Path, tmp_path: Path
) -> None:
    doc = json.loads(card.read_text())
    assert any(row["missing"] for row in doc["rows"])  # left out again, not doubled
    rows = tmp_path / "rows.json"
    rows.write_text(json.dumps(doc["rows"]))
    for given in (card, rows):
        done = _compose(cli, given)
        assert done.returncode == 0, done.stderr
        assert SCORE in done.stdout


def test_a_trial_results_check_rows_compose(cli: CliRunner, tmp_path: Path) -> None:
    example = json.loads((REPO / EXAMPLE).read_text())
    checks = [{"check_id": r["id"], "status": r["status"], "score": r["score"],
               "detail": r["detail"], "evidence": {"stdout": "ok\n"}, "duration_s": 0.25}
              for r in example]  # fmt: skip
    rows = tmp_path / "checks.json"
    rows.write_text(json.dumps(checks))
    done = _compose(cli, rows)
    assert done.returncode == 0, done.stderr
    assert SCORE in done.stdout


def test_a_scorecard_of_another_scorer_is_one_line(cli: CliRunner, card: Path) -> None:
    done = _compose(cli, card, scorer="sb7")
    assert done.returncode == 2
    assert done.stderr == (
        f"error: {card}: scorer_version: a scorecard of sb-6.0, not of sb-7.0-rc (the scorer "
        "given): compose it with its own\n"
    )


def test_a_bad_scorecard_row_is_named_by_its_field(
    cli: CliRunner, card: Path, tmp_path: Path
) -> None:
    doc = json.loads(card.read_text())
    doc["rows"][2]["colour"] = "red"
    card.write_text(json.dumps(doc))
    done = _compose(cli, card)
    assert (done.returncode, done.stderr) == (2, f"error: {card}: rows[2].colour: unknown field\n")
    del doc["rows"][2]["colour"]
    doc["rows"][4]["check_id"] = "server_run"
    rows = tmp_path / "rows.json"
    rows.write_text(json.dumps(doc["rows"]))
    done = _compose(cli, rows)
    assert done.returncode == 2
    assert done.stderr == f"error: {rows}: [4].check_id: 'server_run' is not a check of sb-6\n"
