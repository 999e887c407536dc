"""``benchwright watch RUN_DIR/live``: each session is judged by its own task's checks.

The run directory is laid out as a model agent run writes it (``run.json`` naming the
suite, ``live/<task>/<phase>-….jsonl`` opening with the task's metadata line), on the
quickstart suite: ``regression-test`` asks for a new test under ``tests/`` and protects
nothing, ``keep-tests-intact`` protects ``tests/**``.
"""

from __future__ import annotations

import json
from pathlib import Path

from benchwright.watch import DEFAULT_PROTECTED

QUICKSTART = Path(__file__).parents[2] / "suites" / "quickstart"
NEW_TEST = "tests/test_listutil.py"


def _session(live: Path, task: str) -> None:
    """A live trajectory of ``task`` that writes a test file."""
    header = {"type": "metadata", "format": "benchwright-model-agent",
              "metadata": {"agent": "model:local/m", "task": task, "phase": "main"}}  # fmt: skip
    content = "def test_chunk_keeps_remainder(): ...\n"
    write = {"type": "tool_call", "tool": "write_file", "agent_tool": "editor",
             "args": {"path": NEW_TEST, "content": content}}  # fmt: skip
    path = live / task / "main-20261204T091500-1.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in (header, write)))


def _run(tmp_path: Path, suite: str) -> Path:
    run_dir = tmp_path / "runs" / "r1"
    run_dir.mkdir(parents=True)
    info = {"run_id": "r1", "suite": {"name": "quickstart", "path": suite}}
    (run_dir / "run.json").write_text(json.dumps(info))
    live = run_dir / "live"
    for task in ("regression-test", "keep-tests-intact", "not-in-the-suite"):
        _session(live, task)
    return run_dir


def test_each_session_alerts_on_its_own_tasks_protected_paths(cli, tmp_path):
    run_dir = _run(tmp_path, str(QUICKSTART.resolve()))
    done = cli("watch", "runs/r1/live", "--once")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "watching runs/r1/live (each session: its task's checks, from run r1 (suite "
        f"quickstart); a session of no known task: protected: {', '.join(DEFAULT_PROTECTED)}; "
        "30 network pattern(s))",
        # keep-tests-intact protects tests/**; regression-test asked for this very file
        f"ALERT protected-file: keep-tests-intact/main-20261204T091500-1.jsonl step 1 (line 2): "
        f"{NEW_TEST} written (write_file)",
        # a session of a task the suite does not have gets the defaults
        f"ALERT protected-file: not-in-the-suite/main-20261204T091500-1.jsonl step 1 (line 2): "
        f"{NEW_TEST} written (write_file)",
        "3 session(s), 3 step(s): 2 alert(s)",
    ]
    one = cli("watch", str(run_dir / "live" / "regression-test"), "--once", "--fail-on-alert")
    assert one.returncode == 0 and "0 alert(s)" in one.stdout, one.stdout + one.stderr


def test_a_task_given_on_the_command_line_wins_over_the_runs(cli, tmp_path):
    _run(tmp_path, str(QUICKSTART.resolve()))
    task = QUICKSTART / "tasks" / "keep-tests-intact.yaml"
    done = cli("watch", "runs/r1/live", "--once", "--task", str(task))
    first = "watching runs/r1/live (protected: tests/**; no network rule)"
    assert done.stdout.splitlines()[0] == first
    assert done.stdout.count("ALERT protected-file") == 3, done.stdout


def test_a_run_whose_suite_is_gone_warns_and_keeps_the_defaults(cli, tmp_path):
    _run(tmp_path, str(tmp_path / "moved"))
    done = cli("watch", "runs/r1/live", "--once")
    assert done.returncode == 0
    assert done.stderr.startswith(f"warning: {tmp_path}/runs/r1/run.json: cannot load the run's "
                                  "suite (")  # fmt: skip
    assert done.stderr.endswith("): the default rules apply\n")
    assert done.stdout.count("ALERT protected-file") == 3, done.stdout
