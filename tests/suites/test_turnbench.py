"""The turn benchmark grades itself: every oracle can pass, and every oracle can fail.

Three runs of the real console script over ``suites/turnbench``, one per agent:

* ``oracle`` applies each task's reference solution: every correctness task passes;
* ``nop`` does nothing: every correctness task fails (failed, not errored);
* ``replay:suites/turnbench/wrong`` replays one plausible wrong attempt per
  correctness task (a blind nav answer, an incomplete rename, a fix that
  special-cases the test input…): every one fails, and exactly on the checks its
  metadata names in ``caught_by``.

Two smaller runs prove the oracles are not over-eager or naive: each refactor's
solution plus a comment naming the old name still passes (the greps look at
declarations and call sites only), and tampering with pytest's configuration
(a conftest.py that skips everything, collect-only addopts) passes nothing.

Latency tasks have no oracle: they complete under every agent and never enter a
pass rate. The structural tests hold the suite to its shape (class minimums,
anchored counts with named facts, stamped oracles, negative greps), and each nav
oracle is graded in process against blind and partial answers.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from builders import REPO

from benchwright.dsl import load_suite
from benchwright.execution import run_task
from benchwright.model import Suite, Task, Trajectory

SUITE = REPO / "suites" / "turnbench"
WRONG = SUITE / "wrong"
BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
GRADED_GLOB = "[efnr]*"
"""Selects the correctness tasks (edit-, fix-, nav-, refactor-) and no latency task:
`replay:DIR` needs a trajectory for every task it runs, and latency tasks have no
wrong attempt."""
MINIMUMS = {"nav": 10, "edit": 8, "refactor": 4, "fix": 6}
LATENCY_CLASSES = {"longctx", "longproc", "parallel"}
MIN_LATENCY = 6
COUNT = re.compile(r"count: (\d+)")


@cache
def suite() -> Suite:
    return load_suite(SUITE)


def tasks_in(tier: str) -> list[Task]:
    return [t for t in suite().tasks if suite().tiers[t.id] == tier]


def graded_ids() -> list[str]:
    return [t.id for t in tasks_in("correctness")]


def latency_ids() -> list[str]:
    return [t.id for t in tasks_in("latency")]


def checks_of(task: Task, type_: str) -> list[Any]:
    return [c for c in task.checks if c.type == type_]


def command_of(check: Any) -> str:
    return check.params.command


@dataclass
class Run:
    proc: subprocess.CompletedProcess[str]
    summary: dict[str, Any]
    results: dict[str, dict[str, Any]]
    """Task id → its (only) trial's ``result.json``."""

    def failing_checks(self, task_id: str) -> set[str]:
        return {c["check_id"] for c in self.results[task_id]["checks"] if c["status"] != "PASS"}


