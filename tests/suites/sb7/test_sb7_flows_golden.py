"""The journeys in the golden's grading (the session's ``sb7_golden``): the flow lane
ran every scenario on the graded instance, the golden console completed them, and what
they made the vendor do after ``final`` (the approved draft's payment) reached none of
part one's rows, which stay 1.0."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from benchwright.model import Status
from benchwright.suites.sb7.browser.flows.workflow import AMOUNT_MINOR, CURRENCY
from benchwright.suites.sb7.observations import VENDOR

pytestmark = pytest.mark.slow
FLOWS = ("paint", "sync", "workflow", "reject", "feed")
PART_ONE = ("A", "B", "C", "D", "X", "R")
SCORER = Path(__file__).resolve().parents[3] / "scorers" / "sb7.yaml"


def test_the_flow_lane_ran_every_journey(sb7_golden: tuple[Any, float]) -> None:
    found = sb7_golden[0].observations["browser"]
    assert "benchwright.suites.sb7.browser.flows" in found.lane_modules
    assert {n: n in found.scenarios for n in FLOWS} == dict.fromkeys(FLOWS, True), dict(
        found.scenario_errors
    )


@pytest.mark.parametrize("check_id", ["j_workflow_journey", "j_workflow_reject"])
def test_the_golden_completes_the_drafts_journeys(
    sb7_golden: tuple[Any, float], check_id: str
) -> None:
    row = next(r for r in sb7_golden[0].rows if r.check_id == check_id)
    assert (row.status, row.score) == (Status.PASS, 1.0), row.detail


def test_the_journeys_vendor_payment_reaches_no_part_one_row(
    sb7_golden: tuple[Any, float],
) -> None:
    grading = sb7_golden[0]
    journey = grading.observations["browser"].scenarios["workflow"]
    assert journey.approved and journey.payment_in_table  # the vendor made it, after final
    creates = grading.observations[VENDOR].creates
    assert (AMOUNT_MINOR, CURRENCY) not in {(c.amount_minor, c.currency) for c in creates}
    tiers = yaml.safe_load(SCORER.read_text(encoding="utf-8"))["tiers"]
    part_one = {c for t in PART_ONE for c in tiers[t]["checks"]} - {"b_money_rendered"}
    short = {r.check_id: r.detail for r in grading.rows
             if r.check_id in part_one and (r.status, r.score) != (Status.PASS, 1.0)}  # fmt: skip
    assert short == {}
