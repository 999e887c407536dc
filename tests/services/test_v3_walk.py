"""The first walk against the real v3 mock over HTTP: its seeded drop and 500, the racing
commits and their webhooks (both barrier orders, the out-of-order pair, the duplicate,
the forged event, the refund group, the mid-walk create), and the ledgers that tell a
right client from a wrong one."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import pytest
from v3_client import Consumer, Store, Walker, client, consumer_for, serving

from benchwright.services.meridian_v3 import (
    PAGE_FIRST,
    PAGES,
    WEBHOOK_FIRST,
    MeridianV3Mock,
    derive_schedule,
)

RACED_SEED = 8


PAGE_OUT_WAIT_SECS = 2.0
"""How long the consumer holds a page-first event for its page to reach the walker: under
the mock's delivery timeout, and far above a correct mock's few milliseconds."""


@dataclass(frozen=True)
class Raced:
    """One first walk by a documented client with a documented consumer registered.

    ``page_out``: for each page-first race page, whether the walker held the page when each
    of its events was about to be answered (the consumer waited for it, bounded)."""

    mock: MeridianV3Mock
    walker: Walker
    consumer: Consumer
    page_out: dict[int, list[bool]]


def _walk(mock, store=None, **knobs) -> Walker:
    with client(mock) as http:
        walker = Walker(http, store or Store(), **knobs)
        walker.walk()
    return walker


def _raced(seed: int) -> Raced:
    """A page-first race is checked by holding its events' answers until the walker has the
    page: a vendor that delivered before the page's bytes were out would hold the page
    behind the answer, and the wait would end without it. (Comparing the walker's tick for
    the page with the consumer's is no proof: the walker ticks after reading and parsing,
    in a thread the consumer's can overtake on a busy host.)"""
    page_first = {
        mutation.payment_id: race.page
        for race in derive_schedule(seed).race_pages
        if race.order == PAGE_FIRST
        for mutation in race.mutations
    }
    page_out: dict[int, list[bool]] = {}
    with serving(seed) as mock, client(mock) as http:
        walker = Walker(http, Store())

        async def walker_has_the_page(event: dict) -> None:
            page = page_first.get(event.get("data", {}).get("id"))
            if page is None:
                return
            deadline = time.monotonic() + PAGE_OUT_WAIT_SECS
            while not (out := any(p == page for _tick, p in walker.pages)):
                if time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.005)
            page_out.setdefault(page, []).append(out)

        with consumer_for(mock, walker.store, pace=walker_has_the_page) as consumer:
            walker.walk()
            assert mock.wait_deliveries(15)
    return Raced(mock, walker, consumer, page_out)


@pytest.fixture(scope="module")
def raced() -> Raced:
    """Shared by the tests that only read its ledgers (each walk takes seconds)."""
    return _raced(RACED_SEED)


def test_a_documented_walk_resumes_the_drop_and_the_500_and_the_ledger_says_so(raced):
    mock, walker = raced.mock, raced.walker
    ledger = mock.walk_ledger()
    assert ledger.started and ledger.completed and ledger.restarts == 0
    assert ledger.pages_served == ledger.distinct_pages == PAGES == len(walker.pages)
    drop, error = ledger.drop, ledger.error
    assert drop.fired and drop.resumed_same_cursor and drop.retries == 1 and not drop.restarted
    assert error.fired and error.resumed_same_cursor and error.retries == 1
    assert error.advertised_secs == 1 and error.waited_secs >= error.advertised_secs - 0.3
    assert not error.restarted
    assert ledger.race_pages_fired == mock.schedule.race_page_numbers and ledger.create_fired


def test_a_client_that_restarts_after_the_500_shows_as_restarted():
    with serving(seed=3) as mock:
        _walk(mock, after_error="restart")
        ledger = mock.walk_ledger()
    assert ledger.error.fired and ledger.error.restarted and not ledger.error.resumed_same_cursor
    assert ledger.restarts == 1 and ledger.pages_served > PAGES


def test_a_client_that_ignores_retry_after_shows_as_not_waiting():
    with serving(seed=3) as mock:
        _walk(mock, wait=False)
        error = mock.walk_ledger().error
    assert error.resumed_same_cursor and error.waited_secs < error.advertised_secs - 0.3


def test_a_client_that_restarts_after_the_drop_shows_as_restarted():
    with serving(seed=3) as mock:
        _walk(mock, after_drop="restart")
        drop = mock.walk_ledger().drop
    assert drop.fired and drop.restarted and not drop.resumed_same_cursor


