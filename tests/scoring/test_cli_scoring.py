"""`benchwright compose`, `scorer selftest` and `scorer freeze` through the real console script."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import CliRunner

from benchwright.model import Status
from scoring.conftest import DATA, SCORERS, WriteConfig, shipped, with_rows, write_rows

pytestmark = pytest.mark.slow


def test_compose_prints_the_verdict_and_writes_the_scorecard(
    cli: CliRunner, tmp_path: Path
) -> None:
    out = tmp_path / "card.json"
    rows = DATA / "sb6-worked-cliff.json"
    done = cli("compose", "--scorer", str(SCORERS / "sb6.yaml"), str(rows), "--json", str(out))
    assert done.returncode == 0, done.stderr
    assert "composed = 0.88 x 0.9875 + 0.12 x 0.9286 x 1.0000 = 0.9804" in done.stdout
    assert "critical x0.6000: b_summary_currency (wrong-money" in done.stdout
    assert "score = 0.9804 x 0.6000 = 0.5882" in done.stdout
    assert "UNCALIBRATED" not in done.stdout  # sb-6 ships the public calibrated figures
    card = json.loads(out.read_text())
    assert (card["schema_version"], card["scorer_version"], card["score"]) == (
        "1",
        "sb-6.0",
        0.5882,
    )
    assert len(card["rows"]) == 77 and card["tiers"] and card["factors"]


def test_compose_a_laddered_scorer_by_rung(cli: CliRunner, tmp_path: Path) -> None:
    scorer = shipped("ace", "L1_migration_entity")
    rows = write_rows(tmp_path / "rows.json", with_rows(scorer, B2=(Status.SKIPPED, 0.0)))
    done = cli("compose", "--scorer", str(SCORERS / "ace.yaml"), "--rung", "L1_migration_entity",
               str(rows), "--json", str(tmp_path / "c.json"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    ace = json.loads((tmp_path / "c.json").read_text())["ace"]
    assert (ace["points"], ace["denominator"], ace["full_denominator"]) == (8, 8, 11)
    assert ace["weighted_score_pct"] is None and ace["partial_score_pct"] == 100.0


def test_a_malformed_config_exits_2_naming_the_field(
    cli: CliRunner, write_config: WriteConfig
) -> None:
    def bad(doc: dict[str, Any]) -> None:
        doc["tiers"]["A"]["weight"] = "heavy"

    config = write_config("sb6", bad)
    done = cli("compose", "--scorer", str(config), str(DATA / "sb6-worked.json"))
    assert done.returncode == 2
    assert "sb6.yaml: tiers.A.weight: must be a number, got str" in done.stderr


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([{"id": "server_runs", "status": "PASS", "score": 1.5, "detail": ""}],
         "[0].score: must be <= 1"),
        ([{"id": "server_runs", "status": "GREAT", "score": 1.0}], "[0].status: Input should be"),
        ([{"id": "server_run", "status": "PASS", "score": 1.0}],
         "[0].id: 'server_run' is not a check of sb-6"),
        ([{"id": "server_runs", "status": "PASS", "score": 1.0, "colour": "red"}],
         "[0].colour: unknown field"),
        ({"id": "server_runs"}, "must be a list"),
        ([{"id": "server_runs", "status": "PASS", "score": "1"}],
         "[0].score: must be a number, got str"),
        ([{"id": "server_runs", "status": "PASS", "score": True}],
         "[0].score: must be a number, got bool"),
        ([{"id": "server_runs", "status": "PASS", "score": 1.0},
          {"id": "serves_page", "status": "FAIL", "score": 1.0}],
         "[1].score: contradicts status FAIL: a FAIL scores below 1, got 1"),
    ],
)  # fmt: skip
def test_a_malformed_rows_file_exits_2_naming_the_field(
    cli: CliRunner, tmp_path: Path, rows: Any, message: str
) -> None:
    path = tmp_path / "rows.json"
    path.write_text(json.dumps(rows))
    done = cli("compose", "--scorer", str(SCORERS / "sb6.yaml"), str(path))
    assert done.returncode == 2
    assert message in done.stderr, done.stderr
    assert "rows.json" in done.stderr


def test_a_tampered_calibrated_thresholds_file_exits_3(
    cli: CliRunner, write_config: WriteConfig
) -> None:
    config = write_config("sb6")
    thresholds = config.parent / "sb6-thresholds.json"
    doc = json.loads(thresholds.read_text())
    doc.update(calibrated=True, gamma_hard=2.0)
    thresholds.write_text(json.dumps(doc))
    done = cli("compose", "--scorer", str(config), str(DATA / "sb6-worked.json"))
    assert done.returncode == 3
    pin = yaml.safe_load(config.read_text())["thresholds"]["sha256"]
    assert "claims calibrated: true" in done.stderr and pin in done.stderr
    assert done.stdout == ""


def test_selftest_passes_for_sb7_and_catches_a_broken_config(
    cli: CliRunner, write_config: WriteConfig
) -> None:
    done = cli("scorer", "selftest", str(SCORERS / "sb7.yaml"))
    assert done.returncode == 0, done.stderr
    assert "selftest passed" in done.stdout and "wrong-money: 0.5957" in done.stdout

    def broken(doc: dict[str, Any]) -> None:
        doc["tiers"]["V"]["weight"], doc["tiers"]["D"]["weight"] = 0.10, 0.02

    done = cli("scorer", "selftest", str(write_config("sb7", broken)))
    assert done.returncode == 1
    assert "inversion: minor scores 0.9982, not below cosmetic (0.9956)" in done.stderr


def test_freeze_refuses_with_exit_3_and_writes_nothing(cli: CliRunner, tmp_path: Path) -> None:
    marker = tmp_path / "marker.json"
    done = cli("scorer", "freeze", str(SCORERS / "sb6.yaml"), str(DATA / "sb6-worked.json"),
               "--out", str(marker))  # fmt: skip
    assert done.returncode == 3
    assert "freeze refused, nothing written" in done.stderr
    assert "client_timeouts scores 0.5000 < 0.95" in done.stderr
    assert not marker.exists()


def test_freeze_writes_a_marker_for_a_clean_reference(cli: CliRunner, tmp_path: Path) -> None:
    rows = write_rows(tmp_path / "reference.json", with_rows(shipped("sb7")))
    done = cli("scorer", "freeze", str(SCORERS / "sb7.yaml"), str(rows))
    assert done.returncode == 0, done.stderr
    marker = json.loads((tmp_path / "sb7-reference-pass.json").read_text())
    assert marker["scorer_version"] == "sb-7.0-rc" and marker["score"] == 1.0
    assert len(marker["thresholds_sha256"]) == 64 and marker["date"]
