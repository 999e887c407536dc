"""The harness's side of sb-7's fault schedule: the same seed derives the same positions,
positions move with the seed, and the frozen boundaries hold for every seed."""

from __future__ import annotations

import re

from benchwright.suites.sb7.schedule import (
    CREATE,
    PARTITION_COMMITS,
    REJECT,
    SUBMIT,
    HarnessSchedule,
    derive,
)

SEEDS = range(60)


def test_the_same_seed_derives_the_same_schedule_and_seeds_move_the_positions() -> None:
    derive.cache_clear()
    first = derive(7)
    derive.cache_clear()
    assert derive(7) == first  # recomputed, not the cached object
    positions = {repr(derive(seed).positions()) for seed in SEEDS}
    assert len(positions) > len(SEEDS) // 2
    for field in ("vendor_down_s", "b3_after_list", "b5_sync", "a1_step", "b6_step"):
        assert len({derive(seed).positions()[field] for seed in SEEDS}) > 1, field


def test_the_boundaries_hold_whatever_the_seed() -> None:
    for seed in SEEDS:
        boundaries_hold(derive(seed))


def boundaries_hold(schedule: HarnessSchedule) -> None:
    assert 3 <= schedule.vendor_down_s <= 8
    assert 2 <= schedule.b3_after_list <= 5
    assert schedule.b5_sync in (3, 4)
    steps = schedule.partition
    assert len(steps) == PARTITION_COMMITS
    assert sum(step.crosses for step in steps) >= 3
    for draft in range(len(schedule.partition_drafts)):
        actions = [s.action for s in steps if s.draft == draft]
        assert actions in ([CREATE, SUBMIT], [CREATE, SUBMIT, REJECT])
    assert steps[schedule.a1_step].action == SUBMIT
    assert steps[schedule.b6_step].crosses and schedule.b6_step != schedule.a1_step


def test_every_draft_passes_the_spec_validation() -> None:
    """Positive integer amounts, one of the four currencies, a 1-80 char name, a
    two-letter upper-case country, a note of at most 280 chars: a rejection of these
    drafts is the app's."""
    drafts = [
        d
        for seed in SEEDS
        for d in (*derive(seed).partition_drafts, derive(seed).rejected, derive(seed).approved)
    ]
    for draft in drafts:
        body = draft.body()
        assert isinstance(body["amount_minor"], int) and body["amount_minor"] > 0
        assert body["currency"] in ("EUR", "USD", "JPY", "KWD")
        assert 1 <= len(body["counterparty"]["name"]) <= 80
        assert re.fullmatch(r"[A-Z]{2}", body["counterparty"]["country"])
        assert len(body["note"]) <= 280
