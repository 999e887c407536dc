"""pass@k, pass@1 and the mean score: the estimator's properties, a trial's score, pooling,
and the summary's per-trial figures beside its strict every-iteration counts."""

from __future__ import annotations

from dataclasses import replace
from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchwright.execution import TrialResult, summarize
from benchwright.execution.pass_at_k import (
    TrialOutcome,
    figures_text,
    outcome_of,
    pass_at_k,
    pooled_figures,
    task_figures,
    trial_score,
)
from benchwright.execution.run_display import per_trial_lines, task_line
from benchwright.model import CheckResult, CheckSpec, Status

from .minisuites import minisuite


@st.composite
def trials(draw: st.DrawFn) -> tuple[int, int]:
    n = draw(st.integers(1, 60))
    return n, draw(st.integers(0, n))


@given(trials())
def test_pass_at_1_is_the_fraction_of_trials_passed(nc):
    n, c = nc
    assert pass_at_k(n, c, 1) == pytest.approx(c / n, abs=1e-15)


@given(trials())
def test_pass_at_k_never_falls_as_k_grows(nc):
    n, c = nc
    values = [pass_at_k(n, c, k) for k in range(1, n + 1)]
    assert values == sorted(values)
    assert all(0.0 <= v <= 1.0 for v in values)


@given(trials(), st.data())
def test_pass_at_k_is_one_when_fewer_than_k_trials_failed(nc, data):
    n, c = nc
    k = data.draw(st.integers(1, n))
    assert (pass_at_k(n, c, k) == 1.0) == (n - c < k)


@given(st.integers(1, 60), st.data())
def test_pass_at_k_is_zero_without_a_pass(n, data):
    assert pass_at_k(n, 0, data.draw(st.integers(1, n))) == 0.0


@given(trials(), st.data())
def test_pass_at_k_is_the_chance_that_k_of_the_trials_hold_a_pass(nc, data):
    """The estimator against its definition, counted: subsets of size k with a pass."""
    n, c = nc
    k = data.draw(st.integers(1, min(n, 12)))
    with_a_pass = comb(n, k) - comb(n - c, k)
    assert pass_at_k(n, c, k) == pytest.approx(with_a_pass / comb(n, k), rel=1e-12)


@pytest.mark.parametrize(("n", "c", "k"), [(3, 4, 1), (3, -1, 1), (3, 1, 0), (3, 1, 4), (0, 0, 1)])
def test_pass_at_k_refuses_impossible_counts(n, c, k):
    with pytest.raises(ValueError, match=f"n={n}, c={c}, k={k}"):
        pass_at_k(n, c, k)


def test_one_pass_in_three_trials_is_pass_at_1_a_third_and_pass_at_3_one():
    outcomes = [TrialOutcome(False, False, 0.5), TrialOutcome(True, False, 1.0),
                TrialOutcome(False, False, 0.0)]  # fmt: skip
    figures = task_figures(outcomes, 3)
    assert figures == {"trials": 3, "passed": 1, "errored": 0,
                       "pass_at_k": {"1": 0.333333, "2": 0.666667, "3": 1.0},
                       "mean_score": 0.5}  # fmt: skip


def test_an_errored_trial_stays_in_n_as_a_trial_that_did_not_pass_and_scored_0():
    suite = minisuite()
    task = suite.task("nav-count")
    full = (CheckResult.passing("c", "ok"),)
    outcomes = [outcome_of(task, "passed", full), outcome_of(task, "errored", full)]
    assert outcomes[1] == TrialOutcome(passed=False, errored=True, score=0.0)
    figures = task_figures(outcomes, 2)
    assert (figures["trials"], figures["errored"]) == (2, 1)
    assert figures["pass_at_k"] == {"1": 0.5, "2": 1.0}
    assert figures["mean_score"] == 0.5


def test_a_trial_scores_its_executed_app_check_when_the_task_has_one():
    task = minisuite().task("nav-count")
    checks = (CheckResult("app", Status.FAIL, 0.82, "scorecard 0.82"),
              CheckResult("guard", Status.PASS, 1.0, "ok"))  # fmt: skip
    assert trial_score(task, checks, errored=False) == pytest.approx(0.91)  # no such check: mean
    built = replace(task, checks=(CheckSpec("app", "executed_app", task.checks[0].params),))
    assert trial_score(built, checks, errored=False) == 0.82
    assert trial_score(built, (), errored=False) == 0.0


