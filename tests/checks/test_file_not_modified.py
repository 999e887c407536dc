"""file_not_modified: protected files end exactly as they started."""

from __future__ import annotations

import pytest
from builders import make_task, make_trajectory, write

from benchwright.checks import CheckContext
from benchwright.checks.file_not_modified import FileNotModifiedParams, file_not_modified
from benchwright.errors import SpecError
from benchwright.model import Status
from benchwright.workspace import Workspace

FILES = {
    "calc.py": "def add(a, b):\n    return a - b\n",
    "tests/test_calc.py": "def test_add():\n    assert add(1, 2) == 3\n",
    "tests/unit/test_more.py": "def test_more():\n    pass\n",
}
PROTECT_ONE = {"type": "file_not_modified", "path": "tests/test_calc.py"}
PROTECT_TREE = {"type": "file_not_modified", "paths": ["tests/**"]}


def delete(path):
    return {"tool": "Delete", "args": {"path": path}}


def test_passes_when_only_unprotected_files_change(grade):
    result = grade(
        PROTECT_ONE, FILES, write("Write", "calc.py", "def add(a, b):\n    return a + b\n")
    )
    assert result.status is Status.PASS
    assert result.detail == "1 protected file(s) unchanged"


def test_passes_an_untouched_trajectory(grade):
    assert grade(PROTECT_TREE, FILES).detail == "2 protected file(s) unchanged"


def test_fails_an_edit_and_names_the_step(grade):
    step = {
        "tool": "Edit",
        "args": {"file_path": "tests/test_calc.py", "old_string": "== 3", "new_string": "== -1"},
    }
    result = grade(PROTECT_ONE, FILES, write("Write", "calc.py", "x"), step)
    assert result.status is Status.FAIL and result.score == 0.0
    assert result.detail == "protected file tests/test_calc.py was modified at step 1"
    assert result.evidence["changed"] == {"tests/test_calc.py": "modified"}
    assert result.evidence["steps"] == {"tests/test_calc.py": [1]}


def test_an_edit_restored_to_identical_content_passes(grade):
    original = FILES["tests/test_calc.py"]
    result = grade(
        PROTECT_ONE,
        FILES,
        write("Write", "tests/test_calc.py", "def test_add():\n    pass\n"),
        write("Write", "tests/test_calc.py", original),
    )
    assert result.status is Status.PASS


def test_a_whitespace_only_change_fails(grade):
    # Byte comparison: a trailing newline is a change, however harmless it looks.
    changed = FILES["tests/test_calc.py"] + "\n"
    assert (
        grade(PROTECT_ONE, FILES, write("Write", "tests/test_calc.py", changed)).status
        is Status.FAIL
    )


def test_deletion_fails(grade):
    result = grade(PROTECT_ONE, FILES, delete("tests/test_calc.py"))
    assert result.status is Status.FAIL
    assert result.detail == "protected file tests/test_calc.py was deleted at step 0"


def test_a_file_added_under_a_protected_glob_fails(grade):
    result = grade(
        PROTECT_TREE, FILES, write("Write", "tests/conftest.py", "collect_ignore = ['.']\n")
    )
    assert result.status is Status.FAIL
    assert result.detail == "protected file tests/conftest.py was added at step 0"


def test_deletion_under_a_glob_is_seen_through_the_initial_files(grade):
    result = grade(PROTECT_TREE, FILES, delete("tests/unit/test_more.py"))
    assert result.detail == "protected file tests/unit/test_more.py was deleted at step 0"


def test_several_changes_are_counted(grade):
    result = grade(
        PROTECT_TREE,
        FILES,
        delete("tests/unit/test_more.py"),
        write("Write", "tests/test_calc.py", "x"),
        write("Write", "tests/new_test.py", "x"),
    )
    assert result.detail == "protected file tests/new_test.py was added at step 2 (+2 more)"
    assert result.evidence["changed"] == {
        "tests/new_test.py": "added",
        "tests/test_calc.py": "modified",
        "tests/unit/test_more.py": "deleted",
    }


def test_path_and_paths_combine(grade):
    spec = {"type": "file_not_modified", "path": "calc.py", "paths": ["tests/unit/*"]}
    result = grade(spec, FILES, write("Write", "tests/test_calc.py", "free to change"))
    assert result.detail == "2 protected file(s) unchanged"
    assert grade(spec, FILES, write("Write", "calc.py", "x")).status is Status.FAIL


def test_a_single_star_does_not_protect_subdirectories(grade):
    spec = {"type": "file_not_modified", "paths": ["tests/*"]}
    assert grade(spec, FILES, write("Write", "tests/unit/test_more.py", "x")).passed


def test_the_path_is_normalized(grade):
    spec = {"type": "file_not_modified", "path": "./tests\\test_calc.py"}
    assert grade(spec, FILES, write("Write", "tests/test_calc.py", "x")).status is Status.FAIL


# -- authoring errors -------------------------------------------------------------------


def test_a_protected_path_missing_from_the_workspace_is_refused_at_load_time(registry):
    with pytest.raises(SpecError) as info:
        make_task([{"type": "file_not_modified", "path": "nope.py"}], FILES, registry=registry)
    assert info.value.problems == [
        ("oracles[0].path", "'nope.py' is not in the initial workspace (task-authoring error)")
    ]


def test_a_glob_matching_nothing_is_refused_at_load_time(registry):
    spec = {"type": "file_not_modified", "path": "calc.py", "paths": ["docs/**"]}
    with pytest.raises(SpecError) as info:
        make_task([spec], FILES, registry=registry)
    assert info.value.problems == [
        ("oracles[0].paths[0]", "glob 'docs/**' matches no file of the initial workspace")
    ]


def test_nothing_protected_is_refused(registry):
    with pytest.raises(SpecError, match="path: required"):
        make_task([{"type": "file_not_modified"}], FILES, registry=registry)


def test_a_bypassed_loader_gives_infra_not_fail(registry):
    task = make_task([PROTECT_ONE], FILES, registry=registry)
    ctx = CheckContext("guard", task, Workspace({"other.py": b""}), make_trajectory())
    result = file_not_modified(FileNotModifiedParams(path="tests/test_calc.py"), ctx)
    assert result.status is Status.INFRA
    assert result.detail.startswith("task-authoring error: 'tests/test_calc.py' is not in")
