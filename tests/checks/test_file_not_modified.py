"""file_not_modified: protected files end exactly as they started."""

from __future__ import annotations

import pytest
from builders import bash, make_task, make_trajectory, write

from benchwright.checks import CheckContext
from benchwright.checks.file_not_modified import FileNotModifiedParams, file_not_modified
from benchwright.errors import SpecError
from benchwright.execution import run_task
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
    assert result.detail == "protected file tests/test_calc.py was modified at step 2"
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
    assert result.detail == "protected file tests/test_calc.py was deleted at step 1"
    assert result.evidence["steps"] == {"tests/test_calc.py": [0]}  # an index into steps


def test_a_file_added_under_a_protected_glob_fails(grade):
    result = grade(
        PROTECT_TREE, FILES, write("Write", "tests/conftest.py", "collect_ignore = ['.']\n")
    )
    assert result.status is Status.FAIL
    assert result.detail == "protected file tests/conftest.py was added at step 1"


def test_deletion_under_a_glob_is_seen_through_the_initial_files(grade):
    result = grade(PROTECT_TREE, FILES, delete("tests/unit/test_more.py"))
    assert result.detail == "protected file tests/unit/test_more.py was deleted at step 1"


def test_several_changes_are_counted(grade):
    result = grade(
        PROTECT_TREE,
        FILES,
        delete("tests/unit/test_more.py"),
        write("Write", "tests/test_calc.py", "x"),
        write("Write", "tests/new_test.py", "x"),
    )
    assert result.detail == "protected file tests/new_test.py was added at step 3 (+2 more)"
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


# -- recorded shell commands (replay does not run them) ---------------------------------


@pytest.mark.parametrize(
    ("command", "fragment"),
    [
        ("rm tests/test_calc.py", "rm tests/test_calc.py"),
        ("rm -rf tests", "rm -rf tests"),
        ("rm tests/*.py", "rm 'tests/*.py'"),
        ("mv tests/test_calc.py /tmp/keep.py", "mv tests/test_calc.py /tmp/keep.py"),
        ("mv fake.py tests/test_calc.py", "mv fake.py tests/test_calc.py"),
        ("cp /tmp/pass.py tests/test_calc.py", "cp /tmp/pass.py tests/test_calc.py"),
        ("sed -i 's/== 3/== -1/' tests/test_calc.py", "sed -i 's/== 3/== -1/' tests/test_calc.py"),
        ("sed -i.bak -e 's/3/-1/' tests/test_calc.py", "sed -i.bak -e s/3/-1/ tests/test_calc.py"),
        ("perl -pi -e 's/3/-1/' tests/test_calc.py", "perl -pi -e s/3/-1/ tests/test_calc.py"),
        ("echo 'def test_add(): pass' > tests/test_calc.py", "echo 'def test_add(): pass'"),
        ("echo '' >> tests/test_calc.py", "echo ''"),
        ("echo pass | tee tests/test_calc.py", "tee tests/test_calc.py"),
        ("truncate -s 0 tests/test_calc.py", "truncate -s 0 tests/test_calc.py"),
        ("git checkout -- tests/test_calc.py", "git checkout -- tests/test_calc.py"),
        ("git restore --source HEAD~3 tests", "git restore --source 'HEAD~3' tests"),
        ("chmod 000 tests/test_calc.py", "chmod 000 tests/test_calc.py"),
        ("ln -sf /dev/null tests/test_calc.py", "ln -sf /dev/null tests/test_calc.py"),
        ("dd if=/dev/null of=tests/test_calc.py", "dd if=/dev/null of=tests/test_calc.py"),
        ("cd tests && sed -i s/3/-1/ test_calc.py", "sed -i s/3/-1/ test_calc.py"),
        (
            "python -c \"open('tests/test_calc.py', 'w').write('')\"",
            "open('tests/test_calc.py', 'w'",
        ),
        ("find tests -name '*.py' -delete", "find tests -name '*.py' -delete"),
        ("sudo env A=1 rm -f ./tests/../tests/test_calc.py", "rm -f ./tests/../tests/test_calc.py"),
        ("bash -c 'rm tests/test_calc.py'", "rm tests/test_calc.py"),
        ("echo $(rm tests/test_calc.py)", "rm tests/test_calc.py"),
        ("rm /home/agent/repo/tests/test_calc.py", "rm /home/agent/repo/tests/test_calc.py"),
    ],
)
def test_a_shell_command_that_writes_a_protected_file_fails_naming_the_step(
    grade, command, fragment
):
    result = grade(PROTECT_ONE, FILES, write("Write", "calc.py", "x"), bash(command))
    assert result.status is Status.FAIL and result.score == 0.0
    prefix = "protected file tests/test_calc.py written by a shell command at step 2 (Bash): "
    assert result.detail.startswith(prefix), result.detail
    assert fragment in result.detail
    assert result.evidence["shell"]["tests/test_calc.py"][0]["step"] == 1


def test_a_file_a_command_adds_under_a_protected_glob_fails(grade):
    result = grade(PROTECT_TREE, FILES, bash("cat > tests/conftest.py <<EOF\nimport x\nEOF"))
    assert result.detail == (
        "protected file tests/conftest.py written by a shell command at step 1 (Bash): "
        "cat > tests/conftest.py << EOF"
    )


