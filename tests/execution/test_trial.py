"""One trial: stamping after the agent, scoped negative greps, errors that are not failures."""

from __future__ import annotations

from benchwright.agents import CommandAgent, NopAgent, OracleAgent
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


def test_a_stamped_file_never_makes_a_scoped_negative_grep_fail(tmp_path):
    scoped = "git grep -qI -e 'def old_total' agent; test $? -eq 1"
    naive = "! grep -RIq 'def old_total' ."
    task = {
        **RENAME,
        "solution": _solution_dir(tmp_path, "def total(xs):\n    return sum(xs)\n"),
        "checks": [
            {"id": "scoped", "type": "test_must_pass", "command": scoped},
            {"id": "naive", "type": "test_must_pass", "command": naive},
        ],
    }
    suite = load_suite(make_suite(tmp_path / "s", [task]))
    result = trial(suite, "rename", OracleAgent())
    statuses = {c.check_id: c.status.value for c in result.checks}
    # The naive grep reads the stamped oracle and fails a correct rename; the scoped one does not.
    assert statuses == {"scoped": "PASS", "naive": "FAIL"}


def test_the_scoped_negative_grep_still_fails_an_agent_that_kept_the_old_name(tmp_path):
    scoped = "git grep -qI -e 'def old_total' agent; test $? -eq 1"
    task = {
        **RENAME,
        "checks": [
            {"type": "test_must_pass", "command": scoped},
            {"type": "file_exists", "path": "calc.py"},
        ],
    }
    suite = load_suite(make_suite(tmp_path / "s", [task]))
    result = trial(suite, "rename", NopAgent())
    assert result.verdict == "failed"
    assert result.checks[0].status.value == "FAIL"


def test_stamped_files_are_invisible_to_static_checks_of_the_agents_files(tmp_path):
    stamped = {"type": "test_must_pass", "command": "test -f tests/oracle.py"}
    protected = {"type": "file_not_modified", "paths": ["tests/**"]}
    task = {**RENAME, "checks": [protected, stamped]}
    suite = load_suite(make_suite(tmp_path / "s", [task]))
    result = trial(suite, "rename", OracleAgent())
    assert [c.status.value for c in result.checks] == ["PASS", "PASS"]


def test_the_agent_cannot_see_the_stamp_and_snapshots_exclude_harness_files(tmp_path):
    probe = tmp_path / "probe.sh"
    probe.write_text("test -e tests/oracle.py && echo SEEN; git status --porcelain > /dev/null\n")
    listed = "git ls-tree -r --name-only agent > t; ! grep -q benchwright t"
    task = {**RENAME, "checks": [{"type": "test_must_pass", "command": listed}]}
    suite = load_suite(make_suite(tmp_path / "s", [task]))
    result = trial(suite, "rename", CommandAgent("probe", f"sh {probe}"))
    assert "SEEN" not in result.log
    assert result.checks[0].status.value == "PASS", result.checks[0].detail


def test_a_refused_write_that_changed_nothing_is_errored_not_failed(tmp_path):
    agent = tmp_path / "ro.sh"
    agent.write_text("echo 'cannot write calc.py: Read-only file system' >&2\nexit 1\n")
    task = {**RENAME, "checks": [{"type": "file_exists", "path": "calc.py"}]}
    suite = load_suite(make_suite(tmp_path / "s", [task]))
    result = trial(suite, "rename", CommandAgent("ro", f"sh {agent}"))
    assert result.verdict == "errored"
    assert result.error.startswith("read-only: the agent changed no file")


def test_a_phased_task_snapshots_every_phase_and_the_minisuite_plan_passes_under_oracle():
    suite = minisuite()
    result = trial(suite, "phased-plan", OracleAgent())
    assert [p.name for p in result.phases] == ["p1_plan", "p2_implementation"]
    assert result.verdict == "passed"
    snapshots = result.trajectory["metadata"]["benchwright"]["snapshots"]
    assert list(snapshots) == ["start", "phase/p1_plan", "phase/p2_implementation", "agent"]


def test_writing_source_while_planning_fails_no_source_during_phase(tmp_path):
    eager = tmp_path / "eager.sh"
    eager.write_text(
        'mkdir -p docs; echo plan > docs/PLAN.md; echo "def triple(x): return 3 * x" > feature.py\n'
    )
    result = trial(minisuite(), "phased-plan", CommandAgent("eager", f"sh {eager}"))
    failed = {c.check_id: c.detail for c in result.checks if not c.passed}
    assert result.verdict == "failed"
    assert failed == {"no_source_during_phase": "phase p1_plan changed source file feature.py"}


def test_an_agent_past_its_budget_errors_the_trial_with_the_budget_named(tmp_path):
    agent = CommandAgent("sleepy", "sh -c 'sleep 30 & sleep 30'")
    result = trial(minisuite(), "fix-double", agent, budget_s=0.5)
    assert result.verdict == "errored"
    assert result.error == "budget: phase main exceeded its 0.5s budget (process group killed)"
    assert result.checks == ()


def test_an_agent_that_deletes_the_repository_errors_and_no_outer_repository_is_touched(tmp_path):
    result = trial(minisuite(), "fix-double", CommandAgent("vandal", "rm -rf .git"))
    assert result.verdict == "errored"
    assert result.error.startswith("harness: git add"), result.error
