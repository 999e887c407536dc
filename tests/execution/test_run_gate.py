"""A gate keeps every finished result when it is interrupted or the harness crashes."""

from __future__ import annotations

import pytest
from builders import make_task, make_trajectory

from benchwright.checks import CheckParams, CheckRegistry, check
from benchwright.execution import run_gate


class NoParams(CheckParams):
    pass


@check("ok", params=NoParams)
def ok(p, ctx):
    return ctx.passed("fine")


@check("ctrl_c", params=NoParams)
def ctrl_c(p, ctx):
    raise KeyboardInterrupt


@pytest.fixture
def reg(registry: CheckRegistry) -> CheckRegistry:
    registry.register(ok)
    registry.register(ctrl_c)
    return registry


def _pairs(reg: CheckRegistry, *types: str):
    empty = make_trajectory()
    return [
        (make_task([{"type": kind}], id=f"t{n}", registry=reg), empty)
        for n, kind in enumerate(types)
    ]


def test_an_interrupted_gate_returns_what_finished_marked_incomplete(reg):
    seen = []
    gate = run_gate(_pairs(reg, "ok", "ctrl_c", "ok"), registry=reg, on_result=seen.append)
    assert [run.task_id for run in gate.runs] == ["t0"] == [run.task_id for run in seen]
    assert gate.runs[0].passed
    assert not gate.complete and not gate.passed and gate.harness_failed
    assert gate.error == "interrupted after 1 of 3 task(s)"


def test_a_harness_crash_between_tasks_keeps_earlier_results(reg):
    def crash_on_second(run):
        if run.task_id == "t1":
            raise OSError("disk full")

    gate = run_gate(_pairs(reg, "ok", "ok", "ok"), registry=reg, on_result=crash_on_second)
    assert [run.task_id for run in gate.runs] == ["t0", "t1"]
    assert gate.error == "harness crashed after 2 of 3 task(s): OSError: disk full"
    assert not gate.passed


def test_a_complete_gate_passes_only_when_every_task_passed(reg):
    gate = run_gate(_pairs(reg, "ok", "ok"), registry=reg)
    assert gate.complete and gate.passed and gate.passed_count == 2
