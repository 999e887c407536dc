"""The sb-7 golden against the real Meridian v3 mock: the first walk under the vendor's
seeded schedule (boot while the vendor is down, the drop, the 500, racing webhooks, the
traps, the mid-walk create, the refund group), then later syncs, the generation rule,
the note's If-Match dance, a kill mid-sync, and a kill while an approved draft's create
is held open.

Every expectation is the mock's own ground truth (its commit ledger, delivery ledger,
walk and stale ledgers, and request trace). One mock and one synced pair of services
serve the module; the tests run in file order, each reading the vendor's truth as of its
own moment.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sb7_reference_app import TOKENS, Golden, eventually

from benchwright.services.meridian_v3 import CreateAttempt, MeridianV3Mock, V3Timing

SEED = 7
ADMIN, MAKER, CHECKER = TOKENS["admin"], TOKENS["maker"], TOKENS["checker"]
CROSSING = {"draft.submitted", "draft.approved", "draft.rejected", "reversal.created",
            "payment.sent"}  # fmt: skip
TIMING = V3Timing(retry_after_secs=1.0, create_hold_secs=3.0)
"""The contract's behaviour with shorter waits (the 500's Retry-After, the held create)."""
SYNC_WITHIN_S = 120.0


@pytest.fixture(scope="module")
def vendor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MeridianV3Mock]:
    mock = MeridianV3Mock(SEED, timing=TIMING)
    mock.start()
    yield mock
    mock.stop()


@pytest.fixture(scope="module")
def golden(vendor: MeridianV3Mock, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Golden]:
    """Booted while the vendor is down; synced by itself once it is back."""
    running = Golden(tmp_path_factory.mktemp("sb7-vendor"), vendor.base_url)
    vendor.set_down(True)
    vendor.mark_phase("boot")
    running.notifierd.start()
    running.ledgerd.start()
    assert running.ledgerd.get("/api/health").body["last_sync"] is None
    vendor.set_down(False)
    eventually(lambda: running.ledgerd.get("/api/health").body["last_sync"], SYNC_WITHIN_S)
    assert vendor.wait_deliveries(30)
    yield running
    running.close()


def _local(golden: Golden) -> dict[str, tuple[int, str, int]]:
    """id -> (version, status, amount_minor) of every payment ledgerd serves."""
    viz = golden.ledgerd.get("/api/viz/records").body
    return {
        pid: (version, status, amount)
        for pid, version, status, amount in zip(
            viz["id"], viz["version"], viz["status"], viz["amount_minor"], strict=True
        )
    }


def _vendor_rows(vendor: MeridianV3Mock) -> dict[str, tuple[int, str, int]]:
    return {
        pid: (row["version"], row["status"], row["amount_minor"])
        for pid, row in vendor.commit_ledger().rows_at().items()
    }


def _events(golden: Golden) -> list[dict]:
    events: list[dict] = []
    while True:
        page = golden.ledgerd.get(f"/api/events?after={len(events)}&limit=1000", ADMIN).body
        events += page["events"]
        if len(events) >= page["latest_seq"]:
            return events


def _lists_since(vendor: MeridianV3Mock, mark: str) -> list[dict]:
    lines = vendor.trace.lines()
    start = max(i for i, line in enumerate(lines) if line.get("__phase__") == mark)
    return [line for line in lines[start:] if line["path"] == "/v3/payments"
            and line["method"] == "GET"]  # fmt: skip


# -- the first walk --------------------------------------------------------------------


def test_the_first_sync_ends_with_exactly_the_committed_collection(
    golden: Golden, vendor: MeridianV3Mock
) -> None:
    assert _local(golden) == _vendor_rows(vendor)
    health = golden.ledgerd.get("/api/health").body
    assert health["payments"] == vendor.fixture.total + 1  # the mid-walk create, once
    assert health["webhook"]["registered"] is True


def test_the_first_walk_meets_each_fault_as_the_docs_say(
    golden: Golden, vendor: MeridianV3Mock
) -> None:
    """The golden's first walk (``golden`` boots it: the walk runs there, so this test
    asks for it, not only for the vendor it reads)."""
    walk = vendor.walk_ledger()
    assert walk.completed and walk.pages_served == walk.distinct_pages == 192
    assert walk.restarts == 0 and walk.undocumented_params == 0
    assert walk.drop.fired and walk.drop.resumed_same_cursor and walk.drop.retries == 1
    assert walk.error.fired and walk.error.resumed_same_cursor and walk.error.retries == 1
    assert walk.error.waited_secs >= walk.error.advertised_secs
    assert len(walk.race_pages_fired) == 4 and walk.create_fired


def test_the_webhook_traps_land_and_the_counters_say_so(
    golden: Golden, vendor: MeridianV3Mock
) -> None:
    deliveries = vendor.delivery_ledger()
    forged = [d for d in deliveries if d.kind == "forged"]
    assert [d.status for d in forged] == [401]
    assert all(d.acked for d in deliveries if d.kind != "forged")
    counters = golden.ledgerd.get("/api/health").body["webhook"]
    assert counters["received"] == len(deliveries) and counters["rejected"] == 1
    assert counters["applied"] + counters["ignored"] + counters["rejected"] == len(deliveries)
    schedule = vendor.schedule
    ooo = golden.ledgerd.get(f"/api/payments/{schedule.out_of_order.payment_id}").body
    assert ooo["note"] == schedule.out_of_order.notes[1]
    forged_row = golden.ledgerd.get(f"/api/payments/{schedule.forged.payment_id}").body
    assert forged_row["note"] != schedule.forged.note and forged_row["version"] == 1


def test_summary_and_buckets_equal_the_vendors_truth(
    golden: Golden, vendor: MeridianV3Mock
) -> None:
    truth = vendor.truth()
    summary = golden.ledgerd.get("/api/summary").body
    assert {r["currency"]: (r["count"], r["total_minor"]) for r in summary["by_currency"]} == {
        currency: pair for currency, pair in truth.by_currency.items() if pair[0]
    }
    assert [r["currency"] for r in summary["by_currency"]] == sorted(truth.by_currency)
    assert {r["currency"]: (r["count"], r["total_minor"]) for r in summary["reversals"]} == (
        truth.reversals
    )
    buckets = golden.ledgerd.get("/api/buckets").body
    assert len(buckets["days"]) == 96 and len(buckets["cells"]) == 384
    assert {(c["day"], c["status"]): c["count"] for c in buckets["cells"]} == truth.buckets
    dst = vendor.fixture.dst_day.isoformat()
    assert dst in buckets["days"]


def test_the_event_log_replays_against_the_commit_ledger(
    golden: Golden, vendor: MeridianV3Mock
) -> None:
    events = _events(golden)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    committed = vendor.commit_ledger().committed_versions()
    last: dict[str, int] = {}
    for event in events:
        if event["type"] in ("payment.created", "payment.updated"):
            key = (event["payment_id"], event["version"])
            assert key in committed, event
            assert event["version"] > last.get(event["payment_id"], 0), event
            last[event["payment_id"]] = event["version"]
    assert {e["source"] for e in events} <= {"sync", "webhook", "local", "approval"}


def test_the_refund_group_was_applied_in_one_transaction(
    golden: Golden, vendor: MeridianV3Mock
) -> None:
    refund = vendor.schedule.refund
    grouped = [e for e in _events(golden) if e["txn"]]
    assert [e["type"] for e in grouped] == ["payment.updated", "reversal.created"]
    assert grouped[1]["seq"] == grouped[0]["seq"] + 1
    assert {e["payment_id"] for e in grouped} == {refund.payment_id}
    assert golden.ledgerd.get(f"/api/payments/{refund.payment_id}").body["status"] == "refunded"


def test_every_crossing_event_reaches_the_notifier_once(golden: Golden) -> None:
    eventually(lambda: golden.ledgerd.get("/api/outbox/status").body["pending"] == 0, 60)
    crossing = [e for e in _events(golden) if e["type"] in CROSSING]
    processed = golden.notifierd.get("/notify/processed").body["processed"]
    assert [(p["seq"], p["type"]) for p in processed] == [(e["seq"], e["type"]) for e in crossing]
    feed = golden.notifierd.get("/notify/notifications?limit=1").body
    assert feed["total"] == len(crossing)  # reversals only so far: one row each


# -- later syncs -------------------------------------------------------------------------


def test_later_syncs_are_conditional_and_change_nothing(
    golden: Golden, vendor: MeridianV3Mock
) -> None:
    before = _local(golden)
    for phase in ("resync-a", "resync-b"):
        vendor.mark_phase(phase)
        answer = golden.ledgerd.post("/api/sync")
        assert answer.status == 200 and answer.body["inserted"] == answer.body["updated"] == 0
        lists = _lists_since(vendor, phase)
        # every request carries a validator, but a first visit to a page that did not
        # exist at load (the mid-walk create added one past page 192)
        assert all(line["if_none_match"] or line["page"] > 192 for line in lists)
    assert all(line["status"] == 304 for line in lists)  # the second one: nothing moved
    assert _local(golden) == before


def test_the_generation_rule_refetches_the_lied_page_once(
    golden: Golden, vendor: MeridianV3Mock
) -> None:
    arm = vendor.arm_stale_304()
    vendor.mark_phase("b5")
    assert golden.ledgerd.post("/api/sync").status == 200
    stale = vendor.stale_ledger()
    assert stale.fired and stale.identical_conditionals == 1
    assert stale.unconditional_refetches == 1
    local = _local(golden)
    for payment_id, version in stale.masked:
        assert local[payment_id][0] == version
    assert {m.payment_id for m in arm.mutations} == {pid for pid, _ in stale.masked}
    vendor.mark_phase("after-b5")
    golden.ledgerd.post("/api/sync")
    assert all(line["status"] == 304 for line in _lists_since(vendor, "after-b5"))


def test_a_note_writes_through_with_if_match_and_one_retry_on_412(
    golden: Golden, vendor: MeridianV3Mock
) -> None:
    target = vendor.fixture.payments[3]["id"]
    vendor.commit_mutation(target, note="changed behind our back", announce=False)
    vendor.mark_phase("note")
    answer = golden.ledgerd.post(f"/api/payments/{target}/note", {"note": "call them"})
    assert answer.status == 200
    vendor_row = vendor.commit_ledger().rows_at()[target]
    assert answer.body == {"id": target, "note": "call them", "version": vendor_row["version"]}
    lines = vendor.trace.lines()
    start = max(i for i, line in enumerate(lines) if line.get("__phase__") == "note")
    patches = [line for line in lines[start:] if line["method"] == "PATCH"]
    assert [line["status"] for line in patches] == [412, 200]
    assert all(line["if_match"] for line in patches)
    local = golden.ledgerd.get(f"/api/payments/{target}").body
    assert (local["note"], local["version"]) == ("call them", vendor_row["version"])


def _sync_until_killed(golden: Golden) -> None:
    with contextlib.suppress(httpx.TransportError):  # the kill cuts the answer short
        golden.ledgerd.post("/api/sync")


def test_a_kill_mid_sync_resumes_converges_and_duplicates_nothing(
    golden: Golden, vendor: MeridianV3Mock
) -> None:
    vendor.expire_cursors()  # this sync walks every page again, fresh cursors and all
    vendor.mark_phase("b3")
    syncing = threading.Thread(target=_sync_until_killed, args=(golden,), daemon=True)
    syncing.start()
    eventually(lambda: sum(line["status"] == 200 for line in _lists_since(vendor, "b3")) >= 3)
    golden.ledgerd.kill()
    golden.ledgerd.start()
    last = golden.ledgerd.get("/api/health").body["last_sync"]
    eventually(lambda: golden.ledgerd.get("/api/health").body["last_sync"] != last, 60)
    local = _local(golden)
    assert local == _vendor_rows(vendor)
    viz = golden.ledgerd.get("/api/viz/records").body
    assert len(viz["id"]) == len(set(viz["id"]))
    events = _events(golden)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


@pytest.mark.alone  # the kill must land inside the mock's 3 s hold of the create
def test_a_kill_while_the_approved_create_is_held_sends_once_with_the_same_key(
    golden: Golden, vendor: MeridianV3Mock
) -> None:
    body = {"amount_minor": 4500, "currency": "JPY",
            "counterparty": {"name": "Smoke Co", "country": "JP"}, "note": "A2"}  # fmt: skip
    draft = golden.ledgerd.post("/api/drafts", body, MAKER).body["id"]
    golden.ledgerd.post(f"/api/drafts/{draft}/submit", token=MAKER)
    vendor.hold_creates()
    approved = golden.ledgerd.post(f"/api/drafts/{draft}/approve", token=CHECKER)
    assert approved.status == 200 and approved.body["state"] == "approved"
    attempt = eventually(lambda: _app_create(vendor, draft_amount=4500), 10)
    assert attempt.outcome == "created"
    golden.ledgerd.kill()  # the vendor committed; ledgerd never heard back
    golden.ledgerd.start()
    sent = eventually(lambda: _sent(golden, draft), 60)
    vendor.hold_creates(on=False)
    ledger = vendor.commit_ledger()
    by_key = [a for a in ledger.creates if a.key == attempt.key]
    assert len(by_key) >= 2 and {a.outcome for a in by_key[1:]} == {"replayed"}
    assert ledger.created_per_key()[attempt.key] == 1
    assert sent["payment_id"] == attempt.payment_id
    sends = [e for e in _events(golden) if e["type"] == "payment.sent"]
    assert [(e["draft_id"], e["payment_id"]) for e in sends] == [(draft, attempt.payment_id)]
    assert golden.ledgerd.get(f"/api/payments/{attempt.payment_id}").status == 200


def _app_create(vendor: MeridianV3Mock, draft_amount: int) -> CreateAttempt | None:
    """The app's first create of ``draft_amount`` the vendor committed (polled: the create
    is still held open when it shows here)."""
    creates = vendor.commit_ledger().creates
    return next((a for a in creates if not a.internal and a.amount_minor == draft_amount), None)


def _sent(golden: Golden, draft: str) -> dict | None:
    answer = golden.ledgerd.get(f"/api/drafts/{draft}", ADMIN).body
    return answer if answer["state"] == "sent" else None


def test_every_process_wrote_only_its_own_database(golden: Golden) -> None:
    assert sorted(p.name for p in Path(golden.db_dir).glob("*.db")) == ["ledger.db", "notifier.db"]
