"""The ruler is gated: a monotonicity selftest, then the reference freeze sweep."""

from __future__ import annotations

from typing import Any

import pytest

from benchwright.model import Status
from benchwright.scoring import DEFECT_ORDER, freeze_check, freeze_marker, load_scorer, selftest
from scoring.conftest import WriteConfig, shipped, with_rows


@pytest.mark.parametrize("name", ["sb6", "sb7"])
def test_shipped_scorers_order_single_defects_strictly(name: str) -> None:
    result = selftest(shipped(name))
    assert result.passed, result.problems
    assert [c for c, _ in result.scores] == list(DEFECT_ORDER)
    values = [s for _, s in result.scores]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert values[-1] < result.perfect == 1.0


def _cosmetics_outweigh_validation(doc: dict[str, Any]) -> None:
    doc["tiers"]["V"]["weight"] = 0.10  # still sums to 1.0, every constraint still holds
    doc["tiers"]["D"]["weight"] = 0.02


def test_a_config_whose_weights_break_the_order_is_caught(write_config: WriteConfig) -> None:
    result = selftest(load_scorer(write_config("sb7", _cosmetics_outweigh_validation)))
    assert not result.passed
    assert result.problems == ("inversion: minor scores 0.9982, not below cosmetic (0.9956)",)


def test_a_scorer_without_defects_configured_fails_the_selftest() -> None:
    result = selftest(shipped("ace", "L7_full_platform"))
    assert not result.passed
    assert "no synthetic defect configured for: wrong-money" in result.problems[0]


@pytest.mark.parametrize(
    ("overrides", "passed"),
    [
        ({}, True),
        ({"e_frames_under_drag": (Status.FAIL, 0.5)}, True),   # calibration-owned: exempt
        ({"input_validation": (Status.FAIL, 0.0)}, True),      # diagnostic: exempt
        ({"total_field": (Status.FAIL, 0.94)}, False),
        ({"t_camera": (Status.UNAVAILABLE, 1.0)}, False),
        ({"console_clean": (Status.FAIL, 0.0)}, False),        # gate not fully open
    ],
)  # fmt: skip
def test_freeze_sweep(overrides: dict[str, tuple[Status, float]], passed: bool) -> None:
    scorer = shipped("sb6")
    decision = freeze_check(with_rows(scorer, **overrides), scorer)
    assert decision.passed is passed, decision.problems


def test_freeze_refusals_name_every_reason() -> None:
    scorer = shipped("sb6")
    rows = with_rows(scorer, total_field=(Status.FAIL, 0.5), t_camera=(Status.UNAVAILABLE, 1.0))
    problems = freeze_check(rows, scorer).problems
    assert "total_field scores 0.5000 < 0.95" in problems
    assert "t_camera is UNAVAILABLE (test override): the reference must be measured" in problems


def test_freeze_runs_the_selftest_first(write_config: WriteConfig) -> None:
    scorer = load_scorer(write_config("sb7", _cosmetics_outweigh_validation))
    decision = freeze_check(with_rows(scorer), scorer)
    assert decision.problems == (
        "selftest: inversion: minor scores 0.9982, not below cosmetic (0.9956)",
    )


def test_freeze_marker_records_version_score_date_and_thresholds() -> None:
    scorer = shipped("sb7")
    decision = freeze_check(with_rows(scorer), scorer)
    marker = freeze_marker(decision, scorer, "2026-11-30")
    assert marker["scorer_version"] == "sb-7.0-rc"
    assert marker["score"] == 1.0 and marker["date"] == "2026-11-30"
    assert marker["thresholds_sha256"] == scorer.thresholds.sha256  # type: ignore[union-attr]
