"""Replaying file operations: faithfully, or reported and left as the agent's tool would."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchwright.model import ReplayError, Trajectory
from benchwright.workspace import Workspace, replay


def run(files: dict[str, str], *steps: dict[str, Any]) -> tuple[Workspace, tuple[ReplayError, ...]]:
    ws = Workspace({k: v.encode() for k, v in files.items()})
    return ws, replay(ws, Trajectory(tuple(steps)))


def write(path: str, content: str, tool: str = "Write") -> dict[str, Any]:
    return {"tool": tool, "args": {"file_path": path, "content": content}}


def edit(path: str, old: str, new: str, tool: str = "Edit", **extra: Any) -> dict[str, Any]:
    return {
        "tool": tool,
        "args": {"file_path": path, "old_string": old, "new_string": new, **extra},
    }


def multi(path: str, *pairs: tuple[str, str]) -> dict[str, Any]:
    edits = [{"old_string": o, "new_string": n} for o, n in pairs]
    return {"tool": "MultiEdit", "args": {"file_path": path, "edits": edits}}


# -- writes ---------------------------------------------------------------------------


def test_a_write_creates_or_replaces_a_whole_file():
    ws, errors = run({"a.py": "old\n"}, write("a.py", "new\n"), write("pkg/b.py", "b\n"))
    assert errors == ()
    assert ws.files == {"a.py": b"new\n", "pkg/b.py": b"b\n"}


def test_an_empty_write_leaves_an_empty_file():
    ws, _ = run({}, write("empty.txt", ""))
    assert ws.read_bytes("empty.txt") == b""


def test_initial_files_are_not_mutated():
    initial = {"a.py": b"x"}
    ws = Workspace(initial)
    replay(ws, Trajectory((write("a.py", "y"),)))
    assert initial == {"a.py": b"x"} and ws.initial["a.py"] == b"x"


@given(
    st.lists(
        st.tuples(st.sampled_from(["a.py", "b/c.py", "./a.py", "d.txt"]), st.text(max_size=8)),
        max_size=12,
    )
)
def test_replaying_writes_yields_the_last_content_per_path(writes):
    ws, errors = run({"seed.txt": "s"}, *(write(p, c) for p, c in writes))
    expected = {"seed.txt": b"s"}
    for path, content in writes:
        expected[path.removeprefix("./")] = content.encode()
    assert errors == ()
    assert ws.files == expected


# -- replacements ---------------------------------------------------------------------


@pytest.mark.parametrize("tool", ["Edit", "str_replace", "StrReplace", "edit_file"])
def test_an_edit_applies_old_to_new_on_the_current_content(tool):
    ws, errors = run(
        {"calc.py": "def add(a, b):\n    return a - b\n"},
        write("calc.py", "def add(a, b):\n    return a * b\n\nX = 1\n"),
        edit("calc.py", "a * b", "a + b", tool=tool),
    )
    assert errors == ()
    # Applied to the file as the earlier write left it, not to the initial file,
    # and not overwriting the file with new_string (the seed's behaviour).
    assert ws.read_text("calc.py") == "def add(a, b):\n    return a + b\n\nX = 1\n"


def test_an_edit_with_absent_old_string_is_reported_and_leaves_the_file():
    ws, errors = run({"a.py": "x = 1\n"}, edit("a.py", "y = 2", "y = 3"))
    assert ws.read_text("a.py") == "x = 1\n"
    assert errors == (ReplayError(0, "Edit", "a.py", "old_string not found in current content"),)
    assert str(errors[0]) == "step 1 (Edit a.py): old_string not found in current content"


def test_old_string_matching_only_the_initial_content_is_not_found():
    ws, errors = run({"a.py": "alpha\n"}, write("a.py", "beta\n"), edit("a.py", "alpha", "gamma"))
    assert ws.read_text("a.py") == "beta\n"
    assert [e.step_index for e in errors] == [1]


def test_an_ambiguous_edit_without_replace_all_is_reported_and_leaves_the_file():
    ws, errors = run({"a.py": "x\nx\n"}, edit("a.py", "x", "y"))
    assert ws.read_text("a.py") == "x\nx\n"
    assert errors[0].reason == "old_string is ambiguous (2 occurrences) without replace_all"


def test_replace_all_replaces_every_occurrence():
    ws, errors = run({"a.py": "x\nx\nz\n"}, edit("a.py", "x", "y", replace_all=True))
    assert errors == ()
    assert ws.read_text("a.py") == "y\ny\nz\n"


def test_a_single_occurrence_with_replace_all_is_fine():
    ws, errors = run({"a.py": "x\n"}, edit("a.py", "x", "y", replace_all=True))
    assert (errors, ws.read_text("a.py")) == ((), "y\n")


def test_multiedit_applies_in_order_on_the_running_text():
    ws, errors = run({"a.py": "one\n"}, multi("a.py", ("one", "two"), ("two", "three")))
    assert errors == ()
    assert ws.read_text("a.py") == "three\n"


def test_multiedit_is_all_or_nothing():
    ws, errors = run({"a.py": "one\ntwo\n"}, multi("a.py", ("one", "ONE"), ("missing", "x")))
    assert ws.read_text("a.py") == "one\ntwo\n"
    assert errors[0].reason == "edit 2: old_string not found in current content"


def test_an_empty_multiedit_is_reported():
    ws, errors = run(
        {"a.py": "a"}, {"tool": "MultiEdit", "args": {"file_path": "a.py", "edits": []}}
    )
    assert ws.read_text("a.py") == "a"
    assert errors[0].reason == "no edits given"


def test_an_empty_old_string_creates_a_new_file():
    ws, errors = run({}, edit("new.py", "", "print('hi')\n"))
    assert errors == ()
    assert ws.read_text("new.py") == "print('hi')\n"


def test_an_empty_old_string_on_an_existing_file_is_refused():
    ws, errors = run({"a.py": "keep\n"}, edit("a.py", "", "clobber"))
    assert ws.read_text("a.py") == "keep\n"
    assert errors[0].reason == "empty old_string on an existing file"


def test_editing_a_missing_file_is_reported():
    ws, errors = run({}, edit("ghost.py", "a", "b"))
    assert not ws.exists("ghost.py")
    assert errors[0].reason == "cannot edit: file does not exist"


def test_editing_a_binary_file_is_refused_rather_than_garbling_it():
    blob = b"\x89PNG\r\n\x1a\n\xff\xfe marker"
    ws = Workspace({"logo.png": blob})
    errors = replay(ws, Trajectory((edit("logo.png", "marker", "MARKER"),)))
    assert ws.read_bytes("logo.png") == blob
    assert errors[0].reason == "cannot edit: file is not UTF-8 text"


def test_one_failed_step_does_not_stop_later_ones():
    ws, errors = run({"a.py": "a"}, edit("a.py", "zzz", "y"), write("b.py", "b"))
    assert [e.step_index for e in errors] == [0]
    assert ws.read_text("b.py") == "b"


# -- deletes --------------------------------------------------------------------------


@pytest.mark.parametrize("tool", ["Delete", "delete_file", "DeleteFile", "remove_file"])
def test_delete_removes_the_file(tool):
    ws, errors = run({"a.py": "x", "b.py": "y"}, {"tool": tool, "args": {"path": "a.py"}})
    assert errors == ()
    assert ws.files == {"b.py": b"y"}


def test_deleting_a_missing_file_is_reported():
    ws, errors = run({"a.py": "x"}, {"tool": "Delete", "args": {"path": "nope.py"}})
    assert ws.files == {"a.py": b"x"}
    assert errors == (ReplayError(0, "Delete", "nope.py", "cannot delete: file does not exist"),)


def test_write_after_delete_recreates_the_file():
    ws, errors = run(
        {"a.py": "x"}, {"tool": "Delete", "args": {"path": "a.py"}}, write("a.py", "y")
    )
    assert (errors, ws.read_text("a.py")) == ((), "y")


# -- paths ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["../x", "/etc/passwd", "a/../../x", "..", ".", "//etc/hosts"])
def test_paths_outside_the_workspace_are_refused(path):
    ws, errors = run(
        {"a.py": "x"}, write(path, "pwned"), {"tool": "Delete", "args": {"path": path}}
    )
    assert ws.files == {"a.py": b"x"}
    assert [e.reason for e in errors] == ["path is outside the workspace"] * 2


def test_a_detour_that_stays_inside_is_accepted():
    ws, errors = run({}, write("a/../b.py", "x"))
    assert (errors, list(ws.files)) == ((), ["b.py"])


def test_writing_below_a_file_is_a_conflict_not_a_broken_materialization():
    ws, errors = run({"pkg": "i am a file"}, write("pkg/mod.py", "x"))
    assert errors[0].reason == "path conflict: pkg is a file, not a directory"
    assert ws.files == {"pkg": b"i am a file"}


def test_writing_over_a_directory_is_a_conflict():
    ws, errors = run({"pkg/mod.py": "x"}, write("pkg", "flat"), edit("pkg", "", "flat"))
    assert [e.reason for e in errors] == ["path conflict: pkg is a directory"] * 2
    assert ws.files == {"pkg/mod.py": b"x"}


def test_a_sibling_with_a_shared_prefix_is_not_a_conflict():
    ws, errors = run({"pkg.py": "x", "pkg2/a": "y"}, write("pkg/mod.py", "z"))
    assert errors == ()
    assert ws.read_text("pkg/mod.py") == "z"


def test_a_lone_surrogate_from_the_recording_is_reported_not_a_crash():
    # JSON may carry "\ud800" (half an emoji); it has no UTF-8 encoding.
    broken = json.loads('"smile \\ud83d"')
    ws, errors = run(
        {"a.py": "keep\n"}, write("a.py", broken), edit("a.py", "keep", broken), write("b.py", "ok")
    )
    assert ws.files == {"a.py": b"keep\n", "b.py": b"ok"}
    assert [(e.step_index, e.reason) for e in errors] == [
        (0, "content is not encodable as UTF-8: surrogates not allowed at character 6"),
        (1, "content is not encodable as UTF-8: surrogates not allowed at character 6"),
    ]
