"""Every malformed file under tests/data/malformed is rejected before anything runs.

Each file holds exactly one defect (described in its header). ``validate`` must
exit 2 and print ``<file>: <field path>: <message>``, never a traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import REPO

from benchwright.dsl import load_manifest, load_task, load_trajectory, validate_documents
from benchwright.errors import EXIT_INVALID, SpecError, SpecErrors

MALFORMED = Path("tests/data/malformed")

# File name -> what stderr must say: the first fragment right after "<file path>: " on a
# line (so it pins the field path), the others anywhere on that file's lines.
EXPECTED: dict[str, list[str]] = {
    "check_type_not_a_string.yaml": ["oracles[0].type: must be a string, got list"],
    "duplicate_check_ids.yaml": [
        "checks[0].id: duplicate check id 'tests-pass'",
        "checks[1].id: duplicate check id 'tests-pass'",
    ],
    "empty_document.yaml": ["a task file holds an object"],
    "empty_oracles.json": ["oracles: required: a non-empty list of checks"],
    "empty_workspace.json": ["workspace: must not be empty"],
    "fixture_not_found.yaml": [
        f"fixture: directory not found: {MALFORMED.as_posix()}/no_such_fixture_dir"
    ],
    "invalid_json_syntax.json": ["invalid JSON at line 7 column"],
    "invalid_regex.yaml": ["oracles[0].pattern: invalid regex: missing )"],
    "invalid_yaml_syntax.yaml": ["invalid YAML at line 8 column 1"],
    "manifest_cycle_a.yaml": [
        "task_subset: manifest cycle: "
        f"{MALFORMED.as_posix()}/manifest_cycle_a.yaml -> "
        f"{MALFORMED.as_posix()}/manifest_cycle_b.yaml -> "
        f"{MALFORMED.as_posix()}/manifest_cycle_a.yaml"
    ],
    "manifest_cycle_b.yaml": ["task_subset: manifest cycle: "],
    "manifest_missing_task.yaml": [
        f"task_files[1]: file not found: {MALFORMED.as_posix()}/no_such_task.yaml"
    ],
    "missing_pattern.yaml": ["oracles[2].pattern: required by assertion_exists"],
    "negative_weight.yaml": ["checks[0].weight: must be >= 0.0, got -1"],
    "no_workspace_no_fixture.yaml": ["workspace: required", "fixture: <dir>"],
    "oracles_and_checks.yaml": ["checks: give either 'oracles' or 'checks', not both"],
    "protected_path_not_in_workspace.yaml": [
        "oracles[1].path: 'tests/test_calc.py' is not in the initial workspace "
        "(task-authoring error)"
    ],
    "root_unknown_check.yaml": ["checks[1].root: no check with id 'compiles' in this task"],
    "top_level_list.yaml": ["a task file holds an object, not list"],
    "trajectory_steps_not_list.yaml": ["steps: must be a list of step objects, got"],
    "trajectory_write_without_path.json": ["steps[1].args.path: required for file tool 'Write'"],
    "trajectory_replace_all_string.json": [
        "steps[0].args.replace_all: must be true or false, got str"
    ],
    "trajectory_nul_in_path.json": ["steps[0].args.path: must not contain a NUL byte"],
    "yaml_alias_bomb.yaml": ["aliases expand to more than 10000 extra nodes"],
    "yaml_recursive_alias.yaml": ["an alias refers to a node that contains it at line 8"],
    "json_too_deep.json": ["tags[0][0]: nesting deeper than 100 levels"],
    "yaml_too_deep.yaml": ["nesting deeper than 100 levels at line 8"],
    "integer_beyond_64_bits.yaml": ["checks[0].min_bytes: integer beyond 64 bits"],
    "trajectory_huge_integer.json": ["steps[0].args.limit: integer beyond 64 bits"],
    "nonfinite_weight.yaml": ["checks[0].weight: must be a finite number, got inf"],
    "nonfinite_weight_json.json": ["oracles[0].weight: must be a finite number, got nan"],
    "string_boolean.yaml": ["checks[0].critical: must be true or false, got str"],
    "string_number_weight.yaml": ["checks[0].weight: must be a number, got str"],
    "nul_in_check_path.json": ["oracles[0].path: must not contain a NUL byte"],
    "task_id_path_traversal.yaml": ["id: must not contain '/' or '\\'"],
    "workspace_file_and_directory.yaml": [
        "workspace[\"lib/util.py\"]: conflicts with 'lib' (one path, a file and a directory)"
    ],
    "assertion_path_absolute.yaml": [
        "checks[0].path: must be a relative path inside the workspace, got '/etc/passwd'"
    ],
    "unknown_phase.yaml": ["checks[0].phase: the task has no phase 'plan' (phases: p1_plan,"],
    "manifest_nul_path.json": ["task_files[0]: must be a path string (no NUL bytes)"],
    "unknown_check_type.yaml": [
        "oracles[1].type: unknown check type 'assert_exists'; known: ",
        "assertion_exists",
        "test_must_pass",
    ],
    "unknown_field_typo.yaml": ["orcales: unknown field"],
    "workspace_escape.yaml": ['workspace["../escape.py"]: path escapes the workspace root'],
    "duplicate_key.yaml": ["duplicate key 'oracles' at line"],
    "task_with_steps_key.yaml": ["steps: unknown field"],
    "root_is_itself.yaml": ["checks[0].root: a check cannot be its own root"],
    "fixture_contains_task.yaml": ["fixture: must not contain the task file itself"],
    "manifest_lists_trajectory.yaml": [
        f"task_files: {MALFORMED.as_posix()}/trajectory_write_without_path.json is a trajectory"
    ],
}


def _shown(name: str) -> str:
    return (MALFORMED / name).as_posix()


def _assert_reported(name: str, lines: list[str]) -> None:
    """The first expected fragment follows the file's path on a line; the others appear too."""
    prefix = f"{_shown(name)}: "
    mine = [line.removeprefix("error: ") for line in lines]
    mine = [line for line in mine if line.startswith(prefix)]
    assert mine, f"no line names {_shown(name)}:\n" + "\n".join(lines)
    first, *others = EXPECTED[name]
    assert any(line.startswith(prefix + first) for line in mine), (first, mine)
    for fragment in others:
        assert any(fragment in line for line in mine), (fragment, mine)


