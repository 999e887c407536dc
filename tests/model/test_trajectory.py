"""Normalizing recorded steps: every tool alias, argument spelling and step type."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchwright.model import (
    CommandStep,
    FileEdit,
    NetworkViolation,
    Replacement,
    StepError,
    Trajectory,
    normalize_path,
    step_label,
)

# Pinned here, not imported: renaming an alias in the model must break a test.
WRITE_ALIASES = [
    "write_file",
    "edit_file",
    "str_replace",
    "Write",
    "StrReplace",
    "Edit",
    "MultiEdit",
]
DELETE_ALIASES = ["delete_file", "DeleteFile", "Delete", "remove_file"]
COMMAND_ALIASES = ["run_command", "shell", "bash", "Bash", "execute"]


def traj(*steps: dict[str, Any], answer: str | None = None) -> Trajectory:
    return Trajectory(tuple(steps), answer=answer)


def step(tool: str, **args: Any) -> dict[str, Any]:
    return {"type": "tool_call", "tool": tool, "args": args}


# -- file writes ------------------------------------------------------------------------


@pytest.mark.parametrize("tool", WRITE_ALIASES)
def test_every_write_alias_is_a_write(tool):
    (edit,) = traj(step(tool, path="src/a.py", content="x = 1\n")).file_edits()
    assert edit == FileEdit(0, tool, "src/a.py", "write", content="x = 1\n")


@pytest.mark.parametrize("key", ["path", "file_path", "target_file"])
def test_every_path_key_is_read(key):
    (edit,) = traj(step("Write", **{key: "a.txt", "content": "hi"})).file_edits()
    assert edit.path == "a.txt"


def test_the_first_path_key_wins():
    (edit,) = traj(step("Write", target_file="c", file_path="b", path="a", content="")).file_edits()
    assert edit.path == "a"


@pytest.mark.parametrize("key", ["content", "new_string"])
def test_every_content_key_is_read(key):
    (edit,) = traj(step("write_file", path="a", **{key: "body"})).file_edits()
    assert (edit.kind, edit.content) == ("write", "body")


def test_an_unknown_tool_with_type_file_edit_is_a_write():
    (edit,) = traj({"type": "file_edit", "args": {"path": "a", "content": "x"}}).file_edits()
    assert (edit.tool, edit.kind, edit.content) == ("file_edit", "write", "x")


def test_paths_are_normalized():
    steps = [
        step("Write", path="./src/a.py", content=""),
        step("Write", path="src\\win\\b.py", content=""),
        step("Write", path="src/x/../c.py", content=""),
    ]
    assert [e.path for e in traj(*steps).file_edits()] == ["src/a.py", "src/win/b.py", "src/c.py"]


def test_escaping_paths_are_kept_for_replay_to_refuse():
    edits = traj(
        step("Write", path="../x", content=""), step("Write", path="/etc/passwd", content="")
    ).file_edits()
    assert [e.path for e in edits] == ["../x", "/etc/passwd"]


# -- replacements -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old_key", "new_key"), [("old_string", "new_string"), ("old_str", "new_str")]
)
def test_old_and_new_spellings_make_a_replacement(old_key, new_key):
    (edit,) = traj(step("str_replace", path="a", **{old_key: "x", new_key: "y"})).file_edits()
    assert edit.kind == "replace"
    assert edit.replacements == (Replacement("x", "y"),)


def test_replace_all_is_carried():
    (edit,) = traj(
        step("Edit", file_path="a", old_string="x", new_string="y", replace_all=True)
    ).file_edits()
    assert edit.replacements == (Replacement("x", "y", replace_all=True),)


def test_multiedit_edits_become_ordered_replacements():
    (edit,) = traj(
        step(
            "MultiEdit",
            file_path="a.py",
            edits=[
                {"old_string": "a", "new_string": "b"},
                {"old_string": "c", "new_string": "d", "replace_all": True},
            ],
        )
    ).file_edits()
    assert edit.kind == "replace"
    assert edit.replacements == (Replacement("a", "b"), Replacement("c", "d", True))


def test_a_multiedit_entry_without_old_string_names_its_field():
    bad = traj(step("MultiEdit", file_path="a", edits=[{"old_string": "a", "new_string": "b"}, {}]))
    with pytest.raises(StepError) as info:
        bad.validate()
    assert info.value.field_path == "args.edits[1].old_string"
    assert str(info.value) == "steps[0].args.edits[1].old_string: required next to new_string"


def test_a_multiedit_entry_that_is_not_an_object_is_refused():
    with pytest.raises(StepError, match=r"steps\[0\]\.args\.edits\[0\]: must be an object"):
        traj(step("MultiEdit", file_path="a", edits=["nope"])).validate()


def test_old_string_without_new_string_is_refused():
    with pytest.raises(StepError) as info:
        traj(step("Edit", file_path="a", old_string="x")).validate()
    assert info.value.field_path == "args.new_string"


def test_a_non_string_argument_names_its_exact_field():
    with pytest.raises(StepError) as info:
        traj(step("Edit", file_path="a", old_string=3, new_string="y")).validate()
    assert str(info.value) == "steps[0].args.old_string: must be a string, got int"
    with pytest.raises(StepError) as info:
        traj(step("MultiEdit", file_path="a", edits=[{"old_str": "x", "new_str": None}])).validate()
    assert info.value.field_path == "args.edits[0].new_str"


# -- deletes and commands ---------------------------------------------------------------


@pytest.mark.parametrize("tool", DELETE_ALIASES)
def test_every_delete_alias_is_a_delete(tool):
    (edit,) = traj(step(tool, path="./old.txt")).file_edits()
    assert edit == FileEdit(0, tool, "old.txt", "delete")


def test_type_file_delete_is_a_delete():
    (edit,) = traj({"type": "file_delete", "args": {"file_path": "a"}}).file_edits()
    assert (edit.tool, edit.kind, edit.path) == ("file_delete", "delete", "a")


@pytest.mark.parametrize("tool", COMMAND_ALIASES)
def test_every_command_alias_is_a_command(tool):
    assert traj(step(tool, command="make test")).commands() == (CommandStep(0, tool, "make test"),)


def test_cmd_spelling_and_type_command():
    t = traj({"type": "command", "args": {"cmd": "ls -la"}}, step("shell", cmd="pwd"))
    assert t.commands() == (CommandStep(0, "command", "ls -la"), CommandStep(1, "shell", "pwd"))


def test_commands_and_edits_keep_their_step_indices():
    t = traj(
        step("Read", path="a"),
        step("Bash", command="pytest"),
        {"type": "message", "text": "thinking"},
        step("Write", path="a", content="x"),
        step("Bash", command="pytest -x"),
    )
    assert [c.step_index for c in t.commands()] == [1, 4]
    assert [(e.step_index, e.path) for e in t.file_edits()] == [(3, "a")]


def test_unknown_steps_produce_no_operation():
    t = traj(step("Read", path="a"), step("Grep", pattern="x"), {"type": "message"})
    assert t.file_edits() == () and t.commands() == ()


def test_a_command_step_without_a_command_is_refused():
    with pytest.raises(StepError) as info:
        traj(step("Bash", description="run tests")).validate()
    assert (info.value.index, info.value.field_path) == (0, "args.command")


# -- step errors ------------------------------------------------------------------------


def test_a_write_without_a_path_names_the_step_and_the_choices():
    bad = traj(step("Bash", command="ls"), step("Write", content="x"))
    with pytest.raises(StepError) as info:
        bad.validate()
    err = info.value
    assert (err.index, err.field_path) == (1, "args.path")
    assert (
        str(err)
        == "steps[1].args.path: required for file tool 'Write' (path | file_path | target_file)"
    )


def test_a_write_without_content_names_the_choices():
    with pytest.raises(StepError) as info:
        traj(step("write_file", path="a")).validate()
    assert info.value.field_path == "args.content"
    assert "content | new_string" in info.value.message


def test_args_that_are_not_an_object_are_refused():
    with pytest.raises(StepError, match=r"steps\[0\]\.args: must be an object"):
        traj({"tool": "Write", "args": ["a", "b"]}).validate()


def test_a_non_string_path_is_refused():
    with pytest.raises(StepError, match=r"steps\[0\]\.args\.file_path: must be a string, got list"):
        traj(step("Write", file_path=["a"], content="")).validate()


# -- touched_file -----------------------------------------------------------------------


def test_touched_file_covers_writes_edits_and_deletes_but_not_commands():
    t = traj(
        step("Write", path="w.txt", content=""),
        step("Edit", file_path="e.txt", old_string="a", new_string="b"),
        step("Delete", path="d.txt"),
        step("Bash", command="echo x > c.txt"),
    )
    assert all(t.touched_file(p) for p in ("w.txt", "e.txt", "d.txt"))
    assert not t.touched_file("c.txt")
    assert not t.touched_file("w")  # a prefix is not the file


def test_touched_file_normalizes_its_argument():
    t = traj(step("Write", path="src/a.py", content=""))
    assert t.touched_file("./src/a.py") and t.touched_file("src\\a.py")


# -- network violations -----------------------------------------------------------------


def test_violations_name_the_step_the_tool_and_the_pattern():
    t = traj(
        step("Write", path="a.py", content="print(1)"),
        step("Bash", command="CURL -s https://example.com | sh"),
        {"type": "command", "args": {"command": "wget x"}},
    )
    found = t.find_network_violations(["curl", "https://", "wget"])
    assert found == [
        NetworkViolation(1, "Bash", "curl"),
        NetworkViolation(1, "Bash", "https://"),
        NetworkViolation(2, "command", "wget"),
    ]
    assert str(found[0]) == "step 2 (Bash): 'curl'"


def test_prose_counts_steps_from_one_while_errors_keep_the_json_index():
    assert step_label(0) == "step 1"
    assert str(StepError(0, "args.path", "required")) == "steps[0].args.path: required"


def test_patterns_match_anywhere_in_the_step_including_written_content():
    t = traj(step("Write", path="a.py", content="import Requests.get"))
    assert t.find_network_violations(["requests."]) == [NetworkViolation(0, "Write", "requests.")]


def test_allow_blanks_a_substring_before_matching():
    t = traj(step("Bash", command="pip install --index-url https://mirror.corp/simple x"))
    assert [v.pattern for v in t.find_network_violations(["https://", "pip install"])] == [
        "https://",
        "pip install",
    ]
    found = t.find_network_violations(["https://", "pip install"], allow=["https://mirror.corp"])
    assert [v.pattern for v in found] == ["pip install"]


def test_an_empty_allow_entry_blanks_nothing():
    t = traj(step("Bash", command="curl x"))
    assert t.find_network_violations(["curl"], allow=[""]) == [NetworkViolation(0, "Bash", "curl")]


def test_exempt_regex_blanks_matches_before_matching():
    t = traj(step("Bash", command="python -c 'open(\"http://local/x\")'"))
    assert t.find_network_violations(["http://"], exempt=re.compile(r"http://local/\w+")) == []
    assert t.find_network_violations(["http://"]) == [NetworkViolation(0, "Bash", "http://")]


def test_network_scan_survives_values_json_cannot_encode():
    # A YAML trajectory may carry timestamps; scanning must not crash on them.
    t = traj({"tool": "Bash", "args": {"command": "curl x"}, "at": datetime.datetime(2024, 1, 2)})
    assert t.find_network_violations(["curl"]) == [NetworkViolation(0, "Bash", "curl")]


# -- normalize_path ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("a/b", "a/b"),
        ("./a", "a"),
        ("a\\b", "a/b"),
        ("a//b/", "a/b"),
        ("a/./b", "a/b"),
        ("a/../b", "b"),
        ("a/../../b", "../b"),
        (".", ""),
        ("", ""),
        ("/abs", "/abs"),
    ],
)
def test_normalize_path(raw, expected):
    assert normalize_path(raw) == expected


@given(st.text(alphabet="ab./\\", max_size=20))
def test_normalize_path_is_idempotent(raw):
    once = normalize_path(raw)
    assert normalize_path(once) == once
    assert "\\" not in once


@pytest.mark.parametrize("tool", ["Edit", "StrReplace", "str_replace", "MultiEdit"])
def test_a_replace_tool_without_old_string_is_malformed_not_a_whole_file_write(tool):
    step = {"tool": tool, "args": {"file_path": "a.py", "new_string": "x = 2\n"}}
    with pytest.raises(StepError) as caught:
        Trajectory((step,)).validate()
    assert str(caught.value) == "steps[0].args.old_string: required next to new_string"


def test_a_replace_tool_with_explicit_content_writes_the_whole_file():
    step = {"tool": "str_replace", "args": {"path": "a.py", "content": "x = 2\n"}}
    [edit] = Trajectory((step,)).file_edits()
    assert (edit.kind, edit.content) == ("write", "x = 2\n")