def test_pooled_figures_weigh_every_task_the_same():
    strong = task_figures([TrialOutcome(True, False, 1.0)] * 4, 4)
    weak = task_figures([TrialOutcome(False, False, 0.25)] * 3 + [TrialOutcome(True, True, 0)], 4)
    pooled = pooled_figures([strong, weak])
    assert pooled == {"tasks": 2, "trials": 8, "passed": 5, "errored": 1,
                      "pass_at_k": {"1": 0.625, "2": 0.75, "3": 0.875, "4": 1.0},
                      "mean_score": 0.59375}  # fmt: skip
    assert pooled_figures([]) is None


def _result(task_id: str, iteration: int, verdict: str, *scores: float) -> TrialResult:
    suite = minisuite()
    checks = tuple(
        CheckResult(f"c{n}", Status.PASS if s == 1.0 else Status.FAIL, s, "-")
        for n, s in enumerate(scores)
    )
    return TrialResult(task_id, suite.task(task_id).task_class, suite.tiers[task_id], iteration,
                       "a", verdict, checks=checks)  # fmt: skip


def test_the_summary_reports_per_trial_figures_beside_the_every_iteration_count():
    results = {
        ("nav-count", 1): _result("nav-count", 1, "failed", 1.0, 0.0),
        ("nav-count", 2): _result("nav-count", 2, "passed", 1.0, 1.0),
        ("nav-count", 3): _result("nav-count", 3, "failed", 0.0, 0.0),
        ("fix-double", 1): _result("fix-double", 1, "passed", 1.0),
        ("fix-double", 2): _result("fix-double", 2, "errored"),
        ("longctx-summary", 1): _result("longctx-summary", 1, "completed"),
    }
    ids = ["nav-count", "fix-double", "longctx-summary"]
    summary = summarize(minisuite(), ids, results, iterations=3, run_id="r", agent="a",
                        complete=False)  # fmt: skip
    nav = summary["tasks"]["nav-count"]
    assert nav["verdict"] == "failed"  # the strict count: not every iteration passed
    assert nav["per_trial"] == {"trials": 3, "passed": 1, "errored": 0,
                                "pass_at_k": {"1": 0.333333, "2": 0.666667, "3": 1.0},
                                "mean_score": 0.5}  # fmt: skip
    # fix-double has 2 of 3 trials: its own figures go as far as it can, but an
    # unattempted task enters no pooled figure, as it enters no pass rate.
    fix = summary["tasks"]["fix-double"]
    assert fix["verdict"] == "not_attempted"
    assert fix["per_trial"]["pass_at_k"] == {"1": 0.5, "2": 1.0}
    assert summary["classes"]["fix"]["per_trial"] is None
    assert summary["classes"]["nav"]["per_trial"]["pass_at_k"]["3"] == 1.0
    assert summary["per_trial"]["correctness"] == {**nav["per_trial"], "tasks": 1}
    assert summary["per_trial"]["build"] is None
    assert summary["tasks"]["longctx-summary"]["per_trial"] is None
    assert summary["classes"]["longctx"]["per_trial"] is None
    assert "latency" not in summary["per_trial"]


@pytest.mark.parametrize(
    ("hostile", "shown"),
    [({"per_trial": "x", "iterations": "3"}, []),
     ({"per_trial": {"correctness": []}, "iterations": True}, []),
     ({"per_trial": {"correctness": {"pass_at_k": [1], "mean_score": "1", "trials": 2.5}},
       "iterations": 3},
      ["correctness per trial: pass@1 -, pass@3 -, mean score ? (? trial(s), ? errored)"])],
)  # fmt: skip
def test_an_unverified_summary_holding_anything_is_shown_without_crashing(hostile, shown):
    """A summary that is not verified is shown for what it says; a forged shape prints
    ``?`` where a figure is not a number, and never stops ``runs show`` or the viewer."""
    assert per_trial_lines({"tiers": {}, **hostile}) == shown
    task = {"tier": "correctness", "iterations": ["passed"], "per_trial": hostile["per_trial"]}
    assert task_line(hostile, task).startswith("correctness; passed")


def test_figures_text_prints_what_is_a_number_and_marks_what_is_not():
    figures = {"pass_at_k": {"1": 0.5, "3": "1"}, "mean_score": None, "trials": 3,
               "errored": False}  # fmt: skip
    assert figures_text(figures, ("1", "3")) == (
        "pass@1 0.50, pass@3 ?, mean score - (3 trial(s), ? errored)"
    )