def test_every_malformed_file_has_an_expectation():
    on_disk = {p.name for p in (REPO / MALFORMED).iterdir() if p.is_file()}
    assert on_disk == set(EXPECTED), (
        f"without expectation: {sorted(on_disk - set(EXPECTED))}; "
        f"expected but missing: {sorted(set(EXPECTED) - on_disk)}"
    )


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_validate_cli_rejects_with_field_path(cli, name):
    proc = cli("validate", _shown(name), cwd=REPO)
    assert proc.returncode == EXIT_INVALID, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert all(line.startswith(f"error: {_shown(name)}: ") for line in lines), lines
    _assert_reported(name, lines)


def test_validating_the_whole_directory_reports_every_file_in_process(registry, monkeypatch):
    monkeypatch.chdir(REPO)
    with pytest.raises(SpecErrors) as caught:
        validate_documents([MALFORMED], registry)
    assert caught.value.exit_code == EXIT_INVALID
    assert len(caught.value.errors) == len(EXPECTED)  # one SpecError per file, none valid
    lines = caught.value.lines()
    for name in EXPECTED:
        _assert_reported(name, lines)


@pytest.mark.parametrize(
    ("name", "field", "message"),
    [
        ("missing_pattern.yaml", "oracles[2].pattern", "required"),
        ("negative_weight.yaml", "checks[0].weight", "must be >= 0.0, got -1"),
        ("workspace_escape.yaml", 'workspace["../escape.py"]', "path escapes the workspace root"),
        ("unknown_field_typo.yaml", "orcales", "unknown field"),
    ],
)
def test_load_task_problems_in_process(registry, monkeypatch, name, field, message):
    monkeypatch.chdir(REPO)
    with pytest.raises(SpecError) as caught:
        load_task(MALFORMED / name, registry)
    assert caught.value.source == _shown(name)
    assert any(f == field and m.startswith(message) for f, m in caught.value.problems), (
        caught.value.problems
    )


def test_unknown_check_type_lists_every_known_type(registry, monkeypatch):
    monkeypatch.chdir(REPO)
    with pytest.raises(SpecError) as caught:
        load_task(MALFORMED / "unknown_check_type.yaml", registry)
    [(field, message)] = caught.value.problems
    assert field == "oracles[1].type"
    for known in registry.names():
        assert known in message


def test_trajectory_and_manifest_problems_in_process(monkeypatch):
    monkeypatch.chdir(REPO)
    with pytest.raises(SpecError) as caught:
        load_trajectory(MALFORMED / "trajectory_write_without_path.json")
    assert [f for f, _ in caught.value.problems] == ["steps[1].args.path"]
    with pytest.raises(SpecError) as caught:
        load_manifest(MALFORMED / "manifest_cycle_b.yaml")
    assert caught.value.problems[0][0] == "task_subset"
    assert "manifest cycle" in caught.value.problems[0][1]
