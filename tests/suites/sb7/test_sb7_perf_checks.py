"""The harness-side P and E rows of sb-7 (§12) on records built in code: each at 1.0 on a
fast, correct app and down exactly the rung §12 names for one defect; unproven load and a
contended host refuse instead of scoring."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from sb7_observations import dead_server, perfect, row, swap
from sb7_perf_records import BUSY, CALM, battery, latency, page, under, with_perf

from benchwright.model import CheckResult, Status
from benchwright.scoring.contention import HOST_CONTENDED
from benchwright.suites.kit.browser.record import BrowserRecord
from benchwright.suites.sb7.checks import CheckSettings, build_table, judge
from benchwright.suites.sb7.checks._timing import judge_timing
from benchwright.suites.sb7.checks.tier_e import e_mastery
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.perf_obs import LIST_50


def graded(obs: Observations, check_id: str, settings: CheckSettings | None = None) -> CheckResult:
    """The row as `judge` returns it: the contention rule applied."""
    found = build_table().evaluate_one(check_id, obs, settings or CheckSettings())
    return judge_timing([found], obs)[0]


# ---------------------------------------------------------------- p_api_latency


def test_a_fast_battery_earns_the_top_rung() -> None:
    found = graded(with_perf(perfect()), "p_api_latency")
    assert (found.status, found.score) == (Status.PASS, 1.0)


def test_each_endpoint_is_judged_against_its_own_budget() -> None:
    """350 ms is inside the viz records' 400 ms budget but not the buckets' 200 ms."""
    assert graded(with_perf(perfect(), idle=battery(records=350.0)), "p_api_latency").score == 1.0
    slow = graded(with_perf(perfect(), idle=battery(buckets=350.0)), "p_api_latency")
    assert slow.score == 0.75 and "worst /api/buckets" in slow.detail


@pytest.mark.parametrize(("ms", "want"), [(250.0, 0.75), (500.0, 0.5), (1400.0, 0.25),
                                          (2000.0, 0.0)])  # fmt: skip
def test_the_worst_p95_walks_down_the_ladder(ms: float, want: float) -> None:
    found = graded(with_perf(perfect(), idle=battery(summary=ms)), "p_api_latency")
    assert found.score == want and "worst /api/summary" in found.detail


def test_an_endpoint_that_mostly_fails_is_unmeasurable_and_scores_zero() -> None:
    idle = battery()
    broken = {**idle.endpoints, LIST_50: latency(LIST_50, 20.0, failed=12)}
    found = graded(with_perf(perfect(), idle=replace(idle, endpoints=broken)), "p_api_latency")
    assert found.score == 0.0 and "unmeasurable" in found.detail


def test_k_p_tightens_the_top_rung() -> None:
    settings = replace(CheckSettings(), k_p=2.0)
    obs = with_perf(perfect(), idle=battery(payments=100.0))
    assert row(obs, "p_api_latency").score == 1.0
    assert graded(obs, "p_api_latency", settings).score == 0.75


def test_a_contended_host_refuses_a_short_battery_and_keeps_a_top_one() -> None:
    slow = graded(with_perf(perfect(), idle=battery(BUSY, buckets=900.0)), "p_api_latency")
    assert slow.status is Status.UNAVAILABLE and slow.detail.startswith(HOST_CONTENDED)
    fast = graded(with_perf(perfect(), idle=battery(BUSY)), "p_api_latency")
    assert fast.score == 1.0 and "contended host" in fast.detail


def test_the_suites_judge_applies_the_contention_rule() -> None:
    rows = {r.check_id: r for r in judge(with_perf(perfect(), idle=battery(BUSY, buckets=900.0)))}
    assert rows["p_api_latency"].status is Status.UNAVAILABLE
    assert rows["p_api_latency"].evidence["host"]["contended"] is True


def test_only_the_deciding_endpoints_window_can_excuse_the_row() -> None:
    """A busy window elsewhere cannot have lowered the worst endpoint measured calmly."""
    idle = battery(buckets=900.0)
    hosts = {**idle.host, "/api/summary": BUSY}
    found = graded(with_perf(perfect(), idle=replace(idle, host=hosts)), "p_api_latency")
    assert found.status is Status.FAIL and found.score == 0.25


# ---------------------------------------------------------------- under the stream


@pytest.mark.parametrize("check_id", ["p_under_stream", "e_under_load_latency"])
def test_fast_correct_reads_under_the_burst_earn_the_top_rung(check_id: str) -> None:
    found = graded(with_perf(perfect()), check_id)
    assert (found.status, found.score) == (Status.PASS, 1.0)
    assert "overlap 100%" in found.detail and "48/48 burst payments" in found.detail


@pytest.mark.parametrize("check_id", ["p_under_stream", "e_under_load_latency"])
def test_unproven_load_refuses(check_id: str) -> None:
    found = graded(with_perf(perfect(), load=under(20.0, overlap=0.25)), check_id)
    assert found.status is Status.UNAVAILABLE and "unproven load" in found.detail


def _wrong_bodies() -> dict[str, bytes]:
    obs = perfect()
    truth = obs.truth
    good = json.loads(page(truth))["data"]
    money = [{**good[0], "amount_minor": good[0]["amount_minor"] + 1}, *good[1:]]
    return {"total": page(truth, total=truth.total - 1), "short": page(truth, rows=good[:49]),
            "money": page(truth, rows=money), "empty": page(truth, rows=[]),
            "html": b"<html>"}  # fmt: skip


@pytest.mark.parametrize("defect", sorted(_wrong_bodies()))
@pytest.mark.parametrize("check_id", ["p_under_stream", "e_under_load_latency"])
def test_any_wrong_read_under_load_scores_zero_however_fast(check_id: str, defect: str) -> None:
    load = under(20.0, body=_wrong_bodies()[defect])
    found = graded(with_perf(perfect(), load=load), check_id)
    assert found.score == 0.0 and "48/48 reads wrong under load" in found.detail


@pytest.mark.parametrize(("ms", "want"), [(200.0, 0.75), (500.0, 0.5), (1000.0, 0.25),
                                          (1300.0, 0.0)])  # fmt: skip
def test_a_slow_p95_under_load_walks_down_the_ladder(ms: float, want: float) -> None:
    found = graded(with_perf(perfect(), load=under(ms)), "p_under_stream")
    assert found.score == want


def test_a_contended_burst_refuses_rather_than_lowers() -> None:
    found = graded(with_perf(perfect(), load=under(500.0, host=BUSY)), "e_under_load_latency")
    assert found.status is Status.UNAVAILABLE and found.detail.startswith(HOST_CONTENDED)
    assert "other processes took 70%" in found.detail


def test_a_wrong_read_is_zero_even_on_a_contended_host() -> None:
    """Contention can slow an app, never make its answer wrong."""
    load = under(20.0, body=_wrong_bodies()["total"], host=BUSY)
    found = graded(with_perf(perfect(), load=load), "p_under_stream")
    assert (found.status, found.score) == (Status.FAIL, 0.0)


# ---------------------------------------------------------------- p_sync_wall


def _stretched(factor: float) -> Observations:
    vendor = perfect()["vendor"]
    walk = tuple(replace(r, at=r.at * factor) for r in vendor.trace.sync1)
    return swap(perfect(), "vendor", trace=replace(vendor.trace, sync1=walk))


def test_the_first_sync_within_two_minutes_earns_the_top_rung() -> None:
    found = row(perfect(), "p_sync_wall")
    assert found.score == 1.0 and "over 194 list requests" in found.detail


@pytest.mark.parametrize(("factor", "want"), [(8.0, 0.75), (15.0, 0.5), (25.0, 0.25),
                                              (40.0, 0.0)])  # fmt: skip
def test_a_slow_first_sync_walks_down_the_ladder(factor: float, want: float) -> None:
    """The clean trace's walk spans 20.4 s on the vendor's clock."""
    assert row(_stretched(factor), "p_sync_wall").score == want


def test_a_first_sync_that_never_closed_the_walk_scores_zero() -> None:
    vendor = perfect()["vendor"]
    cut = vendor.trace.sync1[:100]
    found = row(swap(perfect(), "vendor", trace=replace(vendor.trace, sync1=cut)), "p_sync_wall")
    assert found.score == 0.0 and "never completed" in found.detail


def test_the_sync_wall_is_unavailable_without_the_vendors_trace() -> None:
    obs = perfect()
    found = row(replace(obs, phases={k: v for k, v in obs.phases.items() if k != "vendor"}),
                "p_sync_wall")  # fmt: skip
    assert found.status is Status.NOT_ATTEMPTED


# ---------------------------------------------------------------- e_mastery


def _rows(**scores: float) -> dict[str, CheckResult]:
    return {k: CheckResult(k, Status.PASS if v == 1.0 else Status.FAIL, v, "")
            for k, v in scores.items()}  # fmt: skip


def test_mastery_pays_in_full_at_a_ninety_percent_mean() -> None:
    rows = _rows(t_draw_budget=1.0, x_l2_per_key_order=0.8, r_b7_partition=0.9)
    assert e_mastery(rows).score == 1.0


def test_mastery_below_the_cliff_pays_at_most_half() -> None:
    found = e_mastery(_rows(t_draw_budget=1.0, x_l2_per_key_order=0.4, b_row_shape=0.0))
    assert found.score == pytest.approx(0.7 / 0.9 * 0.5)


def test_mastery_skips_unmeasured_and_root_attributed_rows() -> None:
    rows = _rows(x_l2_per_key_order=1.0)
    rows["t_pick_buffer"] = CheckResult("t_pick_buffer", Status.UNAVAILABLE, 0.0, "probe")
    rows["x_l4_convergence"] = CheckResult("x_l4_convergence", Status.FAIL, 0.0, "vacuous",
                                           {"blocked_by": "sync_completeness"})  # fmt: skip
    assert e_mastery(rows).score == 1.0
    assert e_mastery({}).status is Status.UNAVAILABLE


# ---------------------------------------------------------------- the browser's timing rows


@pytest.mark.parametrize(("check_id", "scenario"), [("j_first_use", "load"),
                                                    ("p_drag_frames", "viz"),
                                                    ("e_stream_apply_latency", "viz"),
                                                    ("e_optimistic_paint", "flow")])  # fmt: skip
def test_a_browser_timing_row_is_judged_by_its_scenarios_host(check_id: str, scenario: str) -> None:
    """A shortfall its timing figure decided refuses on a busy scenario; a calm one, or a
    shortfall from elsewhere (no ``timing_score``), stands."""
    short = CheckResult(check_id, Status.FAIL, 0.75, "0.75: slow", {"timing_score": 0.75})
    other = CheckResult(check_id, Status.FAIL, 0.0, "0: no frames drew")
    busy = perfect().with_phase("browser", BrowserRecord(None, scenario_host={scenario: BUSY}))
    calm = perfect().with_phase("browser", BrowserRecord(None, scenario_host={scenario: CALM}))
    refused, wrong = judge_timing([short, other], busy)
    assert refused.status is Status.UNAVAILABLE and refused.detail.startswith(HOST_CONTENDED)
    assert (wrong.status, wrong.score) == (Status.FAIL, 0.0)
    assert judge_timing([short], calm)[0].score == 0.75
    assert judge_timing([short], perfect())[0] == short  # no browser phase: as measured


# ---------------------------------------------------------------- a dead server


def test_a_dead_server_blocks_the_harness_side_rows() -> None:
    """Its timed rows never ran against an app (0, blocked by the boot), its first sync
    never walked (0, blocked), and with every mechanism row blocked mastery is unmeasured."""
    obs = dead_server()
    vendor = obs["vendor"]
    obs = swap(obs, "vendor", trace=replace(vendor.trace, sync1=(), resync=()))
    rows = {r.check_id: r for r in judge(obs)}
    for check_id in ("p_api_latency", "p_under_stream", "e_under_load_latency", "p_sync_wall"):
        assert (rows[check_id].status, rows[check_id].score) == (Status.FAIL, 0.0), check_id
        assert rows[check_id].evidence.get("blocked_by") == "server_runs", check_id
    assert rows["e_mastery"].status is Status.UNAVAILABLE


def test_the_sync_wall_is_judged_by_the_boot_window() -> None:
    """A slow first sync refuses when the host was busy across ledgerd's start and first
    sync, and stands as measured when it was calm."""
    short = CheckResult("p_sync_wall", Status.FAIL, 0.75, "0.75: slow", {"timing_score": 0.75})
    busy = swap(perfect(), "boot", host=BUSY)
    (refused,) = judge_timing([short], busy)
    assert refused.status is Status.UNAVAILABLE and refused.detail.startswith(HOST_CONTENDED)
    assert judge_timing([short], swap(perfect(), "boot", host=CALM))[0].score == 0.75
