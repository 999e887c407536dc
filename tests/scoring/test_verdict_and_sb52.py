"""The printed verdict and JSON scorecard; sb-5.2's nested components."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchwright.errors import SpecError
from benchwright.model import Status
from benchwright.reports.scorecard import scorecard_dict, verdict_lines
from benchwright.scoring import compose, load_rows
from scoring.conftest import shipped, with_rows

FAIL = Status.FAIL


def test_the_verdict_prints_attribution_unmeasured_rows_and_flags() -> None:
    scorer = shipped("sb6")
    rows = with_rows(
        scorer,
        sync_completeness=(FAIL, 0.9),
        total_field=(FAIL, 0.5),
        t_camera=(Status.UNAVAILABLE, 0.0),
    )
    lines = verdict_lines(compose([r for r in rows if r.check_id != "v_styling"], scorer))
    assert "ROOT sync_completeness (0.9000) explains total_field - ONE defect, not 2" in lines
    assert "UNMEASURED (left their means, excellent cleared): t_camera" in lines
    assert "no row (counted FAIL): v_styling" in lines
    assert "critical x0.9600: sync_completeness (data-loss, score 0.9000, severity 0.9000)" in lines
    assert lines[-1] == "flags: excellent=False partial=True uncalibrated=False"


def test_a_suppressed_multiplier_is_printed_with_its_root() -> None:
    scorer = shipped("sb7")
    rows = with_rows(scorer, sync_completeness=(FAIL, 0.5), b_buckets_dst=(FAIL, 0.0))
    lines = verdict_lines(compose(rows, scorer))
    assert "critical b_buckets_dst not applied: one defect, priced by sync_completeness" in lines


def test_every_row_lists_the_passing_rows_too_with_their_tier() -> None:
    scorer = shipped("sb7")
    card = compose(with_rows(scorer, d_validation=(FAIL, 0.5)), scorer)
    short, every = verdict_lines(card), verdict_lines(card, every_row=True)
    assert "below 1.0 (1):" in short
    assert not any(line.startswith("  A server_runs PASS 1.0000") for line in short)
    weighted = [r for r in card.rows if r.role == "weighted"]
    assert f"rows ({len(weighted)}):" in every
    assert any(line.startswith("  A server_runs PASS 1.0000") for line in every)
    assert any(line.startswith("  D d_validation FAIL 0.5000") for line in every)


def test_the_scorecard_json_is_versioned_and_plain() -> None:
    scorer = shipped("sb7")
    doc = scorecard_dict(compose(with_rows(scorer, server_runs=(FAIL, 0.3)), scorer))
    assert list(doc)[:7] == [
        "schema_version", "scorer", "scorer_version", "policy", "score", "composed", "flags"
    ]  # fmt: skip
    assert doc["rows"][0]["status"] in {s.value for s in Status}
    assert doc["factors"][0] == {
        "check_id": "server_runs", "defect_class": "crash", "score": 0.3, "severity": 0.0,
        "factor": 0.6, "suppressed_by": None,
    }  # fmt: skip
    assert doc["provenance"]["thresholds_sha256"] == doc["provenance"]["thresholds_pin"]
    json.dumps(doc)  # nothing left that JSON cannot hold


@pytest.mark.parametrize(
    ("check", "expected"),
    [
        ("modules_present", 1 - 0.60 * 0.25 / 6),   # core: A is 25 % of 60 %, six checks
        ("summary_accuracy", 1 - 0.60 * 0.30 / 16),
        ("client_total_count", 1 - 0.60 * 0.25 / 10),  # C without its five hard blocks
        ("store_indexed", 1 - 0.60 * 0.20 / 8),  # D without request_efficiency
        ("j_sync_journey", 1 - 0.15 / 5),
        ("v_responsive_375", 1 - 0.10 / 6),
        ("p_sync_wall", 1 - 0.05 / 3),
        ("second_sync_cost", 1 - 0.10 / 6),  # a hard block counts in the hard mean alone
        ("request_efficiency", 1 - 0.10 / 6),
    ],
)  # fmt: skip
def test_sb52_components_weigh_as_published(check: str, expected: float) -> None:
    scorer = shipped("sb52")
    card = compose(with_rows(scorer, **{check: (FAIL, 0.0)}), scorer)
    assert card.score == pytest.approx(expected, abs=0.5e-4)  # published to four digits


def test_duplicate_rows_are_an_error(tmp_path: Path) -> None:
    path = tmp_path / "rows.json"
    path.write_text(json.dumps([{"id": "S1", "status": "PASS", "score": 1.0}] * 2))
    with pytest.raises(SpecError) as caught:
        load_rows(path)
    assert caught.value.problems == [("[1].id", "duplicate row 'S1'")]
