"""Suite files and the task fields trials use: tiers, classes, and refusals before any run."""

from __future__ import annotations

import pytest

from benchwright.dsl import load_suite, validate_documents
from benchwright.errors import SpecError, SpecErrors

from .minisuites import MINISUITE, make_suite

FILE = {"type": "file_exists", "path": "a.txt"}


def _problems(exc: SpecError | SpecErrors) -> list[str]:
    return exc.lines()


def test_the_minisuite_loads_with_one_tier_per_task():
    suite = load_suite(MINISUITE)
    assert suite.name == "minisuite" and suite.budget_s == 30
    assert suite.tiers == {"edit-rename": "correctness", "fix-double": "correctness",
                           "longctx-summary": "latency", "nav-count": "correctness",
                           "phased-plan": "correctness"}  # fmt: skip
    phased = suite.task("phased-plan")
    assert [(p.name, p.budget_s) for p in phased.phases] == [
        ("p1_plan", 20.0),
        ("p2_implementation", None),
    ]
    assert phased.prompt.startswith("Write docs/PLAN.md")
    assert "oracle_triple.py" in phased.stamp
    assert set(suite.task("edit-rename").stamp) == {"tests/oracle_rename.py"}


def test_validate_reads_the_suite_file_and_skips_stamps_and_solutions():
    kinds = sorted(v.kind for v in validate_documents([MINISUITE]))
    assert kinds == ["suite", "task", "task", "task", "task", "task"]


def test_oracle_presence_decides_the_tier_before_build_only_classes(tmp_path):
    tasks = [
        {"id": "b", "class": "build", "workspace": {"a.txt": "a"}, "checks": [FILE]},
        {"id": "l", "class": "build", "checks": []},
    ]
    suite = load_suite(make_suite(tmp_path, tasks, build_only_classes=["build"]))
    assert suite.tiers == {"b": "build", "l": "latency"}
    assert dict(suite.task("l").files) == {}


def test_a_task_with_an_oracle_but_no_fixture_is_refused(tmp_path):
    make_suite(tmp_path, [{"id": "t", "class": "c", "checks": [FILE]}])
    with pytest.raises(SpecErrors) as caught:
        load_suite(tmp_path)
    assert "tasks/t.yaml: workspace: required" in _problems(caught.value)[0]


def test_guards_alone_are_not_an_oracle(tmp_path):
    task = {
        "id": "t",
        "class": "c",
        "workspace": {"a.txt": "a"},
        "checks": [{"type": "no_network"}],
    }
    make_suite(tmp_path, [task])
    with pytest.raises(SpecErrors) as caught:
        load_suite(tmp_path)
    assert "checks: every check is a guard" in _problems(caught.value)[0]


@pytest.mark.parametrize(
    ("task", "problem"),
    [
        ({"class": "nope"}, "class: unknown class 'nope'; known: c"),
        ({"class": None}, "class: required in a suite"),
        ({"id": "a b"}, "id: must match [A-Za-z0-9][A-Za-z0-9._-]* in a suite"),
        ({"id": "a/b"}, "id: must not contain '/' or '\\' (a task id names its run directory)"),
        ({"stamp": {"../x": "y"}}, 'stamp["../x"]: path escapes the workspace root'),
        ({"stamp": {".benchwright/answer.txt": "y"}}, "which the harness owns"),
        ({"solution": "missing"}, "solution: no such directory or script"),
        ({"solution": {"answer": "x", "extra": 1}}, "solution.extra: unknown field"),
        ({"phases": [{"name": "P 1", "prompt": "x"}]}, "phases[0].name: required: lower-case"),
        ({"phases": [{"name": "a", "prompt": "x"}, {"name": "a", "prompt": "y"}]},
         "phases[1].name: duplicate phase name 'a'"),
        ({"budget": 0}, "budget: must be > 0"),
    ],
)  # fmt: skip
def test_invalid_task_fields_name_the_file_and_field(tmp_path, task, problem):
    doc = {"id": "t", "class": "c", "workspace": {"a.txt": "a"}, "checks": [FILE], **task}
    if doc["class"] is None:
        del doc["class"]
    make_suite(tmp_path, [doc], classes={"c": "c"})
    with pytest.raises((SpecError, SpecErrors)) as caught:
        load_suite(tmp_path)
    assert any(problem in line for line in _problems(caught.value)), _problems(caught.value)


@pytest.mark.parametrize(
    ("suite", "problem"),
    [
        ({"build_only_classes": ["x"]}, "build_only_classes: 'x' is not a key of 'classes'"),
        ({"tasks": ["none/*.yaml"]}, "tasks[0]: 'none/*.yaml' matches no file"),
        ({"colour": "red"}, "colour: unknown field"),
    ],
)
def test_invalid_suite_files_name_the_field(tmp_path, suite, problem):
    make_suite(tmp_path, [{"id": "t", "class": "c", "checks": []}], **suite)
    with pytest.raises(SpecError) as caught:
        load_suite(tmp_path)
    assert any(problem in line for line in _problems(caught.value)), _problems(caught.value)


def test_default_class_is_the_class_of_tasks_that_declare_none(tmp_path):
    files = {"a.txt": "a"}
    tasks = [{"id": "bare", "checks": [FILE], "workspace": files},
             {"id": "own", "class": "c", "checks": [FILE], "workspace": files}]  # fmt: skip
    make_suite(tmp_path, tasks, classes={"c": "c", "d": "d"}, default_class="d")
    suite = load_suite(tmp_path)
    assert (suite.task("bare").task_class, suite.task("own").task_class) == ("d", "c")


def test_a_default_class_must_be_one_of_the_classes(tmp_path):
    make_suite(tmp_path, [{"id": "t", "checks": [FILE]}], classes={"c": "c"}, default_class="x")
    with pytest.raises(SpecError) as caught:
        load_suite(tmp_path)
    assert "default_class: 'x' is not a key of 'classes'" in _problems(caught.value)[0]


def test_without_a_default_class_a_task_without_one_is_refused(tmp_path):
    make_suite(tmp_path, [{"id": "t", "checks": [FILE], "workspace": {"a.txt": "a"}}],
               classes={"c": "c"})  # fmt: skip
    with pytest.raises((SpecError, SpecErrors)) as caught:
        load_suite(tmp_path)
    assert (
        "class: required in a suite (one of the suite's classes, or the suite's default_class)"
        in ("\n".join(_problems(caught.value)))
    )
