"""``suites/vendorsync`` as a runnable suite: one build task whose prompt is spec.md with
the meridian-v1 profile's address, docs URL and key rendered literally, an empty
workspace, and one ``executed_app`` check graded by the vendorsync grader."""

from __future__ import annotations

from pathlib import Path

from benchwright.dsl import load_suite
from benchwright.services.vendors import MERIDIAN_V1, TOKENS

SUITE = Path(__file__).resolve().parents[3] / "suites" / "vendorsync"


def test_the_build_task_renders_the_spec_from_the_v1_profile_and_is_graded_by_its_grader():
    suite = load_suite(SUITE)
    (task,) = suite.tasks
    assert (suite.name, task.id, task.vendor, task.empty_workspace) == (
        "vendorsync", "build", "meridian-v1", True,
    )  # fmt: skip
    assert task.prompt == MERIDIAN_V1.render((SUITE / "spec.md").read_text())
    assert not any(token in task.prompt for token in TOKENS)
    assert "`http://127.0.0.1:8787/v1/docs`" in task.prompt and "`sk_test_meridian`" in task.prompt
    (check,) = task.checks
    assert (check.type, check.id, check.params.suite) == (
        "executed_app",
        "vendorsync",
        "vendorsync",
    )
