"""`run` through a process pool: the same files as one worker, and Ctrl-C keeps what finished."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from .minisuites import MINISUITE

pytestmark = pytest.mark.slow

BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
TURNBENCH = Path(__file__).resolve().parents[2] / "suites" / "turnbench"
RUN_FIELDS = {"run_id", "created_at", "mac", "started_at", "finished_at"}
"""Fields that differ between any two runs: the run's name, its clock (and each trial's
agent's, in its ``run`` block and trajectory), its key's seal."""
CANARY_FIELDS = {"canaries", "stdout", "stderr"}
"""A check's evidence that differs between any two runs when it ran canary tests (new,
unguessable tests every trial): their names, and the output that shows them failing."""
SECONDS = re.compile(r"\b\d+\.\d+ ?s\b")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BENCHWRIGHT), "run", *args], capture_output=True, text=True, timeout=600
    )


def _untimed(doc: Any) -> Any:
    """``doc`` without timing fields (``*_s`` numbers, latency percentiles) or run fields."""
    if isinstance(doc, dict):
        canaries = CANARY_FIELDS if doc.get("canaries") else set()
        return {
            k: _untimed(v)
            for k, v in doc.items()
            if k not in RUN_FIELDS
            and k not in canaries
            and k != "latency_s"
            and not (k.endswith("_s") and k != "budget_s" and isinstance(v, float | int))
        }
    if isinstance(doc, list):
        return [_untimed(v) for v in doc]
    if isinstance(doc, str):  # "exit 0 in 1.77s", pytest's "2 passed in 0.20s"
        return SECONDS.sub("N s", doc)
    return doc


def _files(run_dir: Path) -> dict[str, Any]:
    """Every file of a run, JSON without timings, text without durations (``0.12s``)."""
    found: dict[str, Any] = {}
    for path in sorted(p for p in run_dir.rglob("*") if p.is_file()):
        text = path.read_text()
        name = str(path.relative_to(run_dir))
        if path.suffix == ".json":
            found[name] = _untimed(json.loads(text))
        else:
            found[name] = _untimed(text)
    return found


def test_turnbench_oracle_with_four_workers_writes_what_one_worker_writes(tmp_path):
    runs = {}
    for workers in ("1", "4"):
        out = tmp_path / workers
        done = _run(str(TURNBENCH), "--agent", "oracle", "--workers", workers, "--out", str(out))
        assert done.returncode == 0, done.stderr
        assert "correctness: 28/28 passed (100.0%)" in done.stdout
        [runs[workers]] = out.iterdir()
    one, four = _files(runs["1"]), _files(runs["4"])
    assert len(one) == len(four) > 28 * 4
    assert one == four
    summary = json.loads((runs["4"] / "summary.json").read_text())
    assert list(summary["tasks"]) == json.loads((runs["4"] / "run.json").read_text())["tasks"]


SLOW_SOLVER = """\
import os, pathlib, time
time.sleep(1.0)
if os.environ["BENCHWRIGHT_TASK_ID"] == "fix-double":
    pathlib.Path("mathx.py").write_text("def double(x):\\n    return x * 2\\n")
"""


def _verdicts(run_dir: Path) -> dict[str, str]:
    found = {}
    for path in (run_dir / "trials").glob("*/*/result.json"):
        raw = json.loads(path.read_text())
        found[f"{raw['task_id']}#{raw['iteration']}"] = raw["verdict"]
    return found


def test_ctrl_c_on_a_parallel_run_keeps_finished_trials_and_resume_finishes(tmp_path):
    solver = tmp_path / "solver.py"
    solver.write_text(SLOW_SOLVER)
    out = tmp_path / "runs"
    proc = subprocess.Popen(
        [str(BENCHWRIGHT), "run", str(MINISUITE), "--agent", f"command:python {solver}",
         "--iterations", "3", "--workers", "2", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list(out.glob("*/trials/*/*/result.json"))) < 3:
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    [run_dir] = out.iterdir()
    assert f"; continue with: benchwright run --resume {run_dir}\n" in stderr
    kept = _verdicts(run_dir)
    assert 3 <= len(kept) < 15, "the interrupt should land part-way"
    assert json.loads((run_dir / "summary.json").read_text())["complete"] is False
    assert stdout.count("\n") >= len(kept)  # one verdict line per trial written
    resumed = _run("--resume", str(run_dir), "--workers", "2")
    assert resumed.returncode == 1, resumed.stderr  # it solves fix-double only
    finished = _verdicts(run_dir)
    assert len(finished) == 15 and {k: finished[k] for k in kept} == kept
    summary = json.loads((run_dir / "summary.json").read_text())
    verdicts = {task: row["verdict"] for task, row in summary["tasks"].items()}
    assert summary["complete"] is True
    assert verdicts == {"edit-rename": "failed", "fix-double": "passed",
                        "longctx-summary": "completed", "nav-count": "failed",
                        "phased-plan": "failed"}  # fmt: skip
