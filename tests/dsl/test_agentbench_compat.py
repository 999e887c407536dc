"""AgentBench v0.1.0 files keep AgentBench's semantics; benchwright's own files stay strict."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from builders import dump

from benchwright.dsl import load_task, select_tasks
from benchwright.dsl.agentbench import is_agentbench_task
from benchwright.dsl.manifest import read_manifest
from benchwright.errors import SpecError


def ab_task(task_id: str = "t", **fields: Any) -> dict[str, Any]:
    """A task document in AgentBench's shape (every key it requires)."""
    return {
        "id": task_id,
        "name": f"task {task_id}",
        "description": "written for this test",
        "prompt": "p",
        "workspace": {"a.py": "x = 1\n"},
        "oracles": [{"type": "file_not_modified", "path": "a.py"}],
        **fields,
    }


# --- detection -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "name", "expected"),
    [
        (ab_task(), "t.json", True),
        (ab_task(tags=["x"]), "t.JSON", True),
        ({k: v for k, v in ab_task().items() if k not in ("name", "description")}, "t.json", True),
        (ab_task(), "t.yaml", False),  # AgentBench reads JSON only: YAML is ours
        (ab_task(budget=5), "t.json", False),  # a benchwright-only key makes it ours
        ({k: v for k, v in ab_task().items() if k != "workspace"}, "t.json", False),
    ],
)
def test_detection_by_keys_and_suffix(doc, name, expected):
    assert is_agentbench_task(doc, Path(name)) is expected


# --- unknown oracle keys ---------------------------------------------------------------------


def test_unknown_oracle_keys_are_kept_as_parameters_with_a_warning_naming_them(tmp_path):
    oracles = [
        {"type": "file_not_modified", "path": "a.py", "reason": "frozen", "owner": "qa"},
        {"type": "no_network"},
    ]
    task = load_task(dump(tmp_path / "t.json", ab_task(oracles=oracles)))
    [warning] = task.warnings
    assert warning.endswith(
        "t.json: oracles[0]: unknown key(s) 'owner', 'reason' kept as parameters "
        "(AgentBench compatibility; no check reads them)"
    )
    params = task.checks[0].params
    assert params.model_extra == {"reason": "frozen", "owner": "qa"}
    assert params.path == "a.py"  # the known key is validated as before
    assert task.checks[1].params.model_extra in (None, {})


def test_a_benchwright_only_check_type_stays_strict_in_an_agentbench_file(tmp_path):
    oracles = [{"type": "pattern_absent", "patterns": ["x"], "path": "a.py"}]
    with pytest.raises(SpecError) as caught:
        load_task(dump(tmp_path / "t.json", ab_task(oracles=oracles)))
    [(field, message)] = caught.value.problems
    assert field == "oracles[0].path"
    assert message.startswith("unknown field for pattern_absent")


def test_known_parameters_are_still_validated_in_an_agentbench_file(tmp_path):
    oracles = [{"type": "assertion_exists", "path": "a.py", "extra": 1}]  # no pattern
    with pytest.raises(SpecError) as caught:
        load_task(dump(tmp_path / "t.json", ab_task(oracles=oracles)))
    assert ("oracles[0].pattern", "required by assertion_exists") in caught.value.problems


def test_unknown_oracle_type_is_still_an_error(tmp_path):
    with pytest.raises(SpecError) as caught:
        load_task(dump(tmp_path / "t.json", ab_task(oracles=[{"type": "max_lines"}])))
    [(field, message)] = caught.value.problems
    assert field == "oracles[0].type"
    assert "max_lines" in message


def test_our_yaml_refuses_the_same_unknown_key(tmp_path):
    doc = ab_task(oracles=[{"type": "file_not_modified", "path": "a.py", "reason": "frozen"}])
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(doc))
    with pytest.raises(SpecError) as caught:
        load_task(path)
    [(field, message)] = caught.value.problems
    assert field == "oracles[0].reason"
    assert message.startswith("unknown field for file_not_modified")


