"""Tier C of sb-7 (§12): the vendor's ledgers of a correct client earn 1.0; one seeded
misbehaviour (a restart after the drop, two retries, a conditional loop, a fresh key per
retry, a forged delivery accepted...) lowers exactly its share."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sb7_observations import (
    PAGES,
    dead_sync,
    deliveries,
    ledger,
    list_lines,
    perfect,
    row,
    stale,
    swap,
    walk,
)

from benchwright.model import Status
from benchwright.services.meridian_v3 import CreateAttempt
from benchwright.suites.sb7.observations import FaultWindow


def _walk(**changes) -> object:
    return swap(perfect(), "vendor", walk=replace(walk(), **changes))


def test_paged_walk_min_rules() -> None:
    assert row(_walk(distinct_pages=150, pages_served=150), "c_paged_walk").score == pytest.approx(
        150 / PAGES
    )
    assert row(_walk(undocumented_params=10), "c_paged_walk").score == pytest.approx(1 - 10 / 194)
    twice = row(_walk(pages_served=PAGES + 2), "c_paged_walk")
    assert twice.score == pytest.approx(1 - 20 / PAGES) and twice.evidence["duplicates"] == 2


def test_paged_walk_without_trace_or_pages() -> None:
    assert row(swap(perfect(), "vendor", walk=None), "c_paged_walk").status is Status.UNAVAILABLE
    nothing = replace(walk(), pages_served=0, distinct_pages=0)
    assert row(_walk(pages_served=0, distinct_pages=0), "c_paged_walk").score == 0.0
    vacuous = row(swap(dead_sync(), "vendor", walk=nothing), "c_paged_walk")
    assert vacuous.evidence["blocked_by"] == "sync_completeness"


def test_a_restart_after_the_drop_costs_a_third() -> None:
    drop = replace(walk().drop, restarted=True)
    found = row(_walk(drop=drop), "c_b1_drop_resume")
    assert found.score == pytest.approx(2 / 3) and "no full restart" in found.detail
    lost = replace(walk().drop, resumed_same_cursor=False)
    assert row(_walk(drop=lost, completed=False), "c_b1_drop_resume").score == pytest.approx(1 / 3)


def test_the_drop_never_firing() -> None:
    unarmed = swap(perfect(), "sync1", b1=FaultWindow(False))
    assert row(unarmed, "c_b1_drop_resume").status is Status.UNAVAILABLE
    unreached = swap(perfect(), "sync1", b1=FaultWindow(True, False, "walk stopped at page 1"))
    found = row(unreached, "c_b1_drop_resume")
    assert found.status is Status.UNAVAILABLE and "walk stopped at page 1" in found.detail
    dead = row(swap(dead_sync(), "sync1", b1=FaultWindow(True, False, "no walk")),
               "c_b1_drop_resume")  # fmt: skip
    assert dead.score == 0.0 and dead.evidence["blocked_by"] == "sync_completeness"


@pytest.mark.parametrize(
    ("changes", "failing"),
    [({"retries": 2}, "single retry"), ({"waited_secs": 0.2}, "waited Retry-After"),
     ({"restarted": True}, "continued")],
)  # fmt: skip
def test_retry_after_thirds(changes: dict, failing: str) -> None:
    found = row(_walk(error=replace(walk().error, **changes)), "c_b2_retry_after")
    assert found.score == pytest.approx(2 / 3) and failing in found.detail


def test_the_generation_rule_thirds() -> None:
    looped = swap(perfect(), "vendor", stale=replace(stale(), identical_conditionals=5))
    assert row(looped, "c_b5_generation_304").score == pytest.approx(2 / 3)
    stale_served = swap(swap(perfect(), "vendor",
                             stale=replace(stale(), unconditional_refetches=0)),
                        "resync", b5_after=perfect()["resync"].b5_after[:0])  # fmt: skip
    assert row(stale_served, "c_b5_generation_304").score == pytest.approx(1 / 3)
    unarmed = swap(perfect(), "vendor", stale=replace(stale(), armed=False))
    assert row(unarmed, "c_b5_generation_304").status is Status.UNAVAILABLE


def test_an_unconditional_rewalk_is_the_expensive_client() -> None:
    rewalk = list_lines(PAGES, conditional=False)
    found = row(swap(perfect(), "vendor", resync_lines=rewalk), "c_conditional_resync")
    assert found.score == pytest.approx(1 / PAGES, abs=1e-6)
    assert row(swap(perfect(), "vendor", resync_lines=()), "c_conditional_resync").score == 0.0


def test_webhook_discipline_forged_accepted_and_unacked_deliveries() -> None:
    accepted = tuple(replace(d, status=200) if d.kind == "forged" else d for d in deliveries())
    assert row(swap(perfect(), "vendor", deliveries=accepted),
               "c_webhook_discipline").score == pytest.approx(0.6)  # fmt: skip
    half = tuple(replace(d, status=0) if d.seq % 2 and d.kind == "genuine" else d
                 for d in deliveries())  # fmt: skip
    found = row(swap(perfect(), "vendor", deliveries=half), "c_webhook_discipline")
    assert 0.4 < found.score < 1.0
    missing = row(swap(perfect(), "vendor", deliveries=None), "c_webhook_discipline")
    assert missing.status is Status.UNAVAILABLE


def _creates(*attempts: CreateAttempt) -> object:
    return swap(perfect(), "vendor", ledger=replace(ledger(), creates=attempts))


def test_a_fresh_key_per_retry_loses_the_reuse_half() -> None:
    fresh = _creates(CreateAttempt("k1", "created", "pay_12290", 4500, "EUR", 15.0),
                     CreateAttempt("k2", "created", "pay_12291", 4500, "EUR", 16.0))  # fmt: skip
    assert row(fresh, "c_send_idempotency").score == 0.5


def test_a_keyless_send_loses_both_halves_when_retried() -> None:
    keyless = _creates(CreateAttempt("", "idempotency_key_required", None, 4500, "EUR", 15.0),
                       CreateAttempt("k1", "created", "pay_12290", 4500, "EUR", 16.0))  # fmt: skip
    assert row(keyless, "c_send_idempotency").score == 0.0


def test_no_send_after_an_acknowledged_approve_scores_zero() -> None:
    found = row(_creates(), "c_send_idempotency")
    assert found.score == 0.0 and "SEND" in found.detail
    unsent = swap(_creates(), "workflow", a2=FaultWindow(False))
    assert row(unsent, "c_send_idempotency").status is Status.UNAVAILABLE
