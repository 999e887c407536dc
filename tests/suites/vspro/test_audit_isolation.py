"""Isolated scores and the host-contended re-grade: what the severity order judges is what
a control's defect costs by itself, composed with the suite's real scorer (sb-6) from
synthetic rows, so every figure is exact and nothing is graded."""

from pathlib import Path

import pytest

from benchwright.model import CheckResult, Scorecard, Status
from benchwright.scoring import compose, defect_rows, load_scorer
from benchwright.suites.audit import (
    Auditor,
    AuditResult,
    Control,
    audit_lines,
    isolated_score,
    judge,
)

REPO = Path(__file__).parents[3]
SUITE = REPO / "suites" / "vspro"
SCORER = load_scorer(REPO / "scorers" / "sb6.yaml")
GOLDEN = compose(defect_rows(SCORER, {}), SCORER)
NOISE = {"p_first_frame": 0.75, "j_first_use": 0.75, "p_page_interactive": 0.75}
"""A busy host's slow first paint: rows no control below targets."""


def control(targets: tuple[str, ...], severity: str = "minor", critical: bool = False) -> Control:
    return Control("c", "d", targets, ("browser",), critical, severity, None)


def card(**scores: float) -> Scorecard:
    return compose(defect_rows(SCORER, scores), SCORER)


def test_the_isolated_score_takes_only_the_targets_from_the_control():
    noisy = card(v_currency_rendered=0.65, **NOISE)
    isolated = isolated_score(control(("v_currency_rendered",)), GOLDEN, noisy, SCORER)
    assert isolated == card(v_currency_rendered=0.65).score == 0.9965
    assert noisy.score < 0.98  # the full score carries the noise; the isolated one does not


def test_the_isolated_score_recomputes_the_critical_factors_its_targets_drive():
    defect = card(b_summary_currency=0.0, **NOISE)
    isolated = isolated_score(control(("b_summary_currency",), "critical", True), GOLDEN,
                              defect, SCORER)  # fmt: skip
    alone = card(b_summary_currency=0.0)
    assert [f.factor for f in alone.factors if f.applied] == [0.6]
    assert isolated == alone.score < 0.6


def test_an_inert_control_is_isolated_as_its_whole_card():
    dead = card(**{check: 0.0 for check in SCORER.wanted})
    assert isolated_score(control(("server_runs",), "inert"), GOLDEN, dead, SCORER) == dead.score
    targets_only = isolated_score(control(("server_runs",), "major"), GOLDEN, dead, SCORER)
    assert targets_only > 0.5 > dead.score  # why inert takes every row: nothing ran


def test_a_missing_target_row_stays_a_fail_in_the_isolated_score():
    rows = [r for r in defect_rows(SCORER, {}) if r.check_id != "v_filter"]
    missing = compose(rows, SCORER)
    assert missing.row("v_filter").missing
    assert isolated_score(control(("v_filter",)), GOLDEN, missing, SCORER) == missing.score < 1


def test_judge_reports_both_scores_and_checks_the_isolated_one_against_the_golden():
    verdict = judge(control(("v_currency_rendered",)), GOLDEN,
                    card(v_currency_rendered=0.65, **NOISE), SCORER)  # fmt: skip
    assert verdict.passed and verdict.isolated == 0.9965 and verdict.score < 0.98
    diagnostic = judge(control(("resync_idempotent",)), GOLDEN, card(resync_idempotent=0.0,
                       **NOISE), SCORER)  # fmt: skip
    assert diagnostic.problems == ("isolated score 1.0000 is not below the golden's 1.0000",)


def test_a_report_only_control_must_flip_its_diagnostic_and_leave_the_score():
    """innerHTML-rendered names: a weight-zero row drops, the isolated score stays."""
    flips = judge(control(("x_name_injection",), "report-only"), GOLDEN,
                  card(x_name_injection=0.0, **NOISE), SCORER)  # fmt: skip
    assert flips.passed and flips.isolated == GOLDEN.score, flips.problems
    costs = judge(control(("x_name_injection", "v_filter"), "report-only"), GOLDEN,
                  card(x_name_injection=0.0, v_filter=0.2), SCORER)  # fmt: skip
    moved = f"isolated score {costs.isolated:.4f} moved from the golden's 1.0000"
    assert costs.problems == (f"{moved}: a report-only control must leave the score untouched",)
    inert = judge(control(("x_name_injection",), "report-only"), GOLDEN, GOLDEN, SCORER)
    assert inert.problems == ("x_name_injection did not drop (1.0000, golden 1.0000)",)


class CannedAuditor(Auditor):
    """The real suite's Auditor whose gradings return prepared scorecards, in order."""

    def __init__(self, *cards: Scorecard) -> None:
        super().__init__(str(SUITE))
        self.cards, self.graded, self.retakes = list(cards), 0, []

    def card(
        self, tree: Path, phases: tuple[str, ...] | None, *, retake: bool = True
    ) -> tuple[Scorecard, float]:
        if phases is None and tree == self.golden_dir:
            return GOLDEN, 1.0
        self.graded += 1
        self.retakes.append(retake)
        return self.cards.pop(0), 2.0


def unavailable(check: str, detail: str) -> Scorecard:
    rows = [r for r in defect_rows(SCORER, {}) if r.check_id != check]
    return compose([*rows, CheckResult(check, Status.UNAVAILABLE, 0.0, detail)], SCORER)


CONTENDED = "host contended: other processes took 63% of 2 CPUs over 3.40 s (bound 25%)"
EMPTY_TREE = Control("slow", "d", ("p_first_frame",), ("browser",), False, "minor", None)


def test_a_target_unavailable_on_a_contended_host_is_graded_once_more():
    auditor = CannedAuditor(unavailable("p_first_frame", CONTENDED), card(p_first_frame=0.5))
    verdict = auditor.check(EMPTY_TREE, quick=False)
    assert auditor.graded == 2 and verdict.regraded == ("p_first_frame",)
    assert auditor.retakes == [False, True]  # retakes only once a target needs them
    assert verdict.passed and verdict.seconds == 4.0
    assert verdict.targets[0].control == 0.5
    lines = audit_lines(AuditResult("s", 1.0, 1.0, (verdict,), False))
    assert (
        f"{' ' * 61}re-graded once: p_first_frame UNAVAILABLE (host contended) in the first "
        "grading" in lines
    )


def test_the_re_grade_is_bounded_to_once_and_a_still_contended_target_fails_named():
    auditor = CannedAuditor(*[unavailable("p_first_frame", CONTENDED)] * 3)
    verdict = auditor.check(EMPTY_TREE, quick=False)
    assert auditor.graded == 2 and verdict.regraded == ("p_first_frame",)
    assert verdict.problems[0] == f"p_first_frame was not measured (UNAVAILABLE: {CONTENDED})"


@pytest.mark.parametrize("detail", ["browser check not implemented", "probe: host contended"])
def test_an_unavailable_target_for_another_reason_is_not_re_graded(detail):
    auditor = CannedAuditor(unavailable("p_first_frame", detail), card(p_first_frame=0.5))
    verdict = auditor.check(EMPTY_TREE, quick=False)
    assert auditor.graded == 1 and verdict.regraded == () and auditor.retakes == [False]
    assert verdict.problems[0] == f"p_first_frame was not measured (UNAVAILABLE: {detail})"
