"""A reference solution stored as edits: replayed onto the task's files when it loads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from benchwright.dsl import load_task
from benchwright.errors import SpecError

CHECK = {"type": "file_exists", "path": "a.py"}


def edit(path: str, old: str, new: str) -> dict:
    return {"type": "tool_call", "tool": "Edit",
            "args": {"file_path": path, "old_string": old, "new_string": new}}  # fmt: skip


def write(path: str, content: str) -> dict:
    return {"type": "tool_call", "tool": "Write", "args": {"file_path": path, "content": content}}


def task_file(tmp_path: Path, solution, steps: dict[str, list[dict]], **more) -> Path:
    for name, found in steps.items():
        (tmp_path / name).write_text(json.dumps({"steps": found}))
    doc = {"id": "t", "prompt": "p", "checks": [CHECK], "solution": solution,
           "workspace": {"a.py": "x = 1\ny = 2\n", "b.py": "keep\n"}} | more  # fmt: skip
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(doc))
    return path


def test_edits_become_the_changed_and_added_files_only(tmp_path):
    steps = [edit("a.py", "y = 2", "y = 3"), write("c.py", "new\n")]
    task = load_task(task_file(tmp_path, "sol.json", {"sol.json": steps}))
    assert dict(task.solution.files) == {"a.py": b"x = 1\ny = 3\n", "c.py": b"new\n"}


def test_an_edit_that_no_longer_applies_is_a_load_error_naming_the_step(tmp_path):
    steps = [edit("a.py", "y = 2", "y = 3"), edit("a.py", "z = 9", "z = 0")]
    path = task_file(tmp_path, "sol.json", {"sol.json": steps})
    with pytest.raises(SpecError) as caught:
        load_task(path)
    (line,) = caught.value.lines()
    assert line.startswith(f"{path}: solution.edits: ") and "steps[1]: a.py: " in line
    assert "old_string not found" in line


def test_files_then_edits_in_the_object_form(tmp_path):
    (tmp_path / "over").mkdir()
    (tmp_path / "over" / "b.py").write_text("over\n")
    steps = [edit("b.py", "over", "over and edited")]
    solution = {"files": "over", "edits": "sol.json", "answer": "42"}
    task = load_task(task_file(tmp_path, solution, {"sol.json": steps}))
    assert dict(task.solution.files) == {"b.py": b"over and edited\n"}
    assert task.solution.answer == "42"


def test_a_phase_edits_the_result_of_the_phases_before_it(tmp_path):
    phases = [{"name": "one", "prompt": "p1", "solution": "one.json"},
              {"name": "two", "prompt": "p2", "solution": "two.json"}]  # fmt: skip
    steps = {"one.json": [edit("a.py", "y = 2", "y = 20")],
             "two.json": [edit("a.py", "y = 20", "y = 200")]}  # fmt: skip
    task = load_task(task_file(tmp_path, None, steps, phases=phases, prompt=None))
    one, two = (p.solution.files for p in task.phases)
    assert one == {"a.py": b"x = 1\ny = 20\n"} and two == {"a.py": b"x = 1\ny = 200\n"}


def test_a_missing_or_malformed_edits_file_is_named(tmp_path):
    path = task_file(tmp_path, {"edits": "gone.json"}, {})
    with pytest.raises(SpecError, match=r"solution\.edits: file not found: .*gone\.json"):
        load_task(path)
    path = task_file(tmp_path, "bad.json", {"bad.json": [{"tool": "Edit", "args": {}}]})
    with pytest.raises(SpecError, match=r"solution\.edits: .*steps\[0\]"):
        load_task(path)
