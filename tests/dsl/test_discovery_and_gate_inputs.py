"""Finding suite documents, and assembling a gate's tasks and trajectories."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from builders import dump

from benchwright.dsl import (
    SKIPPED_DIRS,
    document_kind,
    load_manifest,
    load_tasks,
    pair_trajectories,
    select_tasks,
    skipped_line,
    validate_documents,
)
from benchwright.dsl.discover import IN_FIXTURE, NEVER_READ, REPORT, UNLISTED
from benchwright.errors import EXIT_INVALID, SpecError, SpecErrors


def task_doc(task_id: str, **fields: Any) -> dict[str, Any]:
    return {
        "id": task_id,
        "name": f"task {task_id}",
        "description": "",
        "prompt": "p",
        "workspace": {"a.py": "x = 1\n"},
        "oracles": [{"type": "no_network"}],
        **fields,
    }


TRAJECTORY = {"metadata": {"agent": "test"}, "steps": [{"tool": "Read", "args": {"path": "a"}}]}


def _all_lines(exc: SpecError | SpecErrors) -> str:
    return "\n".join(exc.lines())


# --- classification and discovery ---------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        (task_doc("t"), "task"),
        ({"steps": []}, "trajectory"),
        ({"task_files": ["a.json"]}, "manifest"),
        ({"task_subset": "m.yaml"}, "manifest"),
        ([1, 2], "task"),  # validated as a task, so it fails as one
        (None, "task"),
    ],
)
def test_document_kind(raw, kind):
    assert document_kind(raw) == kind


def test_validate_documents_classifies_each_file(tmp_path, registry):
    dump(tmp_path / "tasks" / "a.json", task_doc("a"))
    (tmp_path / "tasks" / "b.yaml").write_text(
        "id: b\nprompt: p\nworkspace: {a.py: x}\nchecks: [{type: no_network}]\n"
    )
    dump(tmp_path / "trajectories" / "a.json", TRAJECTORY)
    (tmp_path / "manifest.yml").write_text("task_files: [tasks/a.json]\n")
    (tmp_path / "notes.txt").write_text("not a document\n")
    found = validate_documents([tmp_path], registry)
    kinds = {v.path.relative_to(tmp_path).as_posix(): v.kind for v in found}
    assert kinds == {
        "manifest.yml": "manifest",
        "tasks/a.json": "task",
        "tasks/b.yaml": "task",
        "trajectories/a.json": "trajectory",
    }


def test_validate_documents_accepts_files_and_dirs_mixed(tmp_path, registry):
    a = dump(tmp_path / "a.json", task_doc("a"))
    dump(tmp_path / "more" / "b.json", task_doc("b"))
    found = validate_documents([a, tmp_path / "more"], registry)
    assert [v.path.name for v in found] == ["a.json", "b.json"]


def test_validate_documents_reports_every_invalid_file(tmp_path, registry):
    dump(tmp_path / "a.json", task_doc("a", oracles=[]))
    dump(tmp_path / "b.json", task_doc("b"))
    dump(tmp_path / "c.json", {"steps": "nope"})
    with pytest.raises(SpecErrors) as caught:
        validate_documents([tmp_path], registry)
    assert caught.value.exit_code == EXIT_INVALID
    assert [e.source.rsplit("/", 1)[-1] for e in caught.value.errors] == ["a.json", "c.json"]


@pytest.mark.parametrize("skipped", sorted(SKIPPED_DIRS | {".hidden", ".git"}))
def test_fixture_and_hidden_dirs_are_not_suite_documents(tmp_path, registry, skipped):
    dump(tmp_path / "a.json", task_doc("a"))
    # A fixture's own JSON (package.json, tsconfig.json...) would fail as a task.
    dump(tmp_path / skipped / "package.json", {"name": "fixture", "version": "1.0.0"})
    dump(tmp_path / "nested" / skipped / "deeper" / "x.json", {"not": "a task"})
    found = validate_documents([tmp_path], registry)
    assert [v.path.name for v in found if v.skipped is None] == ["a.json"]
    skipped = [] if skipped.startswith(".") or skipped in NEVER_READ else ["package.json", "x.json"]
    assert sorted(v.path.name for v in found if v.skipped == IN_FIXTURE) == skipped
    assert [t.id for t in load_tasks([tmp_path], registry)] == ["a"]


# -- what validate DIR skips, and says it skipped (issue 18) ----------------------------


def test_benchwrights_own_reports_are_skipped_and_counted(tmp_path, registry, cli):
    dump(tmp_path / "tasks" / "a.json", task_doc("a"))
    dump(tmp_path / "t.json", TRAJECTORY)
    gate = cli("gate", "--tasks", "tasks", "--trajectory", "t.json", "--json", "tasks/r.json",
               "--junit", "tasks/r.xml")  # fmt: skip
    assert gate.returncode in (0, 1) and (tmp_path / "tasks" / "r.xml").is_file(), gate.stderr
    dump(tmp_path / "tasks" / "card.json", {"schema_version": "1", "scorer_version": "x"})
    dump(tmp_path / "tasks" / "summary.json", {"schema_version": 1, "run_id": "r", "tiers": {}})
    found = validate_documents([tmp_path / "tasks"], registry)
    assert sorted(v.path.name for v in found if v.skipped == REPORT) == [
        "card.json",
        "r.json",
        "summary.json",
    ]
    assert skipped_line(found) == (
        "skipped 3 file(s) that are not suite documents: 3 benchwright reports"
    )
    proc = cli("validate", "tasks")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "valid: 1 task",
        "skipped 3 file(s) that are not suite documents: 3 benchwright reports",
    ]


def test_a_near_miss_report_is_still_validated_as_a_task(tmp_path, registry):
    dump(tmp_path / "x.json", {"schema_version": 1, "prompt": "p"})  # no report shape
    with pytest.raises(SpecErrors) as caught:
        validate_documents([tmp_path], registry)
    assert "x.json" in caught.value.errors[0].source


def test_files_inside_a_tasks_fixture_folder_are_skipped(tmp_path, registry):
    dump(tmp_path / "proj" / ".ci" / "ci.json", {"jobs": 1})  # hidden: never read
    dump(tmp_path / "proj" / "ci" / "pipeline.yml", {"on": "push"})
    dump(tmp_path / "proj" / "app.json", {"name": "app"})
    (tmp_path / "proj" / "main.py").write_text("print(1)\n")
    (tmp_path / "a.yaml").write_text(
        "id: a\nprompt: p\nfixture: proj\nchecks: [{type: no_network}]\n"
    )
    found = validate_documents([tmp_path], registry)
    assert [(v.path.name, v.skipped) for v in found] == [
        ("a.yaml", None),
        ("app.json", IN_FIXTURE),
        ("pipeline.yml", IN_FIXTURE),
    ]


def test_a_suite_decides_which_task_shaped_files_are_its_tasks(tmp_path, registry):
    (tmp_path / "suite.yaml").write_text(
        "suite: s\nclasses: {c: c}\ndefault_class: c\ntasks: [tasks/*.json]\n"
    )
    dump(tmp_path / "tasks" / "a.json", task_doc("a"))
    dump(tmp_path / "selftest" / "expect.json", {"prompt": "not a task at all"})
    dump(tmp_path / "trajectories" / "a.json", TRAJECTORY)
    found = validate_documents([tmp_path], registry)
    assert {v.path.relative_to(tmp_path).as_posix(): v.skipped for v in found} == {
        "suite.yaml": None, "tasks/a.json": None, "trajectories/a.json": None,
        "selftest/expect.json": UNLISTED,
    }  # fmt: skip
    # Without the suite file, the same file is a broken task again.
    (tmp_path / "suite.yaml").unlink()
    with pytest.raises(SpecErrors):
        validate_documents([tmp_path], registry)


def test_a_file_named_on_the_command_line_is_always_validated(tmp_path, registry):
    report = dump(tmp_path / "fixtures" / "r.json", {"schema_version": 1, "run_id": "x"})
    with pytest.raises(SpecErrors):
        validate_documents([report], registry)


def test_a_dir_named_like_a_fixture_is_still_read_when_given_explicitly(tmp_path, registry):
    dump(tmp_path / "fixtures" / "a.json", task_doc("a"))
    assert [t.id for t in load_tasks([tmp_path / "fixtures"], registry)] == ["a"]


def test_missing_path_is_an_error(tmp_path, registry):
    with pytest.raises(SpecError, match="no such file or directory"):
        validate_documents([tmp_path / "nope"], registry)


# --- load_tasks ---------------------------------------------------------------------------


def test_load_tasks_on_an_empty_dir_finds_no_task(tmp_path, registry):
    (tmp_path / "empty").mkdir()
    with pytest.raises(SpecError) as caught:
        load_tasks([tmp_path / "empty"], registry)
    assert caught.value.exit_code == EXIT_INVALID
    assert "no task file found" in str(caught.value)
    assert "empty" in caught.value.source


def test_load_tasks_with_only_trajectories_and_fixtures_finds_no_task(tmp_path, registry):
    dump(tmp_path / "traj.json", TRAJECTORY)
    dump(tmp_path / "fixtures" / "a.json", task_doc("a"))
    with pytest.raises(SpecError, match="no task file found"):
        load_tasks([tmp_path], registry)


def test_load_tasks_skips_trajectories_and_manifests(tmp_path, registry):
    dump(tmp_path / "a.json", task_doc("a"))
    dump(tmp_path / "a.trajectory.json", TRAJECTORY)
    (tmp_path / "m.yaml").write_text("task_files: [a.json]\n")
    assert [t.id for t in load_tasks([tmp_path], registry)] == ["a"]


def test_load_tasks_reports_every_invalid_task(tmp_path, registry):
    dump(tmp_path / "a.json", task_doc("a", oracles=[{"type": "nope"}]))
    dump(tmp_path / "b.json", task_doc("b", workspace={}))
    dump(tmp_path / "c.json", task_doc("c"))
    with pytest.raises(SpecErrors) as caught:
        load_tasks([tmp_path], registry)
    text = _all_lines(caught.value)
    assert "a.json: oracles[0].type: unknown check type 'nope'" in text
    assert "b.json: workspace: must not be empty" in text
    assert "c.json" not in text


def test_duplicate_task_ids_across_files_name_both_files(tmp_path, registry):
    dump(tmp_path / "first.json", task_doc("same"))
    dump(tmp_path / "second" / "again.json", task_doc("same"))
    with pytest.raises(SpecError) as caught:
        load_tasks([tmp_path], registry)
    message = str(caught.value)
    assert "duplicate task id 'same'" in message
    assert "first.json" in message
    assert "again.json" in message
    assert caught.value.problems[0][0] == "id"


# --- manifests and select_tasks -----------------------------------------------------------


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    for name in ("a", "b", "c"):
        dump(tmp_path / "tasks" / f"{name}.json", task_doc(name))
    return tmp_path


def test_select_tasks_without_manifest_loads_the_dir(suite, registry):
    assert [t.id for t in select_tasks(suite / "tasks", None, registry)] == ["a", "b", "c"]


def test_select_tasks_needs_tasks_or_manifest(registry):
    with pytest.raises(SpecError, match="--tasks DIR or --manifest FILE"):
        select_tasks(None, None, registry)


def test_manifest_selects_its_task_files_relative_to_itself(suite, registry):
    manifest = suite / "gates" / "pr.yaml"
    manifest.parent.mkdir()
    manifest.write_text("task_files:\n  - ../tasks/c.json\n  - ../tasks/a.json\n")
    tasks = select_tasks(suite / "tasks", manifest, registry)
    assert [t.id for t in tasks] == ["c", "a"]  # manifest order
    assert [t.id for t in select_tasks(None, manifest, registry)] == ["c", "a"]


def test_task_subset_chains_resolve_relative_to_each_manifest(suite, registry):
    (suite / "gates" / "inner").mkdir(parents=True)
    (suite / "gates" / "inner" / "base.yaml").write_text("task_files: [../../tasks/b.json]\n")
    (suite / "gates" / "middle.json").write_text('{"task_subset": "inner/base.yaml"}')
    (suite / "top.yaml").write_text("task_subset: gates/middle.json\n")
    assert load_manifest(suite / "top.yaml") == [(suite / "tasks" / "b.json").resolve()]
    assert [t.id for t in select_tasks(suite / "tasks", suite / "top.yaml", registry)] == ["b"]


def test_manifest_self_reference_is_a_cycle(tmp_path):
    (tmp_path / "m.yaml").write_text("task_subset: ./m.yaml\n")
    with pytest.raises(SpecError, match="manifest cycle"):
        load_manifest(tmp_path / "m.yaml")


def test_manifest_task_file_outside_tasks_dir_is_an_error(suite, registry):
    dump(suite / "elsewhere" / "x.json", task_doc("x"))
    manifest = suite / "m.yaml"
    manifest.write_text("task_files: [tasks/a.json, elsewhere/x.json]\n")
    with pytest.raises(SpecError) as caught:
        select_tasks(suite / "tasks", manifest, registry)
    [(field, message)] = caught.value.problems
    assert field == "task_files"
    assert "elsewhere/x.json is not under --tasks" in message
    assert caught.value.source.endswith("m.yaml")


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        ("task_files: []\n", "task_files", "non-empty list"),
        ("task_files: a.json\n", "task_files", "non-empty list"),
        ("task_files: [1]\n", "task_files[0]", "must be a path string"),
        ("task_subset: 3\n", "task_subset", "must be a manifest path"),
        ("task_subset: missing.yaml\n", "", "file not found"),
        ("task_files: [a.json]\ntask_subset: m2.yaml\n", "", "not both"),
    ],
)
def test_malformed_manifests(tmp_path, text, field, message):
    dump(tmp_path / "a.json", task_doc("a"))
    (tmp_path / "m.yaml").write_text(text)
    with pytest.raises(SpecError) as caught:
        load_manifest(tmp_path / "m.yaml")
    [(got_field, got_message)] = caught.value.problems
    assert got_field == field
    assert message in got_message


def test_manifest_listing_a_file_twice_names_the_entry(suite):
    (suite / "m.yaml").write_text("task_files: [tasks/a.json, tasks/b.json, ./tasks/a.json]\n")
    with pytest.raises(SpecError) as caught:
        load_manifest(suite / "m.yaml")
    [(field, message)] = caught.value.problems
    assert field == "task_files[2]"
    assert "task_files[0]" in message


# --- pair_trajectories --------------------------------------------------------------------


def test_a_trajectory_file_is_shared_by_every_task(suite, registry):
    tasks = select_tasks(suite / "tasks", None, registry)
    shared = dump(suite / "t.json", TRAJECTORY)
    pairs = pair_trajectories(tasks, shared)
    assert [task.id for task, _ in pairs] == ["a", "b", "c"]
    assert len({id(trajectory) for _, trajectory in pairs}) == 1


def test_a_trajectory_dir_holds_one_file_per_task_id(suite, registry):
    tasks = select_tasks(suite / "tasks", None, registry)
    dump(suite / "traj" / "a.json", {"steps": [], "metadata": {"for": "a"}})
    (suite / "traj" / "b.yaml").write_text("metadata: {for: b}\nsteps: []\n")
    dump(suite / "traj" / "c.json", {"steps": [], "metadata": {"for": "c"}})
    dump(suite / "traj" / "unrelated.json", {"steps": "not even valid"})
    pairs = pair_trajectories(tasks, suite / "traj")
    assert [(task.id, trajectory.metadata["for"]) for task, trajectory in pairs] == [
        ("a", "a"),
        ("b", "b"),
        ("c", "c"),
    ]


def test_missing_per_task_trajectory_names_every_such_task(suite, registry):
    tasks = select_tasks(suite / "tasks", None, registry)
    dump(suite / "traj" / "b.json", TRAJECTORY)
    with pytest.raises(SpecErrors) as caught:
        pair_trajectories(tasks, suite / "traj")
    text = _all_lines(caught.value)
    assert "no trajectory for task 'a' (a.json|.yaml)" in text
    assert "no trajectory for task 'c'" in text
    assert "'b'" not in text


def test_invalid_per_task_trajectory_names_its_file(suite, registry):
    tasks = select_tasks(suite / "tasks", None, registry)
    for name in ("a", "b"):
        dump(suite / "traj" / f"{name}.json", TRAJECTORY)
    dump(suite / "traj" / "c.json", {"steps": [{"tool": "Write", "args": {"path": "x"}}]})
    with pytest.raises(SpecErrors) as caught:
        pair_trajectories(tasks, suite / "traj")
    assert "c.json: steps[0].args.content: required for write tool 'Write'" in _all_lines(
        caught.value
    )


def test_missing_shared_trajectory_file_is_an_error(suite, registry):
    tasks = select_tasks(suite / "tasks", None, registry)
    with pytest.raises(SpecError, match="file not found"):
        pair_trajectories(tasks, suite / "nope.json")


def test_a_fixture_holding_its_own_task_file_hides_nothing(tmp_path, registry):
    (tmp_path / "a.yaml").write_text("id: a\nprompt: p\nfixture: .\nchecks: [{type: no_network}]\n")
    dump(tmp_path / "b.json", {"prompt": "broken"})
    with pytest.raises(SpecErrors) as caught:  # both still reported: '.' is no fixture folder
        validate_documents([tmp_path], registry)
    assert sorted(e.source.rsplit("/", 1)[-1] for e in caught.value.errors) == ["a.yaml", "b.json"]
