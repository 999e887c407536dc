"""Tier P over HTTP and the two E rows that need no browser."""

import pytest
from vspro_canned import ROWS, grade_one, jr, latency, load, page, perfect, swap

from benchwright.model import CheckResult, Status
from benchwright.scoring import Rung
from benchwright.suites.vspro.checks import CheckSettings, build_table
from benchwright.suites.vspro.checks.tier_e import e_hard_mastery


@pytest.mark.parametrize(
    ("check", "field", "ms", "score", "rung"),
    [
        ("p_list_latency", "payments", 150.0, 1.0, "rung <=150 ms"),
        ("p_list_latency", "payments", 212.0, 0.75, "rung <=300 ms"),
        ("p_list_latency", "payments", 1300.0, 0.0, "beyond the last rung <=1200 ms"),
        ("p_buckets_latency", "buckets", 201.0, 0.75, "rung <=400 ms"),
        ("p_summary_latency", "summary", 601.0, 0.25, "rung <=1200 ms"),
    ],
)
def test_latency_rungs(check, field, ms, score, rung):
    row = grade_one(swap(perfect(), "idle_perf", **{field: latency("/x", ms)}), check)
    assert row.score == score
    assert row.detail.startswith(f"{score:g}: p95 {ms:g} ms ({rung}")


def test_latency_unmeasurable_is_zero_not_fast():
    lat = latency("/api/summary", 5.0)
    few = type(lat)(lat.path, lat.samples, lat.success_ms[:9], None)
    row = grade_one(swap(perfect(), "idle_perf", summary=few), "p_summary_latency")
    assert row.score == 0.0 and "9/20 requests" in row.detail


def test_k_p_tightens_only_the_top_rung():
    settings = CheckSettings(k_p=1.5)
    obs = swap(perfect(), "idle_perf", payments=latency("/x", 120.0))
    row = grade_one(obs, "p_list_latency", settings)
    assert row.score == 0.75 and "top rung <=100 ms" in row.detail


def test_sync_wall_rungs_and_failure():
    slow = jr({"total": 1553}, elapsed=100.0)
    row = grade_one(swap(perfect(), "idle_perf", sync=slow), "p_sync_wall")
    assert row.detail == "0.75: 100 s (rung <=135 s; top rung <=90 s)"
    dead = jr(None, 500, raw=b"boom")
    assert grade_one(swap(perfect(), "idle_perf", sync=dead), "p_sync_wall").score == 0.0


def test_under_load_refuses_unproven_load():
    row = grade_one(swap(perfect(), "under_load", load=load(overlap=0.4)), "e_under_load_latency")
    assert row.status is Status.UNAVAILABLE and "40%" in row.detail


def test_under_load_any_wrong_read_is_zero():
    short = load(body=page(ROWS[:49]))
    row = grade_one(swap(perfect(), "under_load", load=short), "e_under_load_latency")
    assert row.score == 0.0 and row.detail.startswith("0: 48/48 reads wrong under load")


def test_under_load_rungs():
    row = grade_one(swap(perfect(), "under_load", load=load(ms=250.0)), "e_under_load_latency")
    assert row.detail == "0.75: p95 250 ms (rung <=300 ms; top rung <=150 ms); overlap 100%"


def test_thresholds_ladders_override_the_defaults():
    settings = CheckSettings(
        ladders=dict(CheckSettings().ladders)
        | {"e_under_load_latency": (Rung(100, 1.0), Rung(200, 0.5))}
    )
    obs = swap(perfect(), "under_load", load=load(ms=150.0))
    assert grade_one(obs, "e_under_load_latency", settings).score == 0.5


def rows(*scores, status=Status.FAIL):
    ids = (
        "h_conflict_dance",
        "h_durability",
        "h_sync_discipline",
        "h_webhook_ledger",
        "request_efficiency",
    )
    return {i: CheckResult(i, status, s, "") for i, s in zip(ids, scores, strict=False)}


def test_hard_mastery_cliff_at_point_nine():
    assert e_hard_mastery(rows(1, 1, 1, 1, 0.5)).score == 1.0  # mean 0.9
    below = e_hard_mastery(rows(1, 1, 1, 1, 0.45))
    assert below.score == pytest.approx(0.89 / 0.9 * 0.5, abs=1e-5)
    assert "below the 0.90 cliff" in below.detail


def test_hard_mastery_without_measured_rows_is_unavailable():
    assert e_hard_mastery(rows(0, 0, status=Status.UNAVAILABLE)).status is Status.UNAVAILABLE
    assert e_hard_mastery({}).status is Status.UNAVAILABLE


def test_hard_mastery_is_derived_from_the_evaluated_rows():
    found = {r.check_id: r for r in build_table().evaluate(perfect(), CheckSettings())}
    assert found["e_hard_mastery"].detail == "1: HARD mean 1.0000 over 5 rows (rung >=0.90)"
