"""Evaluating checks: each independently, and a harness fault never reads as a pass."""

from __future__ import annotations

import sys
import time

import pytest
from builders import make_task, make_trajectory, write

from benchwright.checks import CheckParams, CheckRegistry, check
from benchwright.execution import evaluate, run_task
from benchwright.model import CheckResult, ReplayError, RunResult, Status
from benchwright.workspace import Workspace


class NoParams(CheckParams):
    pass


@check("boom", params=NoParams)
def boom(p, ctx):
    raise RuntimeError("the probe fell over")


@check("long_boom", params=NoParams)
def long_boom(p, ctx):
    raise ValueError("x" * 2000)


@check("exits", params=NoParams)
def exits(p, ctx):
    sys.exit(2)


@check("interrupted", params=NoParams)
def interrupted(p, ctx):
    raise KeyboardInterrupt


@check("silent", params=NoParams)
def silent(p, ctx):
    return None


@check("truthy", params=NoParams)
def truthy(p, ctx):
    return True


@check("impostor", params=NoParams)
def impostor(p, ctx):
    return CheckResult.passing("someone_else", "looks fine")


@check("fine", params=NoParams)
def fine(p, ctx):
    time.sleep(0.01)
    return ctx.passed("fine")


@pytest.fixture
def reg(registry: CheckRegistry) -> CheckRegistry:
    for fn in (boom, long_boom, exits, interrupted, silent, truthy, impostor, fine):
        registry.register(fn)
    return registry


def grade(reg, *checks, capabilities=(), steps=()):
    task = make_task(list(checks), registry=reg)
    ws = Workspace(task.files)
    try:
        return evaluate(task, ws, make_trajectory(*steps), registry=reg, capabilities=capabilities)
    finally:
        ws.cleanup()


def test_a_check_that_raises_is_infra_with_its_traceback(reg):
    (result,) = grade(reg, {"type": "boom"})
    assert result.status is Status.INFRA and result.score == 0.0 and not result.passed
    assert result.detail == "check crashed: RuntimeError: the probe fell over"
    trace = result.evidence["traceback"]
    assert trace.startswith("Traceback") and "in boom" in trace
    assert trace.rstrip().endswith("RuntimeError: the probe fell over")


def test_a_crash_detail_is_bounded(reg):
    (result,) = grade(reg, {"type": "long_boom"})
    assert len(result.detail) == 500 and result.detail.startswith("check crashed: ValueError: x")


def test_a_check_calling_sys_exit_is_infra_not_the_end_of_the_run(reg):
    first, second = grade(reg, {"type": "exits"}, {"type": "fine"})
    assert first.status is Status.INFRA and first.detail == "check crashed: SystemExit: 2"
    assert second.passed


def test_ctrl_c_inside_a_check_still_stops_the_run(reg):
    with pytest.raises(KeyboardInterrupt):
        grade(reg, {"type": "interrupted"})


def test_returning_none_is_fail(reg):
    (result,) = grade(reg, {"type": "silent"})
    assert result.status is Status.FAIL and result.score == 0.0
    assert result.detail == "check produced no result (returned NoneType)"


def test_returning_something_else_is_fail_too(reg):
    (result,) = grade(reg, {"type": "truthy"})
    assert result.status is Status.FAIL and result.detail.endswith("(returned bool)")


def test_a_result_for_another_check_is_infra(reg):
    (result,) = grade(reg, {"type": "impostor"})
    assert result.status is Status.INFRA and result.check_id == "impostor"
    assert result.detail == "check returned a result for 'someone_else'"


def test_a_missing_capability_is_skipped_without_running(reg):
    (result,) = grade(reg, {"type": "boom", "requires": ["docker"]})
    assert result.status is Status.SKIPPED and result.score == 0.0
    assert result.detail == "needs docker, not available on this machine"


def test_only_the_missing_capabilities_are_named(reg):
    (result,) = grade(
        reg, {"type": "fine", "requires": ["docker", "browser", "gpu"]}, capabilities=["browser"]
    )
    assert result.detail == "needs docker, gpu, not available on this machine"


def test_a_present_capability_lets_the_check_run(reg):
    (result,) = grade(reg, {"type": "fine", "requires": ["docker"]}, capabilities={"docker"})
    assert result.passed


def test_one_crash_does_not_stop_the_others_and_order_is_kept(reg):
    results = grade(
        reg,
        {"type": "fine", "id": "a"},
        {"type": "boom", "id": "b"},
        {"type": "silent", "id": "c"},
        {"type": "impostor", "id": "d"},
        {"type": "fine", "id": "e", "requires": ["docker"]},
        {"type": "fine", "id": "f"},
    )
    assert [(r.check_id, r.status) for r in results] == [
        ("a", Status.PASS),
        ("b", Status.INFRA),
        ("c", Status.FAIL),
        ("d", Status.INFRA),
        ("e", Status.SKIPPED),
        ("f", Status.PASS),
    ]


def test_results_carry_their_duration(reg):
    (result,) = grade(reg, {"type": "fine"})
    assert result.duration_s >= 0.01


def test_the_default_registry_holds_the_builtins():
    task = make_task([{"type": "file_exists", "path": "README.md"}])
    (result,) = evaluate(task, Workspace(task.files), make_trajectory())
    assert result.passed


def test_a_harness_error_from_the_workspace_is_infra(reg, monkeypatch):
    import benchwright.workspace._workspace as workspace_module

    def no_temp(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(workspace_module.tempfile, "mkdtemp", no_temp)
    (result,) = grade(reg, {"type": "test_must_pass", "command": "true"})
    assert result.status is Status.INFRA
    assert result.detail.startswith("check crashed: HarnessError: cannot materialize workspace:")


# -- RunResult --------------------------------------------------------------------------


def test_a_replay_error_fails_the_run_even_when_every_check_passes(registry):
    task = make_task([{"type": "file_exists", "path": "README.md"}], registry=registry)
    bad_edit = {
        "tool": "Edit",
        "args": {"path": "README.md", "old_string": "zzz", "new_string": ""},
    }
    run = run_task(task, make_trajectory(bad_edit), registry=registry)
    assert all(r.passed for r in run.results)
    assert run.replay_errors == (
        ReplayError(0, "Edit", "README.md", "old_string not found in current content"),
    )
    assert not run.passed


def test_a_clean_replay_with_passing_checks_passes(registry):
    task = make_task([{"type": "file_exists", "path": "out.txt"}], registry=registry)
    assert run_task(task, make_trajectory(write("Write", "out.txt", "x")), registry=registry).passed


@pytest.mark.parametrize(
    ("statuses", "passed", "harness_failed"),
    [
        ([Status.PASS, Status.PASS], True, False),
        ([Status.PASS, Status.FAIL], False, False),
        ([Status.PASS, Status.SKIPPED], False, False),
        ([Status.PASS, Status.NOT_ATTEMPTED], False, False),
        ([Status.PASS, Status.UNAVAILABLE], False, False),
        ([Status.PASS, Status.INFRA], False, True),
        ([], False, False),
    ],
)
def test_run_result_passes_only_when_every_check_passed(statuses, passed, harness_failed):
    results = tuple(CheckResult(f"c{n}", s, 0.0, "") for n, s in enumerate(statuses))
    run = RunResult("t", results)
    assert (run.passed, run.harness_failed) == (passed, harness_failed)


def test_check_result_refuses_a_score_outside_0_1():
    with pytest.raises(ValueError, match=r"c: score 1.5 outside \[0, 1\]"):
        CheckResult("c", Status.PASS, 1.5, "")
    with pytest.raises(ValueError):
        CheckResult("c", Status.PASS, float("nan"), "")
