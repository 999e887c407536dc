"""Tier X of sb-7 (§12): the consistency ledger. A correct app's log, read stream and final
state earn 1.0; one invented version, one regressed read, one half-applied summary, one
mutated amount, one lost acknowledged write each take their row down as §12 says."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sb7_observations import (
    FORGED,
    FORGED_NOTE,
    OOO,
    RACED,
    REFUND,
    STALE_NOTE,
    answer,
    app_state,
    dead_sync,
    events,
    perfect,
    row,
    stream,
    summary,
    swap,
    viz,
)

from benchwright.model import Status
from benchwright.suites.sb7.observations import EventsRead, RowSeen, SpotRead, StreamRead

X_ROWS = ("x_l1_no_invented_states", "x_l2_per_key_order", "x_l3_monotonic_reads",
          "x_l4_convergence", "x_l5_group_atomicity", "x_m1_amount_immutability",
          "x_m2_pair_conservation", "x_m3_terminal_conservation", "x_conservation_residual",
          "x_no_lost_write", "x_ooo_dup_forged")  # fmt: skip
"""The X rows §12 makes vacuous on a dead sync (x_m4 has no such clause)."""


def _log(*extra: dict) -> object:
    log = events()
    added = tuple({**e, "seq": len(log) + i + 1} for i, e in enumerate(extra))
    return swap(perfect(), "final", events=EventsRead(200, log + added))


def _read(*rows: RowSeen, at: float = 6.0) -> object:
    late = StreamRead(at, at + 0.1, rows)
    return swap(perfect(), "stream", reads=(*stream().reads, late))


def _seen(pid: str, **changes) -> RowSeen:
    r = app_state()[pid]
    return replace(RowSeen(pid, r["version"], r["amount_minor"], r["currency"], r["status"]),
                   **changes)  # fmt: skip


def _spot(pid: str, **changes) -> object:
    spots = tuple(SpotRead(s.payment_id, 200, {**s.row, **changes})
                  if s.payment_id == pid else s for s in perfect()["final"].spot)  # fmt: skip
    return swap(perfect(), "final", spot=spots)


def _update(pid: str, version: int) -> dict:
    return {"type": "payment.updated", "payment_id": pid, "version": version,
            "source": "webhook", "txn": None, "at": "2026-06-01T10:00:00Z"}  # fmt: skip


def test_one_invented_version_zeroes_l1() -> None:
    assert row(_log(_update(RACED[0], 99)), "x_l1_no_invented_states").score == 0.0
    assert row(_read(_seen(RACED[1], version=42)), "x_l1_no_invented_states").score == 0.0


def test_a_reapplied_version_is_one_order_violation() -> None:
    version = app_state()[RACED[0]]["version"]
    found = row(_log(_update(RACED[0], version)), "x_l2_per_key_order")
    assert found.score == pytest.approx(1 - 1 / 13) and found.evidence["violations"] == 1


def test_a_regressed_read_zeroes_l3() -> None:
    older = app_state(0)[OOO]["version"]
    found = row(_read(_seen(OOO, version=older)), "x_l3_monotonic_reads")
    assert found.score == 0.0 and found.evidence["regressions"] == 1


def test_reads_that_overlap_prove_no_regression() -> None:
    """A read racing the one that first served v+2 may still serve the load version."""
    older = app_state(0)[OOO]["version"]
    racing = StreamRead(1.95, 2.2, (_seen(OOO, version=older),))
    obs = swap(perfect(), "stream", reads=(*stream().reads, racing))
    assert row(obs, "x_l3_monotonic_reads").score == 1.0


def test_the_read_stream_never_running_is_unavailable() -> None:
    obs = perfect()
    phases = {k: v for k, v in obs.phases.items() if k != "stream"}
    unsampled = replace(obs, phases=phases)
    assert row(unsampled, "x_l3_monotonic_reads").status is Status.UNAVAILABLE
    assert row(swap(obs, "stream", reads=()), "x_l3_monotonic_reads").score == 0.0


def test_convergence_rows_and_total() -> None:
    stale = app_state()[RACED[0]]["version"] - 1
    found = row(_spot(RACED[0], version=stale), "x_l4_convergence")
    assert found.score == pytest.approx(0.7 * 10 / 11 + 0.3)
    short = answer({"data": [], "total": 12_289, "limit": 50, "offset": 0})
    assert row(swap(perfect(), "final", payments=short), "x_l4_convergence").score == 0.7


def _half_applied() -> object:
    """A summary without the refund's reversal after a read had shown the payment
    refunded: half the group, confirmed by the reads' real-time order."""
    without = summary(app_state(), refunded=False)
    late = StreamRead(4.5, 4.6, summary=without, in_refund_window=True)
    return swap(perfect(), "stream", reads=(*stream().reads, late))


def test_one_half_applied_summary_zeroes_l5_and_m2() -> None:
    obs = _half_applied()
    assert row(obs, "x_l5_group_atomicity").score == 0.0
    assert row(obs, "x_m2_pair_conservation").score == 0.0