def run_suite(agent: str, out: Path, tasks: str = "*") -> Run:
    """One ``benchwright run`` of the suite; the summary and every trial's result."""
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    summary_file = out / "summary.json"
    proc = subprocess.run(
        [
            *(str(BENCHWRIGHT), "run", str(SUITE), "--agent", agent, "--tasks", tasks),
            *("--out", str(out / "runs"), "--json", str(summary_file)),
        ],
        cwd=out,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert summary_file.is_file(), proc.stdout + proc.stderr
    summary = json.loads(summary_file.read_text())
    trials = out / "runs" / summary["run_id"] / "trials"
    results = {
        task_id: json.loads((trials / task_id / "1" / "result.json").read_text())
        for task_id in summary["tasks"]
    }
    return Run(proc, summary, results)


@pytest.fixture(scope="module")
def oracle_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    return run_suite("oracle", tmp_path_factory.mktemp("oracle"))


@pytest.fixture(scope="module")
def nop_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    return run_suite("nop", tmp_path_factory.mktemp("nop"))


@pytest.fixture(scope="module")
def wrong_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    return run_suite(f"replay:{WRONG}", tmp_path_factory.mktemp("wrong"), GRADED_GLOB)


def wrong_metadata(task_id: str) -> dict[str, Any]:
    return json.loads((WRONG / f"{task_id}.json").read_text())["metadata"]


def detail(run: Run, task_id: str) -> str:
    result = run.results[task_id]
    checks = [(c["check_id"], c["status"], c["detail"]) for c in result["checks"]]
    return f"{task_id}: {result['verdict']} {result['error']} {checks} {result['replay_errors']}"


# --- end to end: the three agents -------------------------------------------------------


@pytest.mark.slow
def test_the_suite_validates(cli) -> None:
    done = cli("validate", str(SUITE))
    assert done.returncode == 0, done.stdout + done.stderr
    counts = f"{len(suite().tasks)} tasks, {len(list(WRONG.glob('*.json')))} trajectories"
    assert done.stdout.splitlines() == [
        f"valid: {counts}, 1 suite",
        # fixtures/, solutions/, stamps/: the tasks' files, not suite documents
        "skipped 12 file(s) that are not suite documents: 12 inside fixture or reference folders",
    ]


@pytest.mark.slow
def test_the_oracle_passes_every_graded_task(oracle_run: Run) -> None:
    summary = oracle_run.summary
    assert oracle_run.proc.returncode == 0, oracle_run.proc.stdout + oracle_run.proc.stderr
    assert summary["complete"]
    for task_id in graded_ids():
        assert summary["tasks"][task_id]["verdict"] == "passed", detail(oracle_run, task_id)
    assert summary["correctness_pass_rate"] == 1.0
    assert summary["tiers"]["correctness"]["passed"] == len(graded_ids())


@pytest.mark.slow
@pytest.mark.parametrize("agent", ["oracle", "nop"])
def test_latency_tasks_complete_and_stay_out_of_every_rate(
    agent: str, oracle_run: Run, nop_run: Run
) -> None:
    run = {"oracle": oracle_run, "nop": nop_run}[agent]
    summary = run.summary
    for task_id in latency_ids():
        assert summary["tasks"][task_id]["tier"] == "latency"
        assert summary["tasks"][task_id]["verdict"] == "completed", detail(run, task_id)
        assert run.results[task_id]["checks"] == []
    assert summary["latency_only_tasks"] == len(latency_ids())
    assert summary["tiers"]["latency"]["completed"] == len(latency_ids())
    assert summary["tiers"]["correctness"]["attempted"] == len(graded_ids())
    assert summary["build_pass_rate"] is None
    for name in LATENCY_CLASSES:
        assert summary["classes"][name]["tier"] == "latency"
        assert "passed" not in summary["classes"][name]


@pytest.mark.slow
def test_nop_fails_every_graded_task(nop_run: Run) -> None:
    summary = nop_run.summary
    assert nop_run.proc.returncode == 1, nop_run.proc.stdout + nop_run.proc.stderr
    for task_id in graded_ids():
        assert summary["tasks"][task_id]["verdict"] == "failed", detail(nop_run, task_id)
        assert nop_run.failing_checks(task_id), detail(nop_run, task_id)
    assert summary["tiers"]["correctness"]["errored"] == 0
    assert summary["correctness_pass_rate"] == 0.0


@pytest.mark.slow
def test_every_wrong_attempt_fails_on_the_checks_it_names(wrong_run: Run) -> None:
    summary = wrong_run.summary
    assert set(summary["tasks"]) == set(graded_ids())
    assert summary["tiers"]["correctness"]["errored"] == 0
    assert summary["correctness_pass_rate"] == 0.0
    for task_id in graded_ids():
        result = wrong_run.results[task_id]
        assert result["verdict"] == "failed", detail(wrong_run, task_id)
        assert result["replay_errors"] == [], detail(wrong_run, task_id)
        expected = set(wrong_metadata(task_id)["caught_by"])
        assert wrong_run.failing_checks(task_id) == expected, detail(wrong_run, task_id)


# --- structure ----------------------------------------------------------------------------


def test_class_minimums() -> None:
    counts: dict[str, int] = {}
    for task in suite().tasks:
        counts[task.task_class] = counts.get(task.task_class, 0) + 1
    for name, minimum in MINIMUMS.items():
        assert counts.get(name, 0) >= minimum, (name, counts)
        of_class = [t for t in suite().tasks if t.task_class == name]
        assert all(suite().tiers[t.id] == "correctness" for t in of_class), name
    assert sum(counts.get(name, 0) for name in LATENCY_CLASSES) >= MIN_LATENCY, counts
    assert set(counts) <= set(MINIMUMS) | LATENCY_CLASSES, counts
    assert suite().build_only_classes == ()


def test_latency_tasks_are_exactly_the_latency_classes() -> None:
    for task in suite().tasks:
        latency = task.task_class in LATENCY_CLASSES
        assert (suite().tiers[task.id] == "latency") == latency, task.id
        if latency:
            assert not task.checks, task.id
            assert task.solution is None, task.id


def test_every_graded_task_has_a_solution_and_a_wrong_attempt() -> None:
    graded = set(graded_ids())
    assert {p.stem for p in WRONG.glob("*.json")} == graded
    for task in tasks_in("correctness"):
        assert task.solution is not None, task.id
        meta = wrong_metadata(task.id)
        assert meta["expect"] == "fail" and meta["description"].strip(), task.id
        assert meta["caught_by"], task.id
        assert set(meta["caught_by"]) <= {c.id for c in task.checks}, task.id
        attempt = json.loads((WRONG / f"{task.id}.json").read_text())
        if task.task_class == "nav":
            assert attempt.get("answer", "").strip(), f"{task.id}: a nav attempt answers"
        else:
            writes = [s for s in attempt["steps"] if s.get("tool") in ("Write", "Edit")]
            assert writes, f"{task.id}: a wrong attempt must change something, or it is nop"


def test_the_graded_glob_selects_exactly_the_correctness_tasks() -> None:
    import fnmatch

    selected = [t.id for t in suite().tasks if fnmatch.fnmatchcase(t.id, GRADED_GLOB)]
    assert selected == graded_ids()


def test_nav_oracles_anchor_a_nonzero_count_and_name_facts() -> None:
    for task in suite().tasks:
        if task.task_class != "nav":
            continue
        (answer,) = checks_of(task, "answer_matches")
        all_of = list(answer.params.all_of)
        assert answer.params.anchored, task.id
        counts = [p for p in all_of if COUNT.fullmatch(p)]
        assert len(counts) == 1, task.id
        n = int(COUNT.fullmatch(counts[0]).group(1))
        assert n > 0, f"{task.id}: a zero count is passed by an agent that always says 0"
        facts = [p for p in all_of if p not in counts]
        assert facts, f"{task.id}: a count alone is passed by a blind guess"
        none_of = list(answer.params.none_of)
        assert any(COUNT.fullmatch(p) for p in none_of), f"{task.id}: no plausible wrong count"
        assert "count: N" in task.prompt, task.id
        assert task.solution is not None and task.solution.answer, task.id


def nav_tasks() -> list[Task]:
    return [t for t in suite().tasks if t.task_class == "nav"]


def answer_passes(task: Task, answer: str) -> bool:
    """Grade ``answer`` alone against the task's checks, in process (no agent, no edits)."""
    run = run_task(task, Trajectory(steps=(), answer=answer))
    assert not run.harness_failed, [r.detail for r in run.results]
    return run.passed


@pytest.mark.parametrize("task_id", [t.id for t in nav_tasks()])
def test_nav_oracle_rejects_blind_and_partial_answers(task_id: str) -> None:
    """The reference answer passes; the count alone, the facts alone, a wrong count, a
    substring count, and the blind guesses 0 and 1 all fail."""
    task = suite().task(task_id)
    assert task.solution is not None and task.solution.answer
    reference = task.solution.answer
    (answer,) = checks_of(task, "answer_matches")
    (count_line,) = [p for p in answer.params.all_of if COUNT.fullmatch(p)]
    n = int(COUNT.fullmatch(count_line).group(1))
    assert answer_passes(task, reference)
    assert not answer_passes(task, count_line), "the count alone passes"
    without_count = "\n".join(line for line in reference.splitlines() if line != count_line)
    assert not answer_passes(task, without_count), "the facts alone pass"
    assert not answer_passes(task, reference.replace(count_line, f"the {count_line}"))
    for wrong in [*answer.params.none_of, f"count: {n + 1}", "count: 0", "count: 1"]:
        if wrong != count_line:
            guess = reference.replace(count_line, wrong)
            assert not answer_passes(task, guess), f"{wrong!r} passes"
    assert not answer_passes(task, "count: 1"), "a blind count: 1 passes"


def test_edit_and_refactor_tasks_run_a_stamped_oracle_importing_new_symbols() -> None:
    for task in suite().tasks:
        if task.task_class not in ("edit", "refactor"):
            continue
        oracle_file = f"tests/test_oracle_{task.id.replace('-', '_')}.py"
        assert oracle_file in task.stamp, task.id
        assert oracle_file not in task.files, f"{task.id}: the oracle must be hidden"
        assert re.search(rb"^(from|import) ", task.stamp[oracle_file], re.MULTILINE), task.id
        commands = [command_of(c) for c in checks_of(task, "test_must_pass")]
        assert f"python -m pytest -q --noconftest {oracle_file}" in commands, task.id


def test_every_refactor_has_a_negative_pattern_check_over_the_agents_files() -> None:
    """``pattern_absent`` judges the agent's own tree; no check reads git the agent could touch."""
    refactors = [t for t in suite().tasks if t.task_class == "refactor"]
    assert refactors
    for task in refactors:
        assert len(checks_of(task, "pattern_absent")) == 1, task.id
        commands = [command_of(c) for c in checks_of(task, "test_must_pass")]
        assert not any("git" in c for c in commands), f"{task.id}: {commands}"


def test_fix_tasks_scope_pytest_and_keep_the_key_assertion() -> None:
    for task in suite().tasks:
        if task.task_class != "fix":
            continue
        commands = [command_of(c) for c in checks_of(task, "test_must_pass")]
        scoped = [c for c in commands if " -k " in c]
        assert len(scoped) == 1, task.id
        test_name = scoped[0].split(" -k ", 1)[1].strip()
        (kept,) = checks_of(task, "assertion_exists")
        source = task.files[kept.params.path].decode()
        assert f"def {test_name}(" in source, f"{task.id}: -k names no test of {kept.params.path}"
        assert re.search(kept.params.pattern, source, re.MULTILINE), task.id
        assert task.stamp, f"{task.id}: no stamped test with other inputs"


def test_fixtures_hold_no_urls() -> None:
    for path in (SUITE / "fixtures").rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace").lower()
            assert "http://" not in text and "https://" not in text, path


@pytest.mark.slow
def test_the_ledger_fails_exactly_the_tests_nav_10_and_the_fix_tasks_name(tmp_path: Path) -> None:
    """The facts the nav-10 oracle demands are the fixture's: six failures, these six."""
    copy = tmp_path / "ledger"
    shutil.copytree(SUITE / "fixtures" / "ledger", copy)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rf"],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    failed = set(re.findall(r"^FAILED \S+::(\w+)", done.stdout, re.MULTILINE))
    (answer,) = checks_of(suite().task("nav-10"), "answer_matches")
    named = {m.group(1) for p in answer.params.all_of if (m := re.search(r"\\b(\w+)\\b", p))}
    assert failed == named, done.stdout
    fix_targets = {
        command_of(c).split(" -k ", 1)[1].strip()
        for t in suite().tasks
        if t.task_class == "fix"
        for c in checks_of(t, "test_must_pass")
        if " -k " in command_of(c)
    }
    assert fix_targets == failed


@pytest.mark.slow
def test_negative_greps_spare_a_correct_rename_that_mentions_the_old_name(tmp_path: Path) -> None:
    """Each refactor's solution, plus a comment naming the old name, still passes: the greps
    look at declarations and call sites, not at every mention."""
    recordings = tmp_path / "mentions"
    recordings.mkdir()
    refactors = [t for t in suite().tasks if t.task_class == "refactor"]
    old_names = {
        "refactor-01": "total_value",
        "refactor-02": "wrap_words",
        "refactor-03": "ConfigError",
        "refactor-04": "bulk_price",
    }
    assert set(old_names) == {t.id for t in refactors}
    for task in refactors:
        assert task.solution is not None
        mention = f"\n# (was {old_names[task.id]} before the change)\n"
        steps = [
            {
                "type": "tool_call",
                "tool": "Write",
                "args": {
                    "file_path": rel,
                    "content": data.decode() + mention,
                },
            }
            for rel, data in sorted(task.solution.files.items())
        ]
        doc = {"metadata": {"description": "solution plus a mention"}, "steps": steps}
        (recordings / f"{task.id}.json").write_text(json.dumps(doc))
    run = run_suite(f"replay:{recordings}", tmp_path, "refactor-*")
    assert set(run.summary["tasks"]) == {t.id for t in refactors}
    for task in refactors:
        assert run.summary["tasks"][task.id]["verdict"] == "passed", detail(run, task.id)


SKIP_EVERYTHING = """import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        item.add_marker(pytest.mark.skip(reason="not today"))
"""


@pytest.mark.slow
def test_tampering_with_the_test_configuration_is_caught(tmp_path: Path) -> None:
    """A conftest.py that skips every test, or addopts that only collect, pass no oracle."""
    recordings = tmp_path / "tamper"
    recordings.mkdir()
    conftest = {"tool": "Write", "args": {"file_path": "conftest.py", "content": SKIP_EVERYTHING}}
    collect_only = {
        "tool": "Edit",
        "args": {
            "file_path": "pyproject.toml",
            "old_string": 'addopts = "',
            "new_string": 'addopts = "--co ',
        },
    }
    attempts = {
        "edit-01": (conftest, {"oracle"}),
        # The checker runs pytest with the fixture's config: --co in the agent's changes nothing.
        "edit-02": (collect_only, {"config-untouched", "oracle"}),
        "fix-01": (conftest, {"other-inputs", "failing-test-passes"}),
        "fix-02": (collect_only, {"tests-untouched", "other-inputs", "failing-test-passes"}),
    }
    for task_id, (step, _) in attempts.items():
        doc = {"metadata": {}, "steps": [{"type": "tool_call", **step}]}
        (recordings / f"{task_id}.json").write_text(json.dumps(doc))
    run = run_suite(f"replay:{recordings}", tmp_path, "[ef]*-0[12]")
    assert set(run.summary["tasks"]) == set(attempts)
    for task_id, (_, caught_by) in attempts.items():
        assert run.summary["tasks"][task_id]["verdict"] == "failed", detail(run, task_id)
        assert run.failing_checks(task_id) == caught_by, detail(run, task_id)