def test_a_json_task_with_a_benchwright_key_stays_strict(tmp_path):
    doc = ab_task(oracles=[{"type": "no_network", "reason": "x"}], budget=30)
    with pytest.raises(SpecError) as caught:
        load_task(dump(tmp_path / "t.json", doc))
    assert [f for f, _ in caught.value.problems] == ["oracles[0].reason"]


# --- name ------------------------------------------------------------------------------------


def test_an_agentbench_task_without_name_is_rejected(tmp_path):
    doc = {k: v for k, v in ab_task().items() if k != "name"}
    with pytest.raises(SpecError) as caught:
        load_task(dump(tmp_path / "t.json", doc))
    assert caught.value.problems == [("name", "required (an AgentBench task file names its task)")]


def test_a_strict_file_without_name_defaults_to_the_id(tmp_path):
    doc = {k: v for k, v in ab_task("plain").items() if k != "name"}
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(doc))
    task = load_task(path)
    assert (task.name, task.warnings) == ("plain", ())


# --- manifests -------------------------------------------------------------------------------


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """AgentBench's layout: tasks/ with a manifest chaining to a list kept in benchmarks/."""
    for name in ("one", "two"):
        dump(tmp_path / "tasks" / f"{name}.json", ab_task(name))
    dump(tmp_path / "benchmarks" / "subset.json", {"note": "x", "task_files": ["two.json"]})
    dump(tmp_path / "tasks" / "manifest.json", {"task_subset": "../benchmarks/subset.json"})
    return tmp_path


def test_task_files_are_found_in_the_tasks_dir_first(corpus):
    notes: list[str] = []
    tasks = select_tasks(corpus / "tasks", corpus / "tasks" / "manifest.json", on_note=notes.append)
    assert [t.id for t in tasks] == ["two"]
    [note] = notes
    assert note.startswith("manifest ")
    assert note.endswith(
        "benchmarks/subset.json: 1 task file(s) found in --tasks " + str(corpus / "tasks")
    )


def test_without_a_tasks_dir_the_agentbench_manifest_cannot_find_its_files(corpus):
    with pytest.raises(SpecError) as caught:
        select_tasks(None, corpus / "tasks" / "manifest.json")
    [(field, message)] = caught.value.problems
    assert field == "task_files[0]"
    assert message == f"file not found: {corpus / 'benchmarks' / 'two.json'}"


def test_falls_back_beside_the_manifest_and_says_so(corpus):
    dump(corpus / "tasks" / "gates" / "pr.json", {"task_files": ["../one.json"]})
    selection = read_manifest(corpus / "tasks" / "gates" / "pr.json", corpus / "tasks")
    assert selection.files == [(corpus / "tasks" / "one.json").resolve()]
    assert selection.note.endswith(
        f"1 task file(s) found beside the manifest (not in --tasks {corpus / 'tasks'})"
    )


def test_a_mixed_manifest_counts_both_places(corpus):
    dump(corpus / "tasks" / "gates" / "pr.json", {"task_files": ["../one.json", "two.json"]})
    note = read_manifest(corpus / "tasks" / "gates" / "pr.json", corpus / "tasks").note
    assert note.endswith(f"1 in --tasks {corpus / 'tasks'}, 1 beside the manifest (not in --tasks)")


def test_the_tasks_dir_wins_when_both_places_hold_the_file(corpus):
    dump(corpus / "benchmarks" / "two.json", ab_task("two-beside"))
    tasks = select_tasks(corpus / "tasks", corpus / "benchmarks" / "subset.json")
    assert [t.id for t in tasks] == ["two"]


def test_a_file_in_neither_place_names_both(corpus):
    dump(corpus / "benchmarks" / "bad.json", {"task_files": ["nope.json"]})
    with pytest.raises(SpecError) as caught:
        read_manifest(corpus / "benchmarks" / "bad.json", corpus / "tasks")
    [(field, message)] = caught.value.problems
    assert field == "task_files[0]"
    assert message == (
        f"file not found: {corpus / 'tasks' / 'nope.json'} or {corpus / 'benchmarks' / 'nope.json'}"
    )
