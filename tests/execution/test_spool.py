"""Spooled runs: appended in completion order, read back in task order, equal to the originals."""

from __future__ import annotations

from benchwright.execution.spool import SpooledRuns
from benchwright.model import CheckResult, RunResult, Status


def _run(task_id: str, status: Status = Status.PASS) -> RunResult:
    row = CheckResult("c", status, 1.0 if status is Status.PASS else 0.0, "why", {"k": [1, 2]})
    return RunResult(task_id=task_id, results=(row,), trajectory="t.json", duration_s=0.5)


def test_runs_come_back_in_position_order_whatever_order_they_finished_in() -> None:
    spool = SpooledRuns()
    originals = {n: _run(f"t{n}", Status.FAIL if n == 2 else Status.PASS) for n in range(5)}
    for position in (3, 0, 4, 2, 1):
        spool.append(position, originals[position])
    assert len(spool) == 5
    assert list(spool) == [originals[n] for n in range(5)]
    assert spool[2] == originals[2] and not spool[2].passed
    assert spool[-1].task_id == "t4"
    assert [run.task_id for run in spool[1:3]] == ["t1", "t2"]
    spool.append(5, _run("t5"))  # appending after a read keeps the order
    assert [run.task_id for run in spool] == [f"t{n}" for n in range(6)]


def test_an_empty_spool_is_empty() -> None:
    assert list(SpooledRuns()) == [] and len(SpooledRuns()) == 0


def test_a_gate_over_a_spool_counts_without_reading_it_back() -> None:
    from benchwright.model import GateResult

    spool = SpooledRuns()
    statuses = [Status.PASS, Status.FAIL, Status.INFRA, Status.PASS]
    for n, status in enumerate(statuses):
        spool.append(n, _run(f"t{n}", status))
    assert spool.tally() == (2, 1)
    gate = GateResult(spool)
    tuple_gate = GateResult(tuple(spool))  # the same counts, counted by reading
    assert (gate.passed_count, gate.harness_failed, gate.passed) == (2, True, False)
    assert (tuple_gate.passed_count, tuple_gate.harness_failed, tuple_gate.passed) == (
        2,
        True,
        False,
    )
    clean = SpooledRuns()
    clean.append(0, _run("a"))
    assert GateResult(clean).passed and not GateResult(clean).harness_failed
