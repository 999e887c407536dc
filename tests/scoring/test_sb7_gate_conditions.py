"""sb-7's excellence gate as a card shows it: the 16 perfection conditions of §11, each
met or not (locked with its share, or excluded when a contended host left its timing row
unproven), on the verdict and on ``--all-rows``; and sb-7's own harness-side rows feeding
it through the contention rule."""

from __future__ import annotations

from typing import Any

from sb7_observations import perfect
from sb7_perf_records import BUSY, battery, with_perf

from benchwright.model import CheckResult, Scorecard, Status
from benchwright.reports.scorecard import verdict_lines
from benchwright.scoring import compose, perfect_rows
from benchwright.scoring.contention import HOST_CONTENDED
from benchwright.suites.sb7.checks import CheckSettings, build_table
from benchwright.suites.sb7.checks._timing import judge_timing
from benchwright.suites.sb7.observations import Observations
from scoring.conftest import shipped

SB7 = shipped("sb7")
CONDITIONS = (
    "j_first_use == 1", "j_workflow_journey == 1", "j_error_state == 1", "j_empty_state == 1",
    "console_clean", "v_responsive_375 >= 1", "v_dates_readable >= 1", "t_scene_binding >= 1",
    "x_conservation_residual >= 1", "r_no_row_loss >= 1", "p_drag_frames == 1",
    "p_idle_flatness == 1", "p_stream_apply == 1", "p_under_stream == 1", "p_api_latency == 1",
    "p_sync_wall == 1",
)  # fmt: skip
"""§11's list, in its order."""


def run(*changed: CheckResult) -> Scorecard:
    by_id = {r.check_id: r for r in changed}
    return compose([by_id.get(r.check_id, r) for r in perfect_rows(SB7)], SB7)


def row(check: str, score: float, status: Status | None = None, detail: str = "t") -> CheckResult:
    return CheckResult(check, status or (Status.PASS if score >= 1.0 else Status.FAIL), score,
                       detail)  # fmt: skip


def states(card: Scorecard) -> dict[str, tuple[bool, bool, float]]:
    """Condition -> (met, excluded, share)."""
    assert card.excellence is not None
    return {c.name: (c.met, c.excluded, c.share) for c in card.excellence.conditions}


def test_the_gate_names_the_sixteen_conditions_of_section_11_in_order() -> None:
    card = run()
    assert tuple(states(card)) == CONDITIONS
    assert all(met for met, _, _ in states(card).values())


def test_all_rows_shows_every_condition_met_or_not() -> None:
    contended = row("p_under_stream", 0.0, Status.UNAVAILABLE, f"{HOST_CONTENDED}load 9")
    card = run(row("p_api_latency", 0.75), row("j_workflow_journey", 5 / 7), contended)
    lines = verdict_lines(card, every_row=True)
    shown = [line for line in lines if line.startswith(("  met: ", "  locked: ", "  excluded: "))]
    assert len(shown) == 16
    assert [s.split(": ", 1)[1].split(" (share")[0] for s in shown] == list(CONDITIONS)
    assert "  locked: p_api_latency == 1 (share 0.7500; p_api_latency = 0.75)" in shown
    assert any(s.startswith("  locked: j_workflow_journey == 1 (share 0.7143") for s in shown)
    assert "  excluded: p_under_stream == 1 (share 0.0000; excluded: host contended)" in shown
    assert sum(s.startswith("  met: ") for s in shown) == 13
    assert "excellence gate (mean_share): 13/15 met (1 excluded: host contended)" in "\n".join(
        lines
    )


def test_the_short_verdict_lists_the_met_conditions_and_details_the_rest() -> None:
    card = run(row("p_sync_wall", 0.5), row("console_clean", 0.0))
    lines = verdict_lines(card)
    met = next(line for line in lines if line.startswith("  met (14): "))
    assert "p_sync_wall" not in met and "console_clean" not in met and "j_first_use" in met
    assert "  locked: p_sync_wall == 1 (share 0.5000; p_sync_wall = 0.5)" in lines
    assert any(line.startswith("  locked: console_clean (share 0.0000") for line in lines)


def test_an_unproven_condition_fails_honestly_rather_than_passing_vacuously() -> None:
    rows = [r for r in perfect_rows(SB7) if r.check_id != "console_clean"]
    card = compose(rows, SB7)
    assert states(card)["console_clean"] == (False, False, 0.0)
    lines = verdict_lines(card)
    assert any(line.startswith("  locked: console_clean (share 0.0000") for line in lines)
    assert "no row (counted FAIL): console_clean" in lines


def _graded(obs: Observations, check_id: str) -> CheckResult:
    found = build_table().evaluate_one(check_id, obs, CheckSettings())
    return judge_timing([found], obs)[0]


def test_a_contended_battery_is_excluded_from_the_gate_and_a_slow_one_locks_it() -> None:
    """sb-7's own p_api_latency row through the contention rule into the card: a busy
    host leaves the condition out of the gate; the same shortfall on a calm host locks it."""
    busy: Any = _graded(with_perf(perfect(), idle=battery(BUSY, buckets=900.0)), "p_api_latency")
    calm: Any = _graded(with_perf(perfect(), idle=battery(buckets=900.0)), "p_api_latency")
    assert busy.status is Status.UNAVAILABLE and calm.score == 0.25
    assert states(run(busy))["p_api_latency == 1"] == (False, True, 0.0)
    assert states(run(calm))["p_api_latency == 1"] == (False, False, 0.25)
    assert run(busy).excellence.gate_fraction == 1.0  # type: ignore[union-attr]
