"""A timing row on a contended host: a top rung stands, a shortfall proves nothing."""

from __future__ import annotations

import pytest

from benchwright.model import CheckResult, Status
from benchwright.probes.host import HostState
from benchwright.scoring.contention import judge_timed

QUIET = HostState(3.0, 2, 0.02, 0.0, 0.1, 0.4)
BUSY = HostState(3.0, 2, 0.63, 0.0, 0.9, 5.2, attempts=3)


def row(score: float, timing: float | None, detail: str = "as measured") -> CheckResult:
    evidence = {} if timing is None else {"timing_score": timing}
    status = Status.PASS if score >= 1 else Status.FAIL
    return CheckResult("p_page_interactive", status, score, detail, evidence)


def test_a_shortfall_on_a_contended_host_is_unavailable_with_the_reason() -> None:
    judged = judge_timed(row(0.75, 0.75, "0.75: first visible row 2159.9 ms"), BUSY)
    assert judged.status is Status.UNAVAILABLE and judged.score == 0.0
    assert judged.detail.startswith("host contended: other processes took 63% of 2 CPUs")
    assert "least contended of 3 attempts" in judged.detail
    assert "as measured: 0.75: first visible row 2159.9 ms" in judged.detail
    assert judged.evidence["contended_score"] == 0.75
    assert judged.evidence["host"]["contended"] is True


def test_the_same_shortfall_on_a_quiet_host_is_the_apps() -> None:
    judged = judge_timed(row(0.75, 0.75), QUIET)
    assert judged.status is Status.FAIL and judged.score == 0.75
    assert judged.evidence["host"]["foreign_share"] == 0.02
    assert judged.detail == "as measured"


def test_a_top_rung_earned_on_a_contended_host_stands_and_says_so() -> None:
    judged = judge_timed(row(1.0, 1.0, "1: first visible row 518 ms"), BUSY)
    assert judged.status is Status.PASS and judged.score == 1.0
    assert "[top rung earned on a contended host: other processes took 63%" in judged.detail


@pytest.mark.parametrize("timing", [None, 1.0])
def test_a_loss_that_timing_did_not_decide_stands_on_a_contended_host(
    timing: float | None,
) -> None:
    """A wrong total (timing at the top) or a row with no timing part is the app's."""
    judged = judge_timed(row(0.0, timing, "0: claimed total 12 vs 1553"), BUSY)
    assert judged.status is Status.FAIL and judged.score == 0.0
    assert "0: claimed total 12 vs 1553" in judged.detail


def test_a_row_its_other_parts_capped_stands_on_a_contended_host() -> None:
    """j_first_use with a console error: 0.6 whatever the paint time, so a busy host that
    slowed the paint to 0.75 of the top rung decided nothing; a row whose timing part is
    below its cap still proves nothing."""
    capped = row(0.6, 0.75, "0.6: 2 console errors")
    capped = CheckResult(capped.check_id, capped.status, 0.6, capped.detail,
                         {**capped.evidence, "score_at_top_timing": 0.6})  # fmt: skip
    judged = judge_timed(capped, BUSY)
    assert judged.status is Status.FAIL and judged.score == 0.6
    assert "[decided by its other parts" in judged.detail
    below = CheckResult(capped.check_id, Status.FAIL, 0.3, "0.3: first data 5 s",
                        {"timing_score": 0.3, "score_at_top_timing": 0.6})  # fmt: skip
    assert judge_timed(below, BUSY).status is Status.UNAVAILABLE


def test_rows_that_judged_nothing_and_unobserved_hosts_pass_through() -> None:
    refused = CheckResult("p_first_frame", Status.UNAVAILABLE, 0.0, "viz probe unavailable")
    assert judge_timed(refused, BUSY) is refused
    measured = row(0.5, 0.5)
    assert judge_timed(measured, None) is measured
    unknown = HostState(0.0, 2, None, None, None, None)
    assert judge_timed(measured, unknown).status is Status.FAIL


def test_a_host_contended_gate_condition_is_left_out_of_the_gate_not_failed() -> None:
    """sb-6: a P row the host left unproven neither unlocks nor locks an excellence share,
    so the score does not move; any other unmeasured condition still fails honestly."""
    from pathlib import Path

    from benchwright.scoring import compose, load_scorer

    scorer = load_scorer(Path(__file__).parents[2] / "scorers" / "sb6.yaml")
    perfect = [CheckResult(c, Status.PASS, 1.0, "1") for c in scorer.wanted]

    def with_row(check_id: str, status: Status, detail: str) -> list[CheckResult]:
        return [r if r.check_id != check_id else CheckResult(check_id, status, 0.0, detail)
                for r in perfect]  # fmt: skip

    contended = compose(with_row("p_page_interactive", Status.UNAVAILABLE,
                                 "host contended: other processes took 63%"), scorer)  # fmt: skip
    assert contended.score == compose(perfect, scorer).score == 1.0
    (left_out,) = [c for c in contended.excellence.conditions if c.excluded]
    assert "p_page_interactive" in left_out.name and not left_out.met
    assert contended.flags.excellent is False  # an unavailable row still costs the flag
    lost = compose(with_row("p_page_interactive", Status.UNAVAILABLE,
                            "browser unavailable: no Chromium"), scorer)  # fmt: skip
    assert lost.score < 1.0 and not [c for c in lost.excellence.conditions if c.excluded]
    bound = compose(with_row("p_page_interactive", Status.UNAVAILABLE,
                             "host-bound: the frozen reference's worst here is 2100 ms"),
                    scorer)  # fmt: skip
    assert bound.score == 1.0 and [c.detail for c in bound.excellence.conditions if c.excluded]


def test_a_host_bound_row_keeps_its_top_rung_and_is_unavailable_below_it() -> None:
    """The calibration host could not reach the top rung (its reference's own worst is
    over it): the top rung still stands, anything less proves nothing about the app, and
    a row with no timing part (a batch that never applied) stands as measured."""
    from benchwright.scoring.contention import host_bound

    assert host_bound(row(1.0, 1.0), 174.0, "ms").status is Status.PASS
    below = host_bound(row(0.75, 0.75, "0.75: median apply 150 ms"), 174.0, "ms")
    assert below.status is Status.UNAVAILABLE and below.score == 0.0
    assert below.detail.startswith("host-bound: the frozen reference's worst here is 174 ms")
    assert below.detail.endswith("(as measured: 0.75: median apply 150 ms)")
    assert below.evidence["reference_worst"] == 174.0
    assert host_bound(row(0.0, None, "0: never applied"), 174.0, "ms").status is Status.FAIL
