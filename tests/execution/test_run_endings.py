"""How a suite run ends, as the console script prints it (issue #26): a Ctrl-C names the
trials it stopped and the real run directory to resume; a resume says in one line what it
runs and keeps; trials that all ran out of budget are the agent's failure (exit 1)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from processes import with_marker

from .minisuites import MINISUITE

pytestmark = pytest.mark.slow

BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
TWO_TASKS = "[fn]*"  # fix-double and nav-count
AGENT = """\
import pathlib, sys, time
if pathlib.Path(sys.argv[1]).exists():  # the test's switch: sleep until interrupted
    time.sleep(120)
"""


def _agents_running(marker: str) -> int:
    """The agent processes themselves (not the sandbox wrappers naming the same argv)."""
    count = 0
    for pid in with_marker(marker):
        try:
            argv0 = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
        except OSError:
            continue
        count += Path(argv0.decode()).name.startswith("python")
    return count


def test_ctrl_c_names_the_trials_it_stopped_and_the_run_to_resume(tmp_path):
    agent, switch, marker = tmp_path / "agent.py", tmp_path / "sleep", uuid.uuid4().hex
    agent.write_text(AGENT)
    switch.write_text("on")
    out = tmp_path / "runs"
    proc = subprocess.Popen(
        [str(BENCHWRIGHT), "run", str(MINISUITE), "--tasks", TWO_TASKS, "--workers", "2",
         "--agent", f"command:python {agent} {switch} {marker}", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while _agents_running(marker) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    [run_dir] = out.iterdir()
    [line] = [x for x in err.splitlines() if x.startswith("error: interrupted after ")]
    assert ": 0 of 2 trials finished (kept on disk); stopped while running (they run again on " \
        "resume): fix-double #1 (" in line  # fmt: skip
    assert ", nav-count #1 (" in line
    assert line.endswith(f"; continue with: benchwright run --resume {run_dir}")
    assert "RUN_DIR" not in err

    switch.unlink()  # the agent now ends at once
    resumed = subprocess.run([str(BENCHWRIGHT), "run", "--resume", str(run_dir)],
                             capture_output=True, text=True, timeout=300)  # fmt: skip
    assert resumed.returncode == 1, resumed.stderr  # it solves nothing
    assert "resuming: 2 trials to run, 0 verified kept\n" in resumed.stderr
    assert "re-running" not in resumed.stderr  # trials never finished are no news
    assert json.loads((run_dir / "summary.json").read_text())["complete"] is True


def test_a_run_whose_every_trial_ran_out_of_budget_is_the_agents_failure(cli, tmp_path):
    done = cli("run", str(MINISUITE), "--tasks", TWO_TASKS, "--agent", "command:sleep 60",
               "--budget", "1", "--out", str(tmp_path / "runs"))  # fmt: skip
    assert done.returncode == 1, done.stderr
    [line] = [x for x in done.stderr.splitlines() if x.startswith("error: ")]
    assert line.startswith("error: every trial ran out of its budget, the agent's failure "
                           "(budget: phase ")  # fmt: skip
    assert "exceeded its 1s budget" in line
    assert line.endswith("; give it more with --budget SECONDS")