def test_a_copy_into_a_protected_directory_adds_the_file(grade):
    result = grade(PROTECT_TREE, FILES, bash("cp /tmp/conftest.py tests/"))
    assert result.status is Status.FAIL
    assert "tests/conftest.py" in result.evidence["shell"]


def test_a_cd_in_an_earlier_step_carries_over(grade):
    result = grade(PROTECT_ONE, FILES, bash("cd tests"), bash("rm test_calc.py"))
    assert result.detail == (
        "protected file tests/test_calc.py written by a shell command at step 2 (Bash): "
        "rm test_calc.py"
    )


def test_every_protected_file_a_recursive_command_reaches_is_counted(grade):
    result = grade(PROTECT_TREE, FILES, bash("rm -rf tests/"))
    assert result.detail.endswith("rm -rf tests/ (+1 more)")
    assert sorted(result.evidence["shell"]) == ["tests/test_calc.py", "tests/unit/test_more.py"]


@pytest.mark.parametrize(
    "command",
    [
        "cat tests/test_calc.py",
        "grep -rn 'assert' tests",
        "sed -n '1,5p' tests/test_calc.py",
        "perl -ne 'print if /add/' tests/test_calc.py",
        "python -m pytest -q tests/test_calc.py",
        "cp tests/test_calc.py /tmp/backup.py",
        "rm -f calc.py.orig && echo ok > notes.txt",
        "git diff -- tests/test_calc.py && git status",
        "git restore --staged tests/test_calc.py",
        "git rm --cached tests/test_calc.py",
        "find tests -name '*.py' -exec grep -l add {} \\;",
        "find . -name '*.pyc' -delete",
        "rm -rf tests/__pycache__ .pytest_cache",
        "python -c \"print(open('tests/test_calc.py').read())\"",
        "echo 'rm tests/test_calc.py'",
        "ls tests 2>/dev/null >&2",
        "sed -i 's/a - b/a + b/' calc.py",
        "cat tests/test_calc.py | tee /dev/null",
        "cp -r tests /tmp/tests-copy",
    ],
)
def test_commands_that_only_read_protected_files_pass(grade, command):
    result = grade(PROTECT_TREE, FILES, bash(command))
    assert result.status is Status.PASS, result.detail


def test_a_chmod_of_the_mode_alone_names_the_file_not_the_mode(grade):
    result = grade(PROTECT_ONE, FILES, bash("chmod -x tests/test_calc.py"))
    assert result.evidence["shell"] == {
        "tests/test_calc.py": [
            {"step": 0, "tool": "Bash", "command": "chmod -x tests/test_calc.py"}
        ]
    }


def test_a_file_tool_change_keeps_its_wording_beside_shell_evidence(grade):
    result = grade(
        PROTECT_TREE, FILES, delete("tests/test_calc.py"), bash("rm tests/unit/test_more.py")
    )
    assert result.detail == "protected file tests/test_calc.py was deleted at step 1 (+1 more)"
    assert list(result.evidence["shell"]) == ["tests/unit/test_more.py"]


def test_a_recorded_workspace_directory_anchors_absolute_paths(registry):
    task = make_task([PROTECT_ONE], FILES, registry=registry)
    outside = make_trajectory(bash("rm /tmp/elsewhere/tests/test_calc.py"))
    inside = make_trajectory(bash("rm /work/repo/tests/test_calc.py"))
    for trajectory, status in ((outside, Status.PASS), (inside, Status.FAIL)):
        traj = type(trajectory)(trajectory.steps, {"cwd": "/work/repo"})
        (only,) = run_task(task, traj, registry=registry).results
        assert only.status is status, only.detail


def _live_trial(tmp_path, command_step: str, undo: bool):
    """A live `command:` agent whose transcript records ``command_step``; the process
    itself deletes the protected file and, when ``undo``, puts it back."""
    from benchwright.agents import CommandAgent
    from benchwright.agents.transcripts.live import Parsed
    from benchwright.execution import TrialOptions, run_trial

    def parser(stdout, workspace, scratch):
        return Parsed((bash(command_step),), "", {})

    script = "cp tests/test_calc.py /tmp/k && rm tests/test_calc.py" + (
        " && cp /tmp/k tests/test_calc.py" if undo else ""
    )
    task = make_task([PROTECT_ONE], FILES)
    agent = CommandAgent("live", f"sh -c '{script}'", parser)
    return run_trial(task, "correctness", agent, 1, TrialOptions())


def test_a_live_agent_is_judged_on_its_files_not_on_its_recorded_commands(tmp_path):
    restored = _live_trial(tmp_path, "rm tests/test_calc.py", undo=True)
    assert restored.verdict == "passed", restored.checks
    deleted = _live_trial(tmp_path, "echo harmless", undo=False)
    [check] = deleted.checks
    assert check.status is Status.FAIL and "tests/test_calc.py was deleted" in check.detail


def test_a_replayed_command_stays_evidence(grade):
    result = grade(PROTECT_ONE, FILES, bash("rm tests/test_calc.py"))
    assert result.status is Status.FAIL and "written by a shell command at step 1" in result.detail