def test_an_unexplained_reversal_total_lowers_m2_but_is_no_half_state() -> None:
    broken = summary(app_state())
    broken["reversals"] = [{**e, "total_minor": e["total_minor"] + 1} for e in broken["reversals"]]
    late = StreamRead(4.5, 4.6, summary=broken, in_refund_window=True)
    obs = swap(perfect(), "stream", reads=(*stream().reads, late))
    assert row(obs, "x_l5_group_atomicity").score == 1.0
    assert row(obs, "x_m2_pair_conservation").score == pytest.approx(2 / 3)


def test_the_refund_window_unfired_or_unsampled_is_unavailable() -> None:
    refund = perfect()["sync1"].refund
    unfired = swap(perfect(), "sync1", refund=replace(refund, fired=False))
    assert row(unfired, "x_l5_group_atomicity").status is Status.UNAVAILABLE
    outside = tuple(replace(r, in_refund_window=False) for r in stream().reads)
    unsampled = swap(perfect(), "stream", reads=outside)
    assert row(unsampled, "x_m2_pair_conservation").status is Status.UNAVAILABLE


def test_one_mutated_amount_zeroes_m1() -> None:
    found = row(_read(_seen(REFUND, amount_minor=1)), "x_m1_amount_immutability")
    assert found.score == 0.0


def test_terminal_conservation_buckets() -> None:
    good = summary(app_state())
    off = {**good, "by_currency": [{**good["by_currency"][0], "total_minor": 1},
                                   *good["by_currency"][1:]]}  # fmt: skip
    assert row(swap(perfect(), "final", summary=answer(off)),
               "x_m3_terminal_conservation").score == pytest.approx(0.7 * 3 / 4 + 0.3)  # fmt: skip
    no_refund = summary(app_state(), refunded=False)
    found = row(swap(perfect(), "final", summary=answer(no_refund)), "x_m3_terminal_conservation")
    assert found.score == pytest.approx(0.7 + 0.3 * 3 / 4)


def test_a_cross_currency_total_zeroes_m4() -> None:
    good = summary(app_state())
    cross = sum(e["total_minor"] for e in good["by_currency"])
    found = row(swap(perfect(), "final", summary=answer({**good, "total_minor": cross})),
                "x_m4_no_cross_currency")  # fmt: skip
    assert found.score == 0.0 and "total_minor" in found.detail


def test_an_unexplained_residual_zeroes_conservation() -> None:
    good = summary(app_state())
    first = good["by_currency"][0]
    off = {**good, "by_currency": [{**first, "total_minor": first["total_minor"] + 5},
                                   *good["by_currency"][1:]]}  # fmt: skip
    assert (
        row(swap(perfect(), "final", summary=answer(off)), "x_conservation_residual").score == 0.0
    )


def test_a_loss_the_summary_shows_is_explained_not_a_residual() -> None:
    """Evidence-disjoint criticals: the lost row is r_no_row_loss's and x_m3's to price;
    the residual after attributing it is zero."""
    rows = {pid: r for pid, r in app_state().items() if pid != RACED[2]}
    obs = swap(perfect(), "final", summary=answer(summary(rows)), viz=answer(viz(rows)))
    assert row(obs, "x_conservation_residual").score == 1.0
    assert row(obs, "x_m3_terminal_conservation").score < 1.0


def test_a_lost_acknowledged_write_zeroes_the_row() -> None:
    rows = {**app_state(), OOO: {**app_state()[OOO], "version": app_state(0)[OOO]["version"]}}
    found = row(swap(perfect(), "final", viz=answer(viz(rows))), "x_no_lost_write")
    assert found.score == 0.0 and found.evidence["lost"] >= 1
    assert row(swap(perfect(), "vendor", deliveries=None),
               "x_no_lost_write").status is Status.UNAVAILABLE  # fmt: skip


def test_the_webhook_traps_each_cost_a_third() -> None:
    stale_v = app_state()[OOO]["version"] - 1
    assert row(_spot(OOO, version=stale_v, note=STALE_NOTE),
               "x_ooo_dup_forged").score == pytest.approx(2 / 3)  # fmt: skip
    assert row(_spot(FORGED, note=FORGED_NOTE), "x_ooo_dup_forged").score == pytest.approx(2 / 3)
    twice = _update(RACED[0], app_state()[RACED[0]]["version"])
    assert row(_log(twice), "x_ooo_dup_forged").score == pytest.approx(2 / 3)


def test_a_dead_sync_makes_every_x_row_vacuous_under_sync_completeness() -> None:
    for check in X_ROWS:
        found = row(dead_sync(), check)
        assert (found.score, found.evidence.get("blocked_by")) == (0.0, "sync_completeness"), check


def test_missing_fixtures_make_the_ledger_rows_unavailable() -> None:
    obs = replace(perfect(), truth=None)
    assert row(obs, "x_l4_convergence").status is Status.UNAVAILABLE
