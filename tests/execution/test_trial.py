"""One trial: stamping after the agent, negative pattern checks, errors that are not failures."""

from __future__ import annotations

import json

from benchwright.agents import CommandAgent, NopAgent, OracleAgent, build_agent
from benchwright.dsl import load_suite

from .minisuites import make_suite, minisuite, trial

RENAME = {
    "id": "rename",
    "class": "edit",
    "workspace": {"calc.py": "def old_total(xs):\n    return sum(xs)\n", "tests/keep.py": "k\n"},
    "stamp": {"tests/oracle.py": "# the oracle mentions def old_total on purpose\n"},
    "solution": {"answer": "done"},
}


def _solution_dir(root, content):
    (root / "sol").mkdir(parents=True)
    (root / "sol" / "calc.py").write_text(content)
    return str(root / "sol")


def test_a_stamped_file_never_makes_a_negative_pattern_check_fail(tmp_path):
    absent = {"id": "absent", "type": "pattern_absent", "patterns": ["def old_total"]}
    naive = {"id": "naive", "type": "test_must_pass", "command": "! grep -RIq 'def old_total' ."}
    task = {
        **RENAME,
        "solution": _solution_dir(tmp_path, "def total(xs):\n    return sum(xs)\n"),
        "checks": [absent, naive],
    }
    suite = load_suite(make_suite(tmp_path / "s", [task]))
    result = trial(suite, "rename", OracleAgent())
    statuses = {c.check_id: c.status.value for c in result.checks}
    # The naive grep reads the stamped oracle and fails a correct rename; pattern_absent does not.
    assert statuses == {"absent": "PASS", "naive": "FAIL"}


def test_the_negative_pattern_check_still_fails_an_agent_that_kept_the_old_name(tmp_path):
    absent = {"type": "pattern_absent", "patterns": ["def old_total"]}
    task = {**RENAME, "checks": [absent, {"type": "file_exists", "path": "calc.py"}]}
    suite = load_suite(make_suite(tmp_path / "s", [task]))
    result = trial(suite, "rename", NopAgent())
    assert result.verdict == "failed"
    assert result.checks[0].detail == "calc.py:1 matches /def old_total/: 'def old_total'"


def test_stamped_files_are_invisible_to_static_checks_of_the_agents_files(tmp_path):
    stamped = {"type": "test_must_pass", "command": "test -f tests/oracle.py"}
    protected = {"type": "file_not_modified", "paths": ["tests/**"]}
    task = {**RENAME, "checks": [protected, stamped]}
    suite = load_suite(make_suite(tmp_path / "s", [task]))
    result = trial(suite, "rename", OracleAgent())
    assert [c.status.value for c in result.checks] == ["PASS", "PASS"]


def test_the_agent_cannot_see_the_stamp_and_snapshots_exclude_harness_files(tmp_path):
    probe = (
        "sh -c 'test -e tests/oracle.py && echo SEEN; mkdir .benchwright; echo > .benchwright/n'"
    )
    task = {**RENAME, "checks": [{"type": "file_exists", "path": "calc.py"}]}
    suite = load_suite(make_suite(tmp_path / "s", [task]))
    result = trial(suite, "rename", CommandAgent("probe", probe))
    assert "SEEN" not in result.log
    assert result.trajectory["metadata"]["benchwright"]["phase_changes"] == {"main": []}


def test_a_refused_write_that_changed_nothing_is_errored_not_failed(tmp_path):
    refuse = "sh -c \"echo 'cannot write calc.py: Read-only file system' >&2; exit 1\""
    task = {**RENAME, "checks": [{"type": "file_exists", "path": "calc.py"}]}
    suite = load_suite(make_suite(tmp_path / "s", [task]))
    result = trial(suite, "rename", CommandAgent("ro", refuse))
    assert result.verdict == "errored"
    assert result.error.startswith("read-only: the agent changed no file")


def test_a_phased_task_snapshots_every_phase_and_the_minisuite_plan_passes_under_oracle():
    suite = minisuite()
    result = trial(suite, "phased-plan", OracleAgent())
    assert [p.name for p in result.phases] == ["p1_plan", "p2_implementation"]
    assert result.verdict == "passed"
    snapshots = result.trajectory["metadata"]["benchwright"]["snapshots"]
    assert list(snapshots) == ["start", "phase/p1_plan", "phase/p2_implementation", "agent"]


def test_writing_source_while_planning_fails_no_source_during_phase():
    eager = (
        "sh -c 'mkdir -p docs; echo plan > docs/PLAN.md;"
        ' echo "def triple(x): return 3 * x" > feature.py\''
    )
    result = trial(minisuite(), "phased-plan", CommandAgent("eager", eager))
    failed = {c.check_id: c.detail for c in result.checks if not c.passed}
    assert result.verdict == "failed"
    assert failed == {"no_source_during_phase": "phase p1_plan changed source file feature.py"}
    changes = result.trajectory["metadata"]["benchwright"]["phase_changes"]
    assert changes == {"p1_plan": ["docs/PLAN.md", "feature.py"], "p2_implementation": []}


def test_an_agents_benchwright_metadata_cannot_speak_for_the_harness(tmp_path):
    forged = {"benchwright": {"phase_changes": {"p1_plan": ["forged.py"]}}, "mine": 1}
    steps = [{"tool": "Write", "args": {"file_path": "feature.py", "content": "x = 1\n"}}]
    recording = tmp_path / "forged.json"
    recording.write_text(json.dumps({"metadata": forged, "steps": steps}))
    suite = minisuite()
    agent = build_agent(f"replay:{recording}", [suite.task("phased-plan")])
    result = trial(suite, "phased-plan", agent)
    metadata = result.trajectory["metadata"]
    assert metadata["mine"] == 1
    assert metadata["benchwright"]["phase_changes"] == {"p1_plan": [], "p2_implementation": [
        "feature.py"]}  # fmt: skip
    assert "no_source_during_phase" not in {c.check_id for c in result.checks if not c.passed}


def test_an_agent_past_its_budget_errors_the_trial_with_the_budget_named(tmp_path):
    agent = CommandAgent("sleepy", "sh -c 'sleep 30 & sleep 30'")
    result = trial(minisuite(), "fix-double", agent, budget_s=0.5)
    assert result.verdict == "errored"
    assert result.error == "budget: phase main exceeded its 0.5s budget (process group killed)"
    assert result.checks == ()


def test_an_agents_own_git_repository_is_content_the_harness_never_runs(tmp_path):
    marker = tmp_path / "MARKER"
    plant = (
        f"sh -c 'git init -q . && printf \"[core]\\n\\tfsmonitor = touch {marker}\\n"
        f'[filter \\"x\\"]\\n\\tclean = touch {marker}\\n" >> .git/config'
        ' && echo "* filter=x binary" > .gitattributes'
        ' && printf "def double(x):\\n    return x * 2\\n" > mathx.py\''
    )
    result = trial(minisuite(), "fix-double", CommandAgent("planter", plant))
    assert not marker.exists()
    assert result.verdict == "passed", (result.error, [c.detail for c in result.checks])
    assert result.trajectory["metadata"]["benchwright"]["phase_changes"] == {
        "main": [".gitattributes", "mathx.py"]
    }
