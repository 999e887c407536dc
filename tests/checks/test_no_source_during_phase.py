"""``no_source_during_phase``: docs pass, source fails, a missing snapshot is INFRA."""

from __future__ import annotations

from builders import make_task

from benchwright.checks import CheckContext
from benchwright.execution._git import Snapshots
from benchwright.model import Status, Trajectory
from benchwright.workspace import Workspace

CHECK = [
    {"type": "no_source_during_phase", "phase": "p1_plan"},
    {"type": "file_exists", "path": "README.md"},
]


def _run(registry, writes: dict[str, str], snapshots: bool = True):
    task = make_task(CHECK, {"README.md": "r\n", "app.py": "a = 1\n"}, registry=registry)
    with Workspace(task.files) as ws:
        repo = Snapshots(ws.directory())
        commits = {}
        if snapshots:
            repo.init()
            for path, content in writes.items():
                (ws.directory() / path).parent.mkdir(parents=True, exist_ok=True)
                (ws.directory() / path).write_text(content)
            repo.snapshot("phase/p1_plan")
            commits = repo.commits
        trajectory = Trajectory((), {"benchwright": {"snapshots": commits}})
        spec = task.checks[0]
        ctx = CheckContext(spec.id, task, ws, trajectory)
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


def test_hiding_files_with_gitignore_is_itself_a_source_change(registry):
    result = _run(registry, {".gitignore": "*.py\n", "hidden.py": "x\n"})
    assert result.status is Status.FAIL
    assert result.evidence["source"] == [".gitignore"]


def test_without_phase_snapshots_the_check_is_infra_never_a_pass(registry):
    result = _run(registry, {}, snapshots=False)
    assert result.status is Status.INFRA
    assert "no snapshot for phase 'p1_plan'" in result.detail
