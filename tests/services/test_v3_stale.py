"""B5 against the real v3 mock: a conditional resync meets one 304 whose generation
differs, with silent commits behind it. The ledger tells the client that refetched once
from the one that looped and the one that served its stale copy as fresh."""

from __future__ import annotations

from v3_client import Store, Walker, client, serving


def _resync(rule: str, arm: bool = True):
    """A first walk, then (armed or not) a conditional resync by a client with ``rule``."""
    with serving(seed=4) as mock, client(mock) as http:
        walker = Walker(http, Store(), rule=rule)
        walker.walk()
        first_generation = walker.generation
        mock.mark_phase("resync")
        if arm:
            mock.arm_stale_304()
        served = walker.walk(conditional=True)
        return mock, walker, served, first_generation


def _served_in_resync(mock) -> set[int]:
    """The pages answered 200 after the ``resync`` marker."""
    lines = mock.trace.lines()
    start = next(i for i, x in enumerate(lines) if x.get("__phase__") == "resync")
    return {x["page"] for x in lines[start:] if x["path"] == "/v3/payments" and x["status"] == 200}


def _raced(mock) -> set[int]:
    """The pages the first walk's racing commits changed (after the walker had read some)."""
    return {
        mock.fixture.page_of(c.payment_id, 64)
        for c in mock.commit_ledger().commits
        if c.source in ("race", "out-of-order", "refund")
    }


def test_a_client_obeying_the_generation_rule_refetches_once_and_sees_the_commits():
    mock, walker, _served, first = _resync("obey")
    ledger = mock.stale_ledger()
    assert ledger.armed and ledger.fired and ledger.page == mock.schedule.stale.page
    assert ledger.refetched_once and not ledger.looped and ledger.identical_conditionals == 1
    assert ledger.lied_generation != first == "1" and walker.generation == ledger.lied_generation
    # one request per page plus the one refetch; the 200s are that refetch and the pages
    # the first walk's racing commits changed after the walker had read them
    served_pages = _served_in_resync(mock)
    assert walker.requests == 2 * 192 + 2 + 1
    assert ledger.page in served_pages <= _raced(mock) | {ledger.page}
    for payment_id, version in ledger.masked:
        assert walker.store.rows[payment_id]["version"] == version


def test_a_client_repeating_the_conditional_request_shows_as_looping():
    mock, walker, _served, _first = _resync("loop")
    ledger = mock.stale_ledger()
    assert ledger.fired and ledger.looped and ledger.identical_conditionals == 6
    assert ledger.unconditional_refetches == 0
    for payment_id, version in ledger.masked:
        assert walker.store.rows[payment_id]["version"] < version


def test_a_client_keeping_its_stale_copy_never_refetches_and_misses_the_commits():
    mock, walker, _served, _first = _resync("ignore")
    ledger = mock.stale_ledger()
    assert ledger.fired and not ledger.looped and ledger.unconditional_refetches == 0
    assert ledger.page not in _served_in_resync(mock)
    for payment_id, version in ledger.masked:
        assert walker.store.rows[payment_id]["version"] < version


def test_without_the_arm_every_page_is_a_true_304_and_the_ledger_says_unarmed():
    mock, walker, served, first = _resync("obey", arm=False)
    assert walker.generation == first
    assert not mock.stale_ledger().armed and not mock.stale_ledger().fired
    assert _served_in_resync(mock) <= _raced(mock) and served == len(_served_in_resync(mock))
    lines = [x for x in mock.trace.lines() if x.get("not_modified")]
    assert len(lines) == 192 - served and not any(x["stale_lie"] for x in lines)


def test_armed_but_never_asked_conditionally_the_lie_does_not_fire():
    with serving(seed=4) as mock, client(mock) as http:
        Walker(http).walk()
        mock.arm_stale_304()
        Walker(http).walk()  # a fresh client: no validators
        ledger = mock.stale_ledger()
    assert ledger.armed and not ledger.fired and len(ledger.masked) == 2