def test_the_walk_bound_is_captured_and_limit_is_ignored_and_noted():
    with serving(seed=1) as mock, client(mock) as http:
        first = http.get("/v3/payments", params={"limit": 500})
        assert first.status_code == 200 and len(first.json()["data"]) == 64
        assert first.json()["total"] == 12_288
        ledger = mock.walk_ledger()
    assert ledger.undocumented_params == 1 and ledger.pages_served == 1 and not ledger.completed


def test_racing_webhooks_keep_their_barrier_order_and_a_correct_consumer_converges(raced):
    mock, walker, consumer = raced.mock, raced.walker, raced.consumer
    store = walker.store
    ledger, schedule = mock.commit_ledger(), mock.schedule
    deliveries = mock.delivery_ledger()
    page_tick = {page: tick for tick, page in walker.pages}
    arrived = {}
    for tick, event, _body, _header in consumer.arrivals:
        arrived.setdefault(event["id"], tick)
    for race in schedule.race_pages:
        ids = {d.event_id for d in deliveries if d.race_page == race.page}
        ticks = [arrived[i] for i in ids]
        if race.order == WEBHOOK_FIRST:
            assert max(ticks) < page_tick[race.page]
        else:
            assert race.order == PAGE_FIRST
            assert raced.page_out[race.page] and all(raced.page_out[race.page])
            assert max(ticks) < page_tick[race.page + 1]
    # everything a correct app holds is the vendor's truth, the mid-walk create included
    truth = ledger.rows_at()
    assert len(store.rows) == len(truth) == 12_289
    assert {pid: (r["version"], r["status"], r["note"]) for pid, r in store.rows.items()} == {
        pid: (r["version"], r["status"], r["note"]) for pid, r in truth.items()
    }
    assert {r["id"] for r in ledger.reversals_at()} >= set(store.reversals)
    assert consumer.counters["rejected"] == 1  # the forged one
    assert consumer.counters["ignored"] >= 2  # the duplicate and the late v+1
    forged = schedule.forged
    assert store.rows[forged.payment_id]["note"] != forged.note
    ooo = store.rows[schedule.out_of_order.payment_id]
    assert ooo["note"] == schedule.out_of_order.notes[1]


def test_the_schedule_delivers_each_trap_once_in_its_seeded_order(raced):
    deliveries, schedule = raced.mock.delivery_ledger(), raced.mock.schedule
    kinds = [d.kind for d in deliveries]
    assert kinds.count("forged") == 1 and kinds.count("duplicate") == 1
    assert all(d.acked for d in deliveries if d.kind != "forged")
    assert next(d for d in deliveries if d.kind == "forged").status == 401
    ooo = [d for d in deliveries if d.payment_id == schedule.out_of_order.payment_id]
    assert [d.version for d in ooo] == [3, 2]  # v+2 before v+1
    dup = next(d for d in deliveries if d.kind == "duplicate")
    original = [d for d in deliveries if d.event_id == dup.event_id]
    assert len(original) == 2 and original[0].kind == "genuine"
    group = [d for d in deliveries if d.txn is not None]
    assert len(group) == 2 and group[0].txn["id"] == group[1].txn["id"]
    assert group[0].txn["part"] == schedule.refund.first
    assert {d.type for d in group} == {"payment.updated", "reversal.created"}
    created = [d for d in deliveries if d.type == "payment.created"]
    assert len(created) == 1 and created[0].race_page == schedule.create.page


def test_duplicates_are_byte_identical_and_the_forged_signature_never_verifies(raced):
    mock, consumer = raced.mock, raced.consumer
    dup_id = next(d.event_id for d in mock.delivery_ledger() if d.kind == "duplicate")
    copies = [
        (body, header) for _t, event, body, header in consumer.arrivals if event["id"] == dup_id
    ]
    assert len(copies) == 2 and copies[0] == copies[1]
    forged = [
        event
        for _t, event, _b, _h in consumer.arrivals
        if event["data"].get("note") == mock.schedule.forged.note
    ]
    assert len(forged) == 1


def _projection(mock):
    commits = [
        (c.seq, c.payment_id, c.version, c.source, c.row["status"], c.row["note"])
        for c in mock.commit_ledger().commits
    ]
    deliveries = [
        (d.event_id, d.type, d.payment_id, d.version, d.kind, d.race_page)
        for d in mock.delivery_ledger()
    ]
    return commits, deliveries, mock.walk_ledger().race_pages_fired


def test_the_same_seed_fires_the_same_schedule_twice(raced):
    again = _raced(RACED_SEED)
    assert _projection(again.mock) == _projection(raced.mock)
    assert again.mock.walk_ledger().race_pages_fired == raced.mock.schedule.race_page_numbers
    other = derive_schedule(RACED_SEED + 1)
    assert other.race_page_numbers != raced.mock.schedule.race_page_numbers
