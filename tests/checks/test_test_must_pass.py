"""test_must_pass: a command exits 0 in the replayed workspace, within its timeout.

These run real subprocesses; every timeout is short and every wait is bounded.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path

import pytest
from builders import make_task, write

from benchwright.checks.test_must_pass import resolve_interpreter
from benchwright.errors import SpecError
from benchwright.model import Status

CALC = {
    "calc.py": "def add(a, b):\n    return a - b\n",
    "test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
}
FIX = write("Write", "calc.py", "def add(a, b):\n    return a + b\n")
PYTEST = "python -m pytest -q -p no:cacheprovider test_calc.py"


def must_pass(command: str, **params):
    return {"type": "test_must_pass", "command": command, **params}


def alive(pid: int) -> bool:
    """True while ``pid`` runs; a zombie nobody has reaped yet counts as gone."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def gone_within(pids: list[int], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(alive(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


# -- exit codes -------------------------------------------------------------------------


def test_the_projects_tests_pass_after_the_fix(grade):
    result = grade(must_pass(PYTEST), CALC, FIX)
    assert result.status is Status.PASS and result.score == 1.0
    assert result.detail.startswith("exit 0 in ") and result.detail.endswith(f"s: {PYTEST}")
    assert result.evidence["exit_code"] == 0 and "1 passed" in result.evidence["stdout"]


def test_the_projects_tests_fail_without_it_and_the_summary_line_is_the_detail(grade):
    result = grade(must_pass(PYTEST), CALC)
    assert result.status is Status.FAIL and result.score == 0.0
    # pytest reports on stdout; with stderr empty the last stdout line is the headline.
    assert result.detail.startswith("exit 1: ") and "1 failed" in result.detail


def test_exit_3_fails_with_the_first_stderr_line_truncated_to_500(grade):
    script = (
        "import sys\nsys.stderr.write('E' * 800 + '\\nsecond line\\n')\nprint('out')\nsys.exit(3)\n"
    )
    result = grade(must_pass("python fail.py"), {"fail.py": script})
    assert result.status is Status.FAIL
    assert result.detail == "exit 3: " + "E" * 500
    assert result.evidence["exit_code"] == 3
    assert result.evidence["stderr"] == "E" * 800 + "\nsecond line\n"  # full text kept
    assert result.evidence["stdout"] == "out\n"


def test_a_python_traceback_is_summarized_by_its_exception_line(grade):
    result = grade(must_pass("python boom.py"), {"boom.py": "def f():\n    1 / 0\n\nf()\n"})
    assert result.status is Status.FAIL
    assert result.detail == "exit 1: ZeroDivisionError: division by zero"


def test_a_failure_with_no_output_says_so(grade):
    result = grade(must_pass("exit 7"), None)
    assert result.detail == "exit 7: (no output)"


def test_the_command_sees_the_agents_files_not_the_initial_ones(grade):
    result = grade(must_pass("grep -q 'a + b' calc.py"), CALC, FIX)
    assert result.passed
    assert grade(must_pass("grep -q 'a + b' calc.py"), CALC).status is Status.FAIL


# -- the interpreter --------------------------------------------------------------------


@pytest.mark.parametrize("prefix", ["python", "python3"])
def test_a_leading_python_is_the_graders_interpreter(grade, tmp_path, monkeypatch, prefix):
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    for name in ("python", "python3"):
        fake = fake_bin / name
        fake.write_text("#!/bin/sh\necho WRONG-PYTHON\nexit 1\n")
        fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake_bin}{os.pathsep}{os.environ['PATH']}")
    files = {"show.py": "import sys\nprint(sys.executable)\n"}
    result = grade(must_pass(f"{prefix} show.py"), files)
    assert result.passed, result.detail
    assert result.evidence["stdout"].strip() == sys.executable
    assert result.evidence["command"] == f"{prefix} show.py"  # the task's words, unresolved


@pytest.mark.parametrize(
    ("command", "resolved"),
    [
        ("python", "{exe}"),
        ("python -m pytest", "{exe} -m pytest"),
        ("python3 x.py", "{exe} x.py"),
        ("pythonic x", "pythonic x"),
        ("python3.12 x.py", "python3.12 x.py"),
        ("cd sub && python x.py", "cd sub && python x.py"),
    ],
)
def test_resolve_interpreter(command, resolved):
    assert resolve_interpreter(command) == resolved.format(exe=shlex.quote(sys.executable))


# -- time -------------------------------------------------------------------------------


CHILD = """\
import subprocess, sys, time
grandchild = subprocess.Popen(["sleep", "30"])
with open(sys.argv[1], "w") as f:
    f.write(f"{__import__('os').getpid()} {grandchild.pid}")
time.sleep(30)
"""


def test_a_timeout_kills_the_whole_process_group(grade, tmp_path):
    pid_file = tmp_path / "pids"
    command = f"python child.py {pid_file}; echo never"
    started = time.monotonic()
    result = grade(must_pass(command, timeout=2), {"child.py": CHILD})
    assert time.monotonic() - started < 5
    assert result.status is Status.FAIL
    assert result.detail == f"timed out after 2s (process group killed): {command}"
    assert result.evidence["exit_code"] is None
    pids = [int(p) for p in pid_file.read_text().split()]
    assert len(pids) == 2
    assert gone_within(pids), f"still running: {[p for p in pids if alive(p)]}"


def test_a_background_straggler_is_killed_and_named_not_waited_for(grade, tmp_path):
    pid_file = tmp_path / "straggler"
    command = f"sleep 30 & echo $! > {pid_file}; echo hi"
    started = time.monotonic()
    result = grade(must_pass(command, timeout=1), None)
    assert time.monotonic() - started < 5
    # The command itself exited 0 at once, so it passes; the detail says a process
    # it left behind was killed (at once: output goes to files, nothing waits on it).
    assert result.status is Status.PASS
    assert result.detail.endswith(
        f"{command} (a background process outlived the command and was killed)"
    )
    assert result.evidence["straggler"] is True and result.evidence["stdout"] == "hi\n"
    assert gone_within([int(pid_file.read_text())])


def test_a_straggler_does_not_hide_a_failing_exit_code(grade):
    result = grade(must_pass("sleep 30 & echo boom >&2; exit 4", timeout=1), None)
    assert result.status is Status.FAIL
    assert result.detail.startswith("exit 4: boom (a background process")


def test_a_clean_command_reports_no_straggler(grade):
    assert grade(must_pass("true"), None).evidence["straggler"] is False


def test_a_non_positive_timeout_is_refused_at_load_time(registry):
    with pytest.raises(SpecError, match=r"oracles\[0\]\.timeout"):
        make_task([must_pass("true", timeout=0)], registry=registry)
