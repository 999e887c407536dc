"""``no_source_during_phase``: docs pass, source fails, a missing record is INFRA.

The changed files come from the harness's snapshots (`Snapshots.changed`), so
these tests commit real snapshots of a real workspace.
"""

from __future__ import annotations

import pytest
from builders import make_task

from benchwright.checks import CheckContext
from benchwright.errors import SpecError
from benchwright.execution import run_task
from benchwright.execution._git import Snapshots
from benchwright.model import Status, Trajectory
from benchwright.workspace import Workspace

CHECK = [
    {"type": "no_source_during_phase", "phase": "p1_plan"},
    {"type": "file_exists", "path": "README.md"},
]
PHASES = [{"name": "p1_plan", "prompt": "Plan."}, {"name": "p2_build", "prompt": "Build."}]


def _run(registry, writes: dict[str, str], metadata: dict | None = None):
    task = make_task(
        CHECK, {"README.md": "r\n", "app.py": "a = 1\n"}, registry=registry, phases=PHASES
    )
    with Workspace(task.files) as ws:
        if metadata is None:
            repo = Snapshots(ws.directory())
            start = repo.init()
            for path, content in writes.items():
                (ws.directory() / path).parent.mkdir(parents=True, exist_ok=True)
                (ws.directory() / path).write_text(content)
            changes = repo.changed(start, repo.snapshot("phase/p1_plan"))
            metadata = {"benchwright": {"phase_changes": {"p1_plan": changes}}}
        spec = task.checks[0]
        ctx = CheckContext(spec.id, task, ws, Trajectory((), metadata))
        return registry.get(spec.type).run(spec.params, ctx)


def test_a_plan_written_under_docs_passes(registry):
    result = _run(registry, {"docs/PLAN.md": "1. do it\n", "NOTES.md": "n\n"})
    assert result.status is Status.PASS
    assert result.detail == "phase p1_plan changed 2 doc file(s) and no source"


def test_source_written_while_planning_fails_naming_the_file(registry):
    result = _run(registry, {"docs/PLAN.md": "1.\n", "app.py": "a = 2\n", "src/new.py": ""})
    assert result.status is Status.FAIL
    assert result.detail == "phase p1_plan changed source file app.py (+1 more)"
    assert result.evidence["source"] == ["app.py", "src/new.py"]


def test_hiding_files_with_gitignore_hides_nothing(registry):
    result = _run(registry, {".gitignore": "*.py\n", "hidden.py": "x\n"})
    assert result.status is Status.FAIL
    assert result.evidence["source"] == [".gitignore", "hidden.py"]


def test_hiding_files_with_gitattributes_or_a_nested_repository_hides_nothing(registry):
    writes = {".gitattributes": "*.py export-ignore binary\n", "sub/.git/HEAD": "ref: x\n",
              "sub/code.py": "x\n", "code.py": "y\n"}  # fmt: skip
    result = _run(registry, writes)
    assert result.status is Status.FAIL
    assert result.evidence["source"] == [".gitattributes", "code.py", "sub/code.py"]


def test_without_phase_changes_the_check_is_infra_never_a_pass(registry):
    for metadata in ({}, {"benchwright": {"phase_changes": {"other": []}}}, {"benchwright": 1}):
        result = _run(registry, {}, metadata)
        assert result.status is Status.INFRA
        assert "no snapshot for phase 'p1_plan'" in result.detail


def test_a_recorded_trajectory_cannot_claim_phase_changes_when_graded(registry):
    task = make_task(
        CHECK, {"README.md": "r\n", "app.py": "a = 1\n"}, registry=registry, phases=PHASES
    )
    forged = {"benchwright": {"phase_changes": {"p1_plan": ["docs/PLAN.md"]}}}
    result = run_task(task, Trajectory((), forged), registry=registry)
    assert result.results[0].status is Status.INFRA


def test_a_phase_the_task_does_not_have_is_refused_at_load(registry):
    for phases in (PHASES, None):
        with pytest.raises(SpecError) as caught:
            make_task(
                [{"type": "no_source_during_phase", "phase": "p1_plna"}, CHECK[1]],
                registry=registry,
                **({"phases": phases} if phases else {}),
            )
        known = "p1_plan, p2_build" if phases else "main"
        assert caught.value.problems == [
            ("oracles[0].phase", f"the task has no phase 'p1_plna' (phases: {known})")
        ]
