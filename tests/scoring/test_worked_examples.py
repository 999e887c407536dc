"""The seed's published worked examples, reproduced from the shipped configs.

Rows come from tests/scoring/data/*.json (complete rows files: a perfect run
with the example's defects); every figure below is computed by the shipped
scorer config and compared with the number the methodology page publishes.
"""

from __future__ import annotations

import pytest

from benchwright.scoring import compose, load_rows
from scoring.conftest import DATA, shipped


@pytest.mark.parametrize(
    ("config", "rows", "inner", "gate", "e_mean", "composed", "factors", "score"),
    [
        # sb-6 §08: 0.88 x 0.9875 + 0.12 x 0.9286 x 1.0 = 0.9804
        ("sb6", "sb6-worked", 0.9875, 0.9286, 1.0, 0.9804, {}, 0.9804),
        # ... with a cross-currency sum: factor 0.6 + 0.4 x 0.0 = 0.6 -> 0.5882
        ("sb6", "sb6-worked-cliff", 0.9875, 0.9286, 1.0, 0.9804, {"b_summary_currency": 0.6},
         0.5882),
        # sb-7 §11: 0.88 x 0.9614 + 0.12 x 0.904 x 0.70 = 0.9220; journey 5/7 -> x0.8857 -> 0.8166
        ("sb7", "sb7-worked", 0.9614, 0.904, 0.70, 0.9220, {"j_workflow_journey": 0.8857},
         0.8166),
    ],
)  # fmt: skip
def test_worked_example_reproduces_to_the_fourth_decimal(
    config: str,
    rows: str,
    inner: float,
    gate: float,
    e_mean: float,
    composed: float,
    factors: dict[str, float],
    score: float,
) -> None:
    scorer = shipped(config)
    card = compose(load_rows(DATA / f"{rows}.json", scorer), scorer)
    assert card.components[0].value == inner
    assert card.excellence is not None
    assert card.excellence.gate_fraction == gate
    assert card.excellence.e_mean == e_mean
    assert card.composed == composed
    assert {f.check_id: f.factor for f in card.factors if f.applied} == factors
    assert card.score == score


def test_sb6_gate_is_a_count_of_perfect_conditions() -> None:
    scorer = shipped("sb6")
    card = compose(load_rows(DATA / "sb6-worked.json", scorer), scorer)
    assert card.excellence is not None
    locked = [c.name for c in card.excellence.conditions if not c.met]
    assert locked == ["p_sync_wall == 1"]
    assert sum(c.met for c in card.excellence.conditions) == 13


def test_sb7_gate_is_the_mean_unlocked_share_not_a_count() -> None:
    scorer = shipped("sb7")
    card = compose(load_rows(DATA / "sb7-worked.json", scorer), scorer)
    assert card.excellence is not None
    met = sum(c.met for c in card.excellence.conditions)
    assert met == 13  # 13/16 = 0.8125, yet the gate is 0.904: partial shares count
    shares = {c.name: round(c.share, 4) for c in card.excellence.conditions if not c.met}
    assert shares == {"j_workflow_journey == 1": 0.7143, "console_clean": 0.0,
                      "p_sync_wall == 1": 0.75}  # fmt: skip


def test_worked_examples_carry_the_uncalibrated_banner_and_rc_version() -> None:
    scorer = shipped("sb7")
    card = compose(load_rows(DATA / "sb7-worked.json", scorer), scorer)
    assert card.scorer_version == "sb-7.0-rc"
    assert card.flags.uncalibrated
    assert card.banner is not None and "UNCALIBRATED" in card.banner
    assert not card.flags.excellent  # 0.8166 < 0.90
