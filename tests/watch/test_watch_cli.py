"""``benchwright watch`` as a user runs it: on a recorded session, and live."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
from pathlib import Path

from conftest import BENCHWRIGHT

DATA = Path(__file__).parent.parent / "data" / "watch"
PROJECT = DATA / "claude-project"
TASK = DATA / "task.json"


def test_once_reports_the_cheating_sessions_edit_and_network_step_and_fails(cli):
    proc = cli("watch", str(PROJECT), "--once", "--fail-on-alert", "--task", str(TASK))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == [
        f"watching {PROJECT} (protected: tests/test_calc.py; 30 network pattern(s))",
        "ALERT protected-file: 5e55-cheat.jsonl step 2 (line 7): tests/test_calc.py edited (Edit)",
        "ALERT network: 5e55-cheat.jsonl step 3 (line 9): Bash matched 'curl', 'https://'",
        "1 session(s), 4 step(s): 2 alert(s)",
    ]


def test_without_fail_on_alert_the_alerts_are_printed_and_the_exit_is_0(cli):
    proc = cli("watch", str(PROJECT), "--once")
    assert proc.returncode == 0
    assert proc.stdout.count("ALERT ") == 2


def test_an_honest_session_passes_with_fail_on_alert(cli, tmp_path):
    shutil.copy(DATA / "honest-session.jsonl", tmp_path / "honest.jsonl")
    proc = cli("watch", "honest.jsonl", "--once", "--fail-on-alert", "--task", str(TASK))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ALERT" not in proc.stdout
    assert proc.stdout.endswith("1 session(s), 2 step(s): 0 alert(s)\n")


def test_live_mode_alerts_as_lines_arrive_and_exits_1_on_ctrl_c(tmp_path):
    session = tmp_path / "project" / "s.jsonl"
    session.parent.mkdir()
    lines = (PROJECT / "5e55-cheat.jsonl").read_text().splitlines(keepends=True)
    session.write_text("".join(lines[:9]))  # history: includes the protected edit
    proc = subprocess.Popen(
        [str(BENCHWRIGHT), "watch", str(session.parent), "--live-only", "--interval", "0.1",
         "--fail-on-alert"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )  # fmt: skip
    watchdog = threading.Timer(120, proc.kill)  # a missing line must fail, not hang
    watchdog.start()
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith("watching ")
        # Printed after the first poll, which read the history (no alert for it).
        assert proc.stdout.readline() == "following 1 session(s) (Ctrl-C ends)\n"
        with session.open("a") as handle:
            handle.write(lines[8].replace("t4", "t9").replace("expected.json", "more.json"))
        alert = proc.stdout.readline()
        assert alert.startswith("ALERT network: s.jsonl step 4 (line 10): Bash matched 'curl'")
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        watchdog.cancel()
    assert proc.returncode == 1, err
    assert out == "1 session(s), 4 step(s): 1 alert(s)\n"


def test_bad_arguments_exit_2_naming_them(cli, tmp_path):
    proc = cli("watch", "nowhere", "--once")
    assert (proc.returncode, proc.stderr) == (
        2,
        "error: nowhere: no such session directory or file\n",
    )
    proc = cli("watch", str(PROJECT), "--once", "--live-only")
    assert proc.returncode == 2 and "--once with --live-only would check nothing" in proc.stderr
    proc = cli("watch", str(PROJECT), "--interval", "0")
    assert proc.returncode == 2 and "--interval" in proc.stderr
