"""Statuses under each policy, and the excellence gate's two ways of counting."""

from __future__ import annotations

from typing import Any

import pytest

from benchwright.model import Status
from benchwright.scoring import compose, load_scorer
from benchwright.scoring.policy import counted_score
from scoring.conftest import WriteConfig, shipped, with_rows


@pytest.mark.parametrize(
    ("status", "fixed", "measured"),
    [
        (Status.PASS, 0.8, 0.8),
        (Status.FAIL, 0.3, 0.3),
        (Status.NOT_ATTEMPTED, 0.0, 0.0),   # nothing to inspect is a fail in both
        (Status.SKIPPED, 0.0, None),        # fixed: counts 0; measured: leaves the mean
        (Status.INFRA, 0.0, None),
        (Status.UNAVAILABLE, 0.0, None),
    ],
)  # fmt: skip
def test_what_each_status_counts_for(status: Status, fixed: float, measured: float | None) -> None:
    score = 0.8 if status is Status.PASS else 0.3
    assert counted_score(status, score, "fixed-denominator") == fixed
    assert counted_score(status, score, "measured-mean") == measured


def test_fixed_denominator_blocks_a_clean_100_when_docker_is_absent() -> None:
    scorer = shipped("ace", "L2_one_endpoint")
    card = compose(with_rows(scorer, B1=(Status.SKIPPED, 0.0), B2=(Status.SKIPPED, 0.0)), scorer)
    assert card.flags.partial and not card.flags.excellent
    assert card.score == round(21 / 27, 4)
    assert card.points is not None
    assert (card.points.points, card.points.denominator, card.points.full_denominator) == (
        21,
        21,
        27,
    )


def test_sb52_probe_less_runs_score_zero_on_browser_checks() -> None:
    scorer = shipped("sb52")
    gone = {c: (Status.UNAVAILABLE, 0.0) for c in scorer.config.tiers["J"].checks}
    card = compose(with_rows(scorer, **gone), scorer)
    assert card.tier("J").mean == 0.0
    assert card.score == 0.85  # the whole 15 % journey component
    assert card.flags.partial


def test_measured_mean_lists_unavailable_rows_loudly() -> None:
    scorer = shipped("sb6")
    card = compose(with_rows(scorer, t_tooltip=(Status.UNAVAILABLE, 0.0)), scorer)
    assert card.tier("T").mean == 1.0 and card.tier("T").excluded == ("t_tooltip",)
    assert card.unavailable == ("t_tooltip",)
    assert card.score == 1.0 and not card.flags.excellent


def test_a_special_condition_fails_honestly_when_unproven() -> None:
    scorer = shipped("sb6")
    for rows in (
        [r for r in with_rows(scorer) if r.check_id != "console_clean"],
        with_rows(scorer, console_clean=(Status.UNAVAILABLE, 1.0)),
    ):
        card = compose(rows, scorer)
        assert card.excellence is not None
        cond = next(c for c in card.excellence.conditions if c.name == "console_clean")
        assert not cond.met and cond.share == 0.0
        assert card.excellence.gate_fraction == round(13 / 14, 4)


@pytest.mark.parametrize(
    ("config", "score", "fraction"),
    [("sb6", 0.75, round(13 / 14, 4)), ("sb7", 0.75, round(15.75 / 16, 4))],
)
def test_count_perfect_versus_mean_share(config: str, score: float, fraction: float) -> None:
    scorer = shipped(config)
    card = compose(with_rows(scorer, p_sync_wall=(Status.FAIL, score)), scorer)
    assert card.excellence is not None and card.excellence.gate_fraction == fraction


def test_diagnostics_are_printed_but_in_no_mean() -> None:
    scorer = shipped("sb6")
    card = compose(with_rows(scorer, input_validation=(Status.FAIL, 0.0)), scorer)
    assert card.row("input_validation").role == "diagnostic"
    assert card.score == 1.0


def test_gamma_sharpens_a_tier(write_config: WriteConfig) -> None:
    def gamma_two(doc: dict[str, Any]) -> None:
        doc["tiers"]["D"]["gamma"] = 2.0

    scorer = load_scorer(write_config("sb6", gamma_two))
    card = compose(with_rows(scorer, client_timeouts=(Status.FAIL, 0.5)), scorer)
    assert card.tier("D").mean == pytest.approx((4 + 0.25) / 5)
