"""Tier R of sb-7 (§12): the fault schedule survived. A correct app earns 1.0; a kill that
loses rows, a fresh idempotency key, a non-durable processed set, a dual-write outbox, a
stale-as-fresh cache, a reverted draft each take exactly their row down."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from sb7_observations import (
    creates,
    crossing,
    dead_sync,
    kill,
    notifications,
    perfect,
    row,
    swap,
)

from benchwright.model import Status
from benchwright.suites.sb7.observations import EventsRead, FaultWindow, WriteCall


def _notifier(**changes) -> object:
    return swap(perfect(), "final", notifier=replace(perfect()["final"].notifier, **changes))


def test_b3_thirds() -> None:
    failed = replace(kill("B3"), restarted=False)
    assert row(swap(perfect(), "resync", b3_kill=failed), "r_b3_sigkill_resync").score == (
        pytest.approx(2 / 3)
    )
    ids = perfect()["resync"].b3_ids
    doubled = swap(perfect(), "resync", b3_ids=(*ids, ids[0]))
    assert row(doubled, "r_b3_sigkill_resync").score == pytest.approx(2 / 3)


def test_b3_never_orchestrated_or_unreached() -> None:
    unarmed = swap(perfect(), "resync", b3=FaultWindow(False))
    assert row(unarmed, "r_b3_sigkill_resync").status is Status.UNAVAILABLE
    unreached = FaultWindow(True, False, "sync #2 made 1 list request")
    found = row(swap(perfect(), "resync", b3=unreached), "r_b3_sigkill_resync")
    assert found.status is Status.UNAVAILABLE and "sync #2 made 1" in found.detail
    dead = row(swap(dead_sync(), "resync", b3=unreached), "r_b3_sigkill_resync")
    assert dead.evidence["blocked_by"] == "sync_completeness"


@pytest.mark.parametrize(
    "changes",
    [{"bound_after_s": 12.0}, {"served_while_down": False}, {"crashed": True},
     {"recovered_unattended": False}],
)  # fmt: skip
def test_vendor_down_boot_quarters(changes: dict) -> None:
    b4 = replace(perfect()["boot"].b4, **changes)
    assert row(swap(perfect(), "boot", b4=b4), "r_b4_vendor_down_boot").score == 0.75


def test_a_dual_write_outbox_loses_the_event() -> None:
    pending = perfect()["partition"].b6_pending_seqs
    kept = tuple(s for s in perfect()["final"].notifier.processed if s != pending[0])
    found = row(_notifier(processed=kept), "r_b6_outbox_atomic")
    assert found.score == 0.5 and "none lost" in found.detail and "exactly once" in found.detail


def test_a_doubled_delivery_fails_exactly_once() -> None:
    pending = perfect()["partition"].b6_pending_seqs
    twice = (*perfect()["final"].notifier.processed, pending[0])
    assert row(_notifier(processed=twice), "r_b6_outbox_atomic").score == 0.75


def test_b6_never_arranged_is_unavailable() -> None:
    obs = swap(perfect(), "partition", b6=FaultWindow(False))
    assert row(obs, "r_b6_outbox_atomic").status is Status.UNAVAILABLE


def test_partition_fifths() -> None:
    blocked = tuple(WriteCall(200, 8.0) for _ in range(8))
    assert row(swap(perfect(), "partition", writes=blocked), "r_b7_partition").score == 0.8
    seqs = perfect()["partition"].catch_up[-1]
    disorder = ((seqs[1],), seqs)
    assert row(swap(perfect(), "partition", catch_up=disorder), "r_b7_partition").score == 0.8
    flat = tuple({**s, "pending": 1} for s in perfect()["partition"].outbox)
    assert row(swap(perfect(), "partition", outbox=flat), "r_b7_partition").score == 0.8


def test_partition_reads_the_browser_feed_when_it_ran() -> None:
    stayed_live = swap(perfect(), "partition", ui_states=("live",), ui_live_after_s=1.0)
    found = row(stayed_live, "r_b7_partition")
    assert found.score == 0.8 and "browser feed" in found.detail
    reloaded = swap(perfect(), "partition", ui_states=("live", "degraded"), ui_live_after_s=None)
    assert row(reloaded, "r_b7_partition").score == 0.8


def test_notifier_exactly_once_legs() -> None:
    processed = perfect()["final"].notifier.processed
    assert row(_notifier(processed=(*processed, processed[0])),
               "r_notifier_exactly_once").score == 0.5  # fmt: skip
    half = processed[: len(processed) // 2]
    found = row(_notifier(processed=half), "r_notifier_exactly_once")
    assert found.score == pytest.approx(0.5 + 0.4 * len(half) / len(processed) + 0.1)
    no_counter = {"status": "ok", "received": 7, "applied": 7}
    assert row(_notifier(health=no_counter), "r_notifier_exactly_once").score == 0.9


def test_a_non_durable_processed_set_is_empty_after_the_partition() -> None:
    assert row(_notifier(processed=()), "r_notifier_exactly_once").score == 0.0
    assert row(_notifier(processed=None), "r_notifier_exactly_once").status is Status.UNAVAILABLE


def test_notify_everything_halves_and_notify_nothing_fails() -> None:
    sent = [e for e in crossing() if e["type"] == "payment.sent"]
    leaked = (*notifications(), *({"id": "x", "event_seq": e["seq"], "kind": e["type"]}
                                  for e in sent))  # fmt: skip
    assert row(_notifier(notifications=leaked), "r_notification_multiset").score == 0.5
    assert row(_notifier(notifications=()), "r_notification_multiset").score == 0.0
    extra = (*notifications(), {**notifications()[-1], "id": "dup"})
    found = row(_notifier(notifications=extra), "r_notification_multiset")
    assert found.score == pytest.approx(3 / 4)


def test_the_multiset_falls_back_to_the_schedule_and_needs_a_read() -> None:
    assert row(_notifier(notifications=None), "r_notification_multiset").status is (
        Status.UNAVAILABLE
    )
    no_log = swap(perfect(), "final", events=EventsRead(200, ()))
    schedule = Counter(n["kind"] for n in notifications())
    planned = replace(no_log, truth=replace(no_log.truth, notifications=schedule))
    found = row(planned, "r_notification_multiset")
    assert found.score == 1.0 and "schedule" in found.detail
    bare = replace(no_log, truth=replace(no_log.truth, notifications={}))
    assert row(bare, "r_notification_multiset").status is Status.UNAVAILABLE


def test_a_kill_that_loses_rows_zeroes_the_row_and_sizes_the_loss() -> None:
    lossy = replace(kill("B6"), after=kill("B6").before - 100)
    found = row(swap(perfect(), "partition", b6_kill=lossy), "r_no_row_loss")
    assert found.score == 0.0 and found.evidence["rows_kept"] == pytest.approx(
        (lossy.before - 100) / lossy.before
    )


def test_no_rows_before_any_kill_earns_nothing() -> None:
    found = row(dead_sync(), "r_no_row_loss")
    assert found.score == 0.0 and found.evidence["blocked_by"] == "sync_completeness"


def test_no_kill_ever_ran_is_unavailable() -> None:
    obs = swap(swap(swap(perfect(), "resync", b3_kill=None), "workflow", a2_kill=None),
               "partition", b6_kill=None, a1_kill=None, notifier_kill=None)  # fmt: skip
    assert row(obs, "r_no_row_loss").status is Status.UNAVAILABLE


def test_a_fresh_key_per_retry_doubles_the_vendor_payment() -> None:
    first, retry = creates()
    doubled = (replace(first, payment_id="pay_12291", status=201), replace(retry, status=201,
               idempotency_key="key-a2-again"))  # fmt: skip
    obs = swap(perfect(), "vendor", creates=doubled)
    found = row(obs, "r_no_dupe_effect")
    assert found.score == 0.0 and "vendor payments for the approval" in found.detail


def test_a_doubled_notification_or_ledger_effect_is_a_dupe() -> None:
    doubled = (*notifications(), notifications()[0])
    assert row(_notifier(notifications=doubled), "r_no_dupe_effect").score == 0.0
    log = perfect()["final"].events.events
    sent = next(e for e in log if e["type"] == "payment.sent")
    again = EventsRead(200, (*log, {**sent, "seq": len(log) + 1}))
    assert row(swap(perfect(), "final", events=again), "r_no_dupe_effect").score == 0.0


def test_dupe_effect_vacuous_on_a_dead_sync() -> None:
    assert row(dead_sync(), "r_no_dupe_effect").evidence["blocked_by"] == "sync_completeness"


def test_stale_served_as_fresh_zeroes_cache_truth() -> None:
    masked = perfect()["resync"].b5_after
    old = tuple(replace(s, row={**s.row, "version": s.row["version"] - 1}) for s in masked)
    found = row(swap(perfect(), "resync", b5_after=old), "r_cache_truth")
    assert found.score == 0.0 and found.evidence["mutations_reflected"] == 0.0


def test_cache_truth_unavailable_without_the_window_or_the_snapshot() -> None:
    assert row(swap(perfect(), "resync", b5=FaultWindow(False)),
               "r_cache_truth").status is Status.UNAVAILABLE  # fmt: skip
    assert row(swap(perfect(), "resync", b5_after=()),
               "r_cache_truth").status is Status.UNAVAILABLE  # fmt: skip


def test_a_reverted_approval_zeroes_durability() -> None:
    found = row(swap(perfect(), "workflow", a2_state_after="submitted"), "r_workflow_durability")
    assert found.score == 0.0 and found.evidence["states_intact"] == 0.5


def test_absent_drafts_and_unfired_kills() -> None:
    absent = row(swap(perfect(), "workflow", drafts_absent=True), "r_workflow_durability")
    assert absent.score == 0.0 and absent.evidence["absent_surface"]
    unfired = swap(swap(perfect(), "workflow", a2=FaultWindow(True, False)),
                   "partition", a1=FaultWindow(True, False))  # fmt: skip
    assert row(unfired, "r_workflow_durability").status is Status.UNAVAILABLE
