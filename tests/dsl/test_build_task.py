"""The build task of an executed-app suite: a prompt file rendered from the build vendor's
profile, an explicitly empty workspace, the vendor's name; each mistake named by field."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from benchwright.dsl import load_suite
from benchwright.errors import SpecError, SpecErrors
from benchwright.execution import plan_run

ROOT = Path(__file__).resolve().parents[2]
CHECK = {"type": "file_exists", "path": "app.py"}


def _suite(root: Path, task: dict, spec: str = 'Use {BASE_URL} and {"k": {API_KEY}}\n') -> Path:
    (root / "tasks").mkdir(parents=True)
    (root / "spec.md").write_text(spec)
    (root / "suite.yaml").write_text(yaml.safe_dump({
        "suite": "s", "classes": {"c": "c"}, "default_class": "c", "tasks": ["tasks/*.yaml"],
    }))  # fmt: skip
    (root / "tasks" / "t.yaml").write_text(yaml.safe_dump({"id": "t", "checks": [CHECK], **task}))
    return root


def _problems(root: Path) -> str:
    with pytest.raises((SpecError, SpecErrors)) as caught:
        load_suite(root)
    return str(caught.value)


def test_the_prompt_file_is_rendered_by_literal_replacement(tmp_path):
    root = _suite(tmp_path, {"prompt_file": "../spec.md", "workspace": "empty",
                             "vendor": "meridian"})  # fmt: skip
    task = load_suite(root).task("t")
    assert task.prompt == 'Use http://127.0.0.1:9003 and {"k": sk_test_meridian}\n'
    assert task.files == {} and task.empty_workspace and task.vendor == "meridian"


def test_vendor_meridian_v1_renders_the_v1_address(tmp_path):
    spec = "Docs {DOCS_URL}, base {BASE_URL}, key {API_KEY}\n"
    task = {"prompt_file": "../spec.md", "workspace": "empty", "vendor": "meridian-v1"}
    loaded = load_suite(_suite(tmp_path, task, spec)).task("t")
    assert loaded.prompt == (
        "Docs http://127.0.0.1:8787/v1/docs, base http://127.0.0.1:8787, key sk_test_meridian\n"
    )
    assert loaded.vendor == "meridian-v1"


def test_without_a_vendor_the_prompt_file_is_taken_as_written(tmp_path):
    root = _suite(tmp_path, {"prompt_file": "../spec.md", "workspace": {"a": "b"}})
    assert load_suite(root).task("t").prompt == 'Use {BASE_URL} and {"k": {API_KEY}}\n'


@pytest.mark.parametrize(
    ("task", "wanted"),
    [
        ({"prompt_file": "../../outside.md", "workspace": "empty"},
         "prompt_file: '../../outside.md' lies outside"),
        ({"prompt_file": "../nope.md", "workspace": "empty"}, "prompt_file: file not found"),
        ({"prompt_file": "../spec.md", "prompt": "x", "workspace": "empty"},
         "give either 'prompt' or 'prompt_file', not both"),
        ({"prompt": "x", "workspace": "empty", "vendor": "stripe"},
         "vendor: unknown vendor 'stripe'; known: meridian"),
        ({"prompt": "x", "workspace": "full"}, "workspace"),
        ({"prompt": "x", "workspace": "empty", "fixture": "."},
         "workspace: 'empty' and a 'fixture' exclude each other"),
    ],
)  # fmt: skip
def test_each_mistake_is_named_by_file_and_field(tmp_path, task, wanted):
    (tmp_path / "outside.md").write_text("x")
    message = _problems(_suite(tmp_path / "suite", task))
    assert "tasks/t.yaml" in message and wanted in message


def test_a_task_with_checks_and_no_files_is_still_refused_unless_it_says_empty(tmp_path):
    root = _suite(tmp_path, {"prompt": "x", "workspace": {}})
    message = _problems(root)
    assert "workspace: must not be empty" in message
    empty = _suite(tmp_path / "ok", {"prompt": "x", "workspace": "empty"})
    plan = plan_run(empty, "nop", out=tmp_path / "runs")  # accepted: it says so
    assert plan.task_ids == ["t"]


def test_the_shipped_vspro_suite_declares_one_build_task():
    suite = load_suite(ROOT / "suites" / "vspro")
    (task,) = suite.tasks
    assert suite.budget_s == 7200 and task.vendor == "meridian" and task.empty_workspace
    assert "{BASE_URL}" not in task.prompt and "http://127.0.0.1:9003/v2/docs" in task.prompt
    assert [(c.id, c.type) for c in task.checks] == [("vspro", "executed_app")]
