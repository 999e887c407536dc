"""The ACE registry as data: ladder rungs, denominators, report fields, HALF_EVEN pct."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchwright.errors import SpecError
from benchwright.model import Status
from benchwright.scoring import ace_fields, compose, load_config, load_ladder, load_scorer, percent
from scoring.conftest import SCORERS, WriteConfig, shipped, with_rows

RUNGS = {
    "L1_migration_entity": (45, 11, 7),
    "L2_one_endpoint": (60, 27, 11),
    "L3_point_in_time": (75, 34, 11),
    "L3p_point_in_time": (90, 36, 12),
    "L4_state_machine": (75, 24, 7),
    "L5_second_service": (90, 15, 8),
    "L6_compose_health": (60, 10, 5),
    "L7_full_platform": (240, 77, 30),
}


def test_the_registry_has_30_ids_weighing_77() -> None:
    cfg = load_config(SCORERS / "ace.yaml")
    assert len(cfg.checks) == 30
    assert sum(c.weight for c in cfg.checks.values()) == 77


@pytest.mark.parametrize(("rung", "expected"), list(RUNGS.items()))
def test_every_rung_has_its_budget_denominator_and_subset(
    rung: str, expected: tuple[int, int, int]
) -> None:
    ladder = load_ladder(SCORERS / "ace-ladder.json", load_config(SCORERS / "ace.yaml"))
    entry = next(r for r in ladder.rungs if r.name == rung)
    scorer = shipped("ace", rung)
    card = compose(with_rows(scorer), scorer)
    fields = ace_fields(card)
    assert fields is not None
    assert (entry.budget_min, fields["full_denominator"], len(scorer.wanted)) == expected
    assert fields["weighted_score_pct"] == 100.0


def test_an_unknown_rung_lists_the_known_ones_never_falls_back_to_77() -> None:
    with pytest.raises(SpecError) as caught:
        load_scorer(SCORERS / "ace.yaml", "L8_mars_colony")
    message = "\n".join(caught.value.lines())
    assert "unknown rung 'L8_mars_colony'" in message
    assert all(name in message for name in RUNGS)


def test_a_laddered_scorer_needs_a_rung() -> None:
    with pytest.raises(SpecError, match="name it"):
        load_scorer(SCORERS / "ace.yaml")


def test_a_denominator_that_disagrees_with_the_weights_is_an_error(
    write_config: WriteConfig,
) -> None:
    config = write_config("ace")
    ladder = config.parent / "ace-ladder.json"
    doc: dict[str, Any] = json.loads(ladder.read_text())
    doc["rungs"][1]["denominator"] = 28
    ladder.write_text(json.dumps(doc))
    with pytest.raises(SpecError) as caught:
        load_scorer(config, "L1_migration_entity")
    assert caught.value.problems == [
        ("rungs[1].denominator", "L2_one_endpoint declares 28 but its checks weigh 27")
    ]


def test_partial_run_reports_null_weighted_score_and_a_partial_pct() -> None:
    scorer = shipped("ace", "L2_one_endpoint")
    rows = with_rows(
        scorer,
        B1=(Status.SKIPPED, 0.0),
        C2=(Status.INFRA, 0.0),
        F6=(Status.FAIL, 0.0),
        S7=(Status.NOT_ATTEMPTED, 0.0),
    )
    fields = ace_fields(compose(rows, scorer))
    assert fields is not None
    assert fields["weighted_score_pct"] is None
    assert (fields["points"], fields["denominator"], fields["full_denominator"]) == (17, 22, 27)
    assert fields["partial_score_pct"] == 77.3
    assert (fields["functional_points"], fields["functional_denominator"]) == (10, 14)
    assert fields["categories"]["build"] == {
        "pass": 1, "fail": 0, "unscored": 1, "weight": 6, "points": 3
    }  # fmt: skip
    assert fields["categories"]["structure"]["fail"] == 1


@pytest.mark.parametrize(
    ("part", "whole", "pct"),
    [(1, 8, 12.5), (3, 16, 18.8), (5, 16, 31.2), (27, 27, 100.0), (0, 11, 0.0), (1, 0, None)],
)
def test_percentages_round_half_even_to_one_decimal(part: int, whole: int, pct: float) -> None:
    assert percent(part, whole) == pct


def test_scorecard_json_carries_the_ace_fields(tmp_path: Path) -> None:
    from benchwright.reports.scorecard import scorecard_dict

    scorer = shipped("ace", "L6_compose_health")
    doc = scorecard_dict(compose(with_rows(scorer, C1=(Status.FAIL, 0.0)), scorer))
    assert doc["ace"]["rung"] == "L6_compose_health"
    assert doc["ace"]["weighted_score_pct"] == 70.0
    assert doc["score"] == 0.7
