"""Tier C of sb-7 (§12): the vendor's trace and ledgers of a correct client earn 1.0; one
seeded misbehaviour (a restart after the drop, two retries, a conditional loop, a fresh
key per retry, a forged delivery accepted...) lowers exactly its share."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sb7_observations import (
    PAGES,
    creates,
    dead_sync,
    deliveries,
    perfect,
    resync_trace,
    row,
    swap,
    sync1_trace,
    walk,
)

from benchwright.model import Status
from benchwright.suites.sb7.observations import CreateRecord, FaultWindow, VendorTrace

WALK = sync1_trace()


def _sync1(*requests) -> object:
    trace = perfect()["vendor"].trace
    return swap(perfect(), "vendor", trace=replace(trace, sync1=tuple(requests)))


def _at(fault: str) -> int:
    return next(i for i, r in enumerate(WALK) if r.fault == fault)


def test_paged_walk_min_rules() -> None:
    short = [r for r in WALK if r.page is None or r.page < 150]
    assert row(_sync1(*short), "c_paged_walk").score == pytest.approx(150 / PAGES)
    odd = [replace(r, params=(*r.params, "limit")) if i < 10 else r for i, r in enumerate(WALK)]
    assert row(_sync1(*odd), "c_paged_walk").score == pytest.approx(1 - 10 / len(WALK))
    twice = row(_sync1(*WALK, WALK[0], WALK[1]), "c_paged_walk")
    assert twice.score == pytest.approx(1 - 20 / PAGES) and twice.evidence["duplicates"] == 2


def test_paged_walk_without_trace_or_requests() -> None:
    assert row(swap(perfect(), "vendor", trace=None), "c_paged_walk").status is Status.UNAVAILABLE
    assert row(_sync1(), "c_paged_walk").score == 0.0
    empty = swap(dead_sync(), "vendor", trace=replace(perfect()["vendor"].trace, sync1=()))
    assert row(empty, "c_paged_walk").evidence["blocked_by"] == "sync_completeness"


def test_a_restart_after_the_drop_costs_a_third() -> None:
    at = _at("drop")
    restarted = row(_sync1(*WALK[: at + 1], walk()[0], *WALK[at + 1 :]), "c_b1_drop_resume")
    assert restarted.score == pytest.approx(1 / 3)  # not resumed next, and a restart
    skipped = [*WALK[: at + 1], *WALK[at + 2 : -1]]
    found = row(_sync1(*skipped), "c_b1_drop_resume")
    assert found.score == pytest.approx(1 / 3) and "walk completed" in found.detail


def test_the_drop_never_firing() -> None:
    unarmed = swap(perfect(), "sync1", b1=FaultWindow(False))
    assert row(unarmed, "c_b1_drop_resume").status is Status.UNAVAILABLE
    unreached = swap(perfect(), "sync1", b1=FaultWindow(True, False, "walk stopped at page 1"))
    found = row(unreached, "c_b1_drop_resume")
    assert found.status is Status.UNAVAILABLE and "walk stopped at page 1" in found.detail
    dead = row(swap(dead_sync(), "sync1", b1=FaultWindow(True, False, "no walk")),
               "c_b1_drop_resume")  # fmt: skip
    assert dead.score == 0.0 and dead.evidence["blocked_by"] == "sync_completeness"


def test_retry_after_thirds() -> None:
    at = _at("http500")
    failed, retry = WALK[at], WALK[at + 1]
    twice = row(_sync1(*WALK[: at + 1], replace(retry, status=500), *WALK[at + 1 :]),
                "c_b2_retry_after")  # fmt: skip
    assert twice.score == pytest.approx(2 / 3) and "single retry" in twice.detail
    hasty = replace(retry, at=failed.at + 0.2)
    early = row(_sync1(*WALK[: at + 1], hasty, *WALK[at + 2 :]), "c_b2_retry_after")
    assert early.score == pytest.approx(2 / 3) and "waited Retry-After" in early.detail
    over = row(_sync1(*WALK[: at + 2], walk()[0], *WALK[at + 2 :]), "c_b2_retry_after")
    assert over.score == pytest.approx(2 / 3) and "continued" in over.detail


def _b5(*requests) -> object:
    return swap(perfect(), "resync", b5_requests=tuple(requests))


def test_the_generation_rule_thirds() -> None:
    requests = perfect()["resync"].b5_requests
    lie = next(r for r in requests if r.fault == "stale304")
    looped = _b5(*requests[:3], lie, lie, lie, lie, *requests[4:])
    assert row(looped, "c_b5_generation_304").score == pytest.approx(2 / 3)
    stale = swap(_b5(*(r for r in requests if r.if_none_match is not None)), "resync",
                 b5_after=())  # fmt: skip
    assert row(stale, "c_b5_generation_304").score == pytest.approx(1 / 3)
    unarmed = swap(perfect(), "resync", b5=FaultWindow(False))
    assert row(unarmed, "c_b5_generation_304").status is Status.UNAVAILABLE


def test_an_unconditional_rewalk_is_the_expensive_client() -> None:
    everything, _b5_requests = resync_trace()
    bare = tuple(replace(r, if_none_match=None) for r in everything)
    trace = VendorTrace(sync1_trace(), bare)
    found = row(swap(perfect(), "vendor", trace=trace), "c_conditional_resync")
    assert found.score == pytest.approx(1 / len(bare), abs=1e-6)
    trace = VendorTrace(sync1_trace(), ())
    assert row(swap(perfect(), "vendor", trace=trace), "c_conditional_resync").score == 0.0


def test_the_resync_rule_is_not_attempted_when_the_resync_phase_did_not_run() -> None:
    """A grading without the resync phase (a browser control's) saw no re-sync because
    none was asked for: NOT_ATTEMPTED, never the FAIL an app that skips re-syncs earns."""
    obs = perfect()
    skipped = replace(obs, phases={k: v for k, v in obs.phases.items() if k != "resync"})
    found = row(skipped, "c_conditional_resync")
    assert found.status is Status.NOT_ATTEMPTED and "resync" in found.detail


def test_webhook_discipline_forged_accepted_and_unacked_deliveries() -> None:
    accepted = tuple(replace(d, status=200) if d.forged else d for d in deliveries())
    assert row(swap(perfect(), "vendor", deliveries=accepted),
               "c_webhook_discipline").score == pytest.approx(0.6)  # fmt: skip
    unanswered = tuple(replace(d, status=None) if d.payment_id == "pay_00010" else d
                       for d in deliveries())  # fmt: skip
    found = row(swap(perfect(), "vendor", deliveries=unanswered), "c_webhook_discipline")
    assert found.score == pytest.approx(0.6 * (found.evidence["events"] - 2)
                                        / found.evidence["events"] + 0.4)  # fmt: skip
    missing = row(swap(perfect(), "vendor", deliveries=None), "c_webhook_discipline")
    assert missing.status is Status.UNAVAILABLE


def _creates(*records: CreateRecord) -> object:
    return swap(perfect(), "vendor", creates=records)


def test_a_fresh_key_per_retry_loses_the_reuse_half() -> None:
    first, retry = creates()
    fresh = _creates(first, replace(retry, idempotency_key="key-a2-again"))
    assert row(fresh, "c_send_idempotency").score == 0.5


def test_a_keyless_send_loses_both_halves_when_retried() -> None:
    first, retry = creates()
    keyless = _creates(replace(first, idempotency_key=None, status=400), retry)
    assert row(keyless, "c_send_idempotency").score == 0.0


def test_no_send_after_an_acknowledged_approve_scores_zero() -> None:
    found = row(_creates(), "c_send_idempotency")
    assert found.score == 0.0 and "SEND" in found.detail
    unsent = swap(_creates(), "workflow", a2=FaultWindow(False))
    assert row(unsent, "c_send_idempotency").status is Status.UNAVAILABLE
    assert row(swap(perfect(), "vendor", creates=None),
               "c_send_idempotency").status is Status.UNAVAILABLE  # fmt: skip
