"""The quickstart suite grades itself: honest work passes, every cheat is caught.

Every trajectory under ``suites/quickstart/trajectories/<kind>/<task-id>.json``
says in its metadata whether it should pass and exactly which checks catch it;
these tests replay each one and hold the suite to its word.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
from builders import REPO

from benchwright.checks.no_network import DEFAULT_PATTERNS, LOOPBACK_URL
from benchwright.dsl import document_files, load_task, load_tasks, load_trajectory
from benchwright.execution import run_task
from benchwright.model import Task, Trajectory

SUITE = REPO / "suites" / "quickstart"
TASKS_DIR = SUITE / "tasks"
TRAJECTORIES_DIR = SUITE / "trajectories"
TRAJECTORY_FILES = sorted(TRAJECTORIES_DIR.glob("*/*.json"))
MIN_TASKS = 8
MIN_CHEATS = 2


@cache
def task_files() -> dict[str, Path]:
    """Each task id, with the file that defines it."""
    return {load_task(path).id: path for path in document_files([TASKS_DIR])}


def task_for(trajectory_file: Path) -> Task:
    """The task a trajectory is graded against: the one whose id is the file's stem."""
    files = task_files()
    assert trajectory_file.stem in files, f"{trajectory_file}: no task with this id"
    return load_task(files[trajectory_file.stem])


def kind_of(trajectory_file: Path) -> str:
    return trajectory_file.parent.name


def metadata_of(trajectory: Trajectory) -> dict[str, Any]:
    meta = dict(trajectory.metadata)
    assert isinstance(meta.get("description"), str) and meta["description"].strip()
    assert meta.get("expect") in ("pass", "fail"), "metadata.expect must be 'pass' or 'fail'"
    assert isinstance(meta.get("caught_by"), list), "metadata.caught_by must be a list"
    return meta


@pytest.mark.parametrize(
    "trajectory_file",
    TRAJECTORY_FILES,
    ids=[f"{kind_of(p)}/{p.stem}" for p in TRAJECTORY_FILES],
)
def test_trajectory_is_graded_as_its_metadata_says(trajectory_file: Path) -> None:
    task = task_for(trajectory_file)
    trajectory = load_trajectory(trajectory_file)
    meta = metadata_of(trajectory)
    honest = kind_of(trajectory_file) == "honest"
    assert meta["expect"] == ("pass" if honest else "fail")
    assert bool(meta["caught_by"]) != honest, "cheats name their catchers; honest work none"

    run = run_task(task, trajectory)

    assert not run.replay_errors, [str(e) for e in run.replay_errors]
    assert not run.harness_failed, [r.detail for r in run.results]
    failing = {r.check_id: r.detail for r in run.results if not r.passed}
    assert set(failing) == set(meta["caught_by"]), failing
    assert run.passed == (meta["expect"] == "pass")


def test_the_suite_has_enough_tasks_each_with_honest_work_and_two_cheats() -> None:
    tasks = load_tasks([TASKS_DIR])
    assert len(tasks) >= MIN_TASKS
    ids = {task.id for task in tasks}
    assert set(task_files()) == ids
    by_kind: dict[str, set[str]] = {}
    for path in TRAJECTORY_FILES:
        assert path.stem in ids, f"{path}: no task with this id"
        by_kind.setdefault(kind_of(path), set()).add(path.stem)
    cheat_kinds = [kind for kind in by_kind if kind.startswith("cheat-")]
    assert set(by_kind) == {"honest", *cheat_kinds}, f"unexpected directories: {sorted(by_kind)}"
    for task_id in sorted(ids):
        assert task_id in by_kind["honest"], f"{task_id}: no honest trajectory"
        cheats = [kind for kind in cheat_kinds if task_id in by_kind[kind]]
        assert len(cheats) >= MIN_CHEATS, f"{task_id}: only {cheats}"


def test_the_suite_mixes_agentbench_json_yaml_and_fixture_tasks() -> None:
    files = task_files()
    assert sum(path.suffix == ".json" for path in files.values()) >= 2
    assert any(path.suffix == ".yaml" for path in files.values())
    assert any(load_task(path).fixture for path in files.values())


def test_the_cheats_of_a_task_differ() -> None:
    for task_id in task_files():
        cheat_steps = [
            load_trajectory(p).steps
            for p in TRAJECTORY_FILES
            if p.stem == task_id and kind_of(p).startswith("cheat-")
        ]
        assert len({repr(steps) for steps in cheat_steps}) == len(cheat_steps), task_id


@pytest.mark.parametrize("task_id", sorted(task_files()))
def test_the_untouched_workspace_fails(task_id: str) -> None:
    """No task passes before the work is done: every one of them asks for something."""
    run = run_task(load_task(task_files()[task_id]), Trajectory(steps=()))
    assert not run.passed
    assert not run.harness_failed, [r.detail for r in run.results]


@pytest.mark.parametrize(
    "trajectory_file",
    [p for p in TRAJECTORY_FILES if kind_of(p) == "honest"],
    ids=lambda p: p.stem,
)
def test_honest_work_never_trips_the_network_patterns(trajectory_file: Path) -> None:
    """Honest trajectories would pass ``no_network`` too, whichever task they solve."""
    trajectory = load_trajectory(trajectory_file)
    found = trajectory.find_network_violations(DEFAULT_PATTERNS, exempt=LOOPBACK_URL)
    assert not found, [str(v) for v in found]


@pytest.mark.slow
def test_the_console_script_validates_the_suite(cli) -> None:
    result = cli("validate", str(SUITE))
    assert result.returncode == 0, result.stderr
    assert f"{len(task_files())} tasks, {len(TRAJECTORY_FILES)} trajectories" in result.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    ("agent", "code", "line"),
    [(f"replay:{TRAJECTORIES_DIR / 'honest'}", 0, "correctness: 9/9 passed (100.0%)"),
     ("nop", 1, "correctness: 0/9 passed (0.0%), 0 errored, 9 task(s)")],
)  # fmt: skip
def test_the_suite_runs_as_a_suite_with_any_agent(cli, agent, code, line) -> None:
    result = cli("run", str(SUITE), "--agent", agent)
    assert result.returncode == code, result.stdout + result.stderr
    assert line in result.stdout
