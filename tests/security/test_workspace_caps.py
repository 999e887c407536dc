"""Red team: a workspace blown up in files or bytes is stopped by a named cap.

An agent that makes 40,000 empty files spends seconds; without a cap the harness would
spend minutes snapshotting, reading back and copying them, outside any budget. The
attacks run through the real console script on a two-task suite (the agent floods only
in one task): the flooding trial errs with the cap as its reason, recorded in its phase;
the other trial is graded as usual; nothing outside is written; no process is left.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from processes import survivors

from benchwright.model import Trajectory
from benchwright.sandbox import unavailable_reason
from benchwright.workspace import Workspace, WorkspaceCaps, over_caps, replay

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(unavailable_reason() is not None, reason="no bwrap here"),
]
BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
SUITE = "suite: caps\nbudget: 120\nclasses:\n  edit: an edit\ntasks:\n  - tasks/*.yaml\n"
TASK = """\
id: {id}
class: edit
prompt: "{prompt}"
workspace:
  app.py: "VALUE = 1\\n"
checks:
  - id: value-set
    type: test_must_pass
    command: python -c "import app; assert app.VALUE == 2"
"""
AGENT = """\
import os, pathlib, sys
marker = sys.argv[1]
root = pathlib.Path.cwd()
(root / "app.py").write_text("VALUE = 2\\n")
prompt = pathlib.Path(sys.argv[2]).read_text()
if "files" in prompt:
    for d in range(40):
        os.mkdir(root / f"d{{d}}")
        for n in range(1000):
            open(root / f"d{{d}}" / f"f{{n}}", "wb").close()
elif "bytes" in prompt:
    with open(root / "sparse.bin", "wb") as file:
        file.truncate(20 * 1024 * 1024)
"""


def _run(tmp_path: Path, attack: str, *extra: str) -> tuple[dict[str, dict], str]:
    suite = tmp_path / "suite"
    (suite / "tasks").mkdir(parents=True)
    (suite / "suite.yaml").write_text(SUITE)
    for task_id, prompt in (("attack", attack), ("honest", "set VALUE to 2")):
        (suite / "tasks" / f"{task_id}.yaml").write_text(TASK.format(id=task_id, prompt=prompt))
    marker = uuid.uuid4().hex
    agent = tmp_path / "agent.py"
    agent.write_text(AGENT.format())
    spec = f"command:{sys.executable} {agent} {marker} {{prompt_file}}"
    out = tmp_path / "runs"
    argv = [str(BENCHWRIGHT), "run", str(suite), "--agent", spec, "--out", str(out), *extra]
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300)
    assert not survivors(marker)
    results = {}
    for path in out.glob("*/trials/*/*/result.json"):
        raw = json.loads(path.read_text())
        results[raw["task_id"]] = raw
    assert set(results) == {"attack", "honest"}, done.stderr
    leftovers = [p.name for p in tmp_path.iterdir() if p.name not in {"suite", "agent.py", "runs"}]
    assert leftovers == []  # every trial's temp dir was removed, nothing planted beside them
    return results, done.stdout + done.stderr


def test_an_agent_making_40000_files_is_stopped_by_the_named_cap(tmp_path: Path) -> None:
    results, output = _run(tmp_path, "make files", "--workers", "2")
    attack = results["attack"]
    assert attack["verdict"] == "errored"
    assert attack["error"] == "limit: workspace files (20,000 files) exceeded"
    assert attack["phases"][0]["limit"] == "limit: workspace files (20,000 files) exceeded"
    assert attack["checks"] == []  # nothing was snapshotted, read back or checked
    assert results["honest"]["verdict"] == "passed"
    assert "limit: workspace files (20,000 files) exceeded" in output


def test_a_sparse_file_past_the_configured_byte_cap_is_stopped(tmp_path: Path) -> None:
    results, _ = _run(tmp_path, "make bytes", "--max-workspace-mb", "16")
    attack = results["attack"]
    assert attack["verdict"] == "errored"
    assert attack["error"] == "limit: workspace bytes (16 MiB) exceeded"
    assert attack["phases"][0]["limit"] == attack["error"]
    assert results["honest"]["verdict"] == "passed"


def test_a_replayed_flood_stops_at_the_cap() -> None:
    steps = [
        {"tool": "Write", "args": {"file_path": f"f{n}.txt", "content": ""}} for n in range(50)
    ]
    workspace = Workspace({"app.py": b"VALUE = 1\n"})
    errors = replay(workspace, Trajectory(tuple(steps)), WorkspaceCaps(files=20))
    assert [e.reason for e in errors] == ["limit: workspace files (20 files) exceeded"]
    assert len(workspace.files) == 21  # the step that passed the cap, and nothing after it


def test_the_measure_stops_at_the_cap(tmp_path: Path) -> None:
    """The walk ends at the first cap passed: a directory past it is never listed."""
    for n in range(30):
        (tmp_path / f"f{n}").touch()
    (tmp_path / "zz").mkdir()
    os.chmod(tmp_path / "zz", 0)  # would be an error to list for anyone but root
    assert over_caps(tmp_path, WorkspaceCaps(files=10)) == (
        "limit: workspace files (10 files) exceeded"
    )
    assert over_caps(tmp_path, WorkspaceCaps(files=100)) is None
