"""The summary's arithmetic: verdicts over iterations, denominators, percentiles, versions."""

from __future__ import annotations

import pytest

from benchwright.errors import SpecError
from benchwright.execution import TrialResult, compare_summaries, summarize
from benchwright.execution.records import PhaseRecord
from benchwright.execution.summary import percentile, task_verdict

from .minisuites import minisuite


@pytest.mark.parametrize(
    ("tier", "verdicts", "expected"),
    [
        ("correctness", ["passed", "passed"], "passed"),
        ("correctness", ["passed", "failed"], "failed"),
        ("correctness", ["passed", "errored"], "errored"),
        ("correctness", ["passed"], "not_attempted"),
        ("latency", ["completed", "completed"], "completed"),
        ("latency", ["completed", "errored"], "errored"),
    ],
)
def test_task_verdict_over_two_iterations(tier, verdicts, expected):
    assert task_verdict(tier, verdicts, 2) == expected


def test_nearest_rank_percentiles():
    samples = [float(n) for n in range(1, 21)]
    assert (percentile(samples, 50), percentile(samples, 95)) == (10.0, 19.0)
    assert percentile([], 50) is None


def _result(task_id: str, verdict: str, seconds: float = 1.0, timed_out: bool = False):
    phase = PhaseRecord("main", 0, seconds, 30, timed_out, None)
    suite = minisuite()
    task = suite.task(task_id)
    return TrialResult(task_id, task.task_class, suite.tiers[task_id], 1, "a", verdict,
                       phases=(phase,))  # fmt: skip


def test_errored_tasks_stay_in_the_denominator_and_unfinished_agents_are_no_latency_sample():
    results = {
        ("nav-count", 1): _result("nav-count", "passed", 2.0),
        ("fix-double", 1): _result("fix-double", "errored", 30.0, timed_out=True),
        ("edit-rename", 1): _result("edit-rename", "failed", 4.0),
        ("longctx-summary", 1): _result("longctx-summary", "completed", 8.0),
    }
    ids = [*(k[0] for k in results), "phased-plan"]
    summary = summarize(minisuite(), ids, results, iterations=1, run_id="r", agent="a",
                        complete=False)  # fmt: skip
    assert summary["tiers"]["correctness"] == {
        "tasks": 4, "attempted": 3, "errored": 1, "verified": 2, "passed": 1}  # fmt: skip
    assert summary["correctness_pass_rate"] == round(1 / 3, 6)
    assert summary["tasks"]["phased-plan"]["verdict"] == "not_attempted"
    assert summary["classes"]["fix"]["latency_s"] == {
        "samples": 0, "p50": None, "p95": None, "max": None}  # fmt: skip
    assert summary["classes"]["longctx"]["latency_s"]["p50"] == 8.0
    assert summary["latency_only_tasks"] == 1


def test_summaries_of_different_schema_versions_are_not_compared():
    a = {"schema_version": 1, "correctness_pass_rate": 0.5, "build_pass_rate": None}
    b = {**a, "correctness_pass_rate": 0.75}
    assert compare_summaries(a, b)["correctness_pass_rate"]["delta"] == 0.25
    with pytest.raises(SpecError, match="schema_version 1 vs 2: the pass rates mean different"):
        compare_summaries(a, {**b, "schema_version": 2})
