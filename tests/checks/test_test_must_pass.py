"""test_must_pass: a command passes on its own sandboxed copy of the replayed workspace.

These run real subprocesses (inside the real sandbox); every timeout is short and
every wait is bounded. The attacks an agent could try are in tests/security/test_checker.py.
"""

from __future__ import annotations

import os
import sys
import time
import uuid

import pytest
from builders import make_task, make_trajectory, write
from processes import survivors

from benchwright.checks.test_must_pass._command import parse
from benchwright.checks.test_must_pass._junit import Case, shortfall, stamped_tests
from benchwright.errors import SpecError
from benchwright.execution import run_task
from benchwright.model import Status

CALC = {
    "calc.py": "def add(a, b):\n    return a - b\n",
    "test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
}
FIX = write("Write", "calc.py", "def add(a, b):\n    return a + b\n")
PYTEST = "python -m pytest -q test_calc.py"


def must_pass(command: str, **params):
    return {"type": "test_must_pass", "command": command, **params}


# -- exit codes -------------------------------------------------------------------------


def test_the_projects_tests_pass_after_the_fix(grade):
    result = grade(must_pass(PYTEST), CALC, FIX)
    assert result.status is Status.PASS and result.score == 1.0
    assert result.detail.startswith("exit 0 in ")
    assert result.detail.endswith(f"s, 1 passed in the JUnit report: {PYTEST}")
    assert result.evidence["exit_code"] == 0 and "1 passed" in result.evidence["stdout"]
    assert result.evidence["junit"] == {"passed": 1, "failed": 0, "skipped": 0}
    assert result.evidence["runner"] == "pytest"


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


def test_the_checks_time_is_its_commands_and_the_harnesss_around_it(grade):
    # The table's time column is the check's duration; the detail names the command's
    # own time; the evidence says where the rest went, so the three add up.
    result = grade(must_pass("true"), CALC)
    command_s, harness_s = result.evidence["command_s"], result.evidence["harness_s"]
    assert result.detail.startswith("exit 0 in ") and result.detail.endswith("s: true")
    assert harness_s >= 0 and command_s + harness_s <= result.duration_s + 0.001


def test_a_python_traceback_is_summarized_by_its_exception_line(grade):
    result = grade(must_pass("python boom.py"), {"boom.py": "def f():\n    1 / 0\n\nf()\n"})
    assert result.status is Status.FAIL
    assert result.detail == "exit 1: ZeroDivisionError: division by zero"


def test_a_failure_with_no_output_says_so(grade):
    result = grade(must_pass("exit 7"), None)
    assert result.detail == "exit 7: (no output)"


def test_the_command_sees_the_agents_files_not_the_initial_ones(grade):
    result = grade(must_pass("grep -q 'a + b' calc.py"), CALC, FIX)
    assert result.passed and result.evidence["runner"] == "shell"
    assert grade(must_pass("grep -q 'a + b' calc.py"), CALC).status is Status.FAIL


def test_a_memory_limit_hit_is_named_in_the_detail(grade):
    hog = "x = bytearray(64 * 1024 ** 3)\n"  # past the sandbox's address-space ceiling
    result = grade(must_pass("python hog.py"), {"hog.py": hog})
    assert result.status is Status.FAIL
    assert result.detail.startswith("exit 1 (limit: memory (")
    assert result.detail.endswith("exhausted): MemoryError")
    assert result.evidence["limit"].startswith("limit: memory")


# -- a command that cannot start (issue 18) ---------------------------------------------


def test_a_program_missing_from_path_is_infra_before_anything_runs(grade):
    result = grade(must_pass("FOO=1 no-such-tool-18 --check"), {"a.txt": "a"})
    assert result.status is Status.INFRA and result.score == 0.0
    assert result.detail.startswith(
        "check command could not start: 'no-such-tool-18' is not on PATH ("
    )
    assert result.detail.endswith("): FOO=1 no-such-tool-18 --check")


def test_a_program_the_sandbox_cannot_see_is_infra_from_the_shells_own_message(
    grade, tmp_path, monkeypatch
):
    # On the grader's PATH, so the pre-flight lets it through; the sandbox shows only the
    # system directories and the copy, so the shell inside says "not found" (exit 127).
    (tmp_path / "bin").mkdir()
    tool = tmp_path / "bin" / "hostonly-tool"
    tool.write_text("#!/bin/sh\nexit 0\n")
    tool.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    result = grade(must_pass("hostonly-tool run"), {"a.txt": "a"})
    assert result.status is Status.INFRA
    assert result.detail == (
        "check command could not start: 'hostonly-tool': not found (exit 127): hostonly-tool run"
    )
    assert result.evidence["exit_code"] == 127


def test_exit_127_from_a_missing_inner_command_stays_the_commands_fail(grade):
    result = grade(must_pass("sh run.sh"), {"run.sh": "no-such-inner-tool-18\n"})
    assert result.status is Status.FAIL
    assert result.detail.startswith("exit 127: ") and "no-such-inner-tool-18" in result.detail


def test_a_script_the_work_should_hold_and_does_not_is_a_fail(grade):
    result = grade(must_pass("./run_tests.sh"), {"a.txt": "a"})
    assert result.status is Status.FAIL
    assert result.detail.startswith("exit 127: ")


@pytest.mark.parametrize(
    ("command", "program"),
    [("make test", "make"), ("FOO=1 BAR=2 make -j2", "make"), ("cd sub && make", None),
     ("./run.sh", None), ("$TOOL x", None), ("bin/tool", None), ("echo hi", None)],
)  # fmt: skip
def test_only_the_commands_own_bare_program_is_judged(command, program):
    from benchwright.checks.test_must_pass._program import program_of

    assert program_of(command) == program


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
    files = {"show.py": "import sys\nprint(sys.executable, sys.flags.safe_path)\n"}
    result = grade(must_pass(f"{prefix} show.py"), files)
    assert result.passed, result.detail
    assert result.evidence["stdout"].split() == [sys.executable, "True"]
    assert result.evidence["command"] == f"{prefix} show.py"  # the task's words, unresolved
    assert result.evidence["runner"] == "python"


def test_workspace_modules_are_importable_but_after_the_standard_library(grade):
    files = {
        "json.py": "raise SystemExit('the workspace json shadowed the stdlib')\n",
        "calc.py": "def add(a, b):\n    return a + b\n",
    }
    check = "import json, sys; from calc import add; assert add(1, 2) == 3; print(sys.path[-1])"
    result = grade(must_pass(f'python -c "{check}"'), files)
    assert result.passed, result.detail
    assert result.evidence["stdout"].strip().endswith("/work")  # the copy, appended last


def test_the_import_path_is_the_tasks_to_declare(grade):
    files = {"src/calc.py": "def add(a, b):\n    return a + b\n"}
    command = 'python -c "from calc import add"'
    assert grade(must_pass(command), files).detail.endswith(
        "ModuleNotFoundError: No module named 'calc'"
    )
    assert grade(must_pass(command, import_path=["src"]), files).passed


@pytest.mark.parametrize("path", ["/abs", "../up", "a/../../b", ""])
def test_an_import_path_outside_the_workspace_is_refused_at_load_time(registry, path):
    with pytest.raises(SpecError, match=r"oracles\[0\]\.import_path.*not a directory relative"):
        make_task([must_pass("true", import_path=[path])], registry=registry)


def test_the_command_sees_none_of_the_graders_secrets(grade, monkeypatch):
    monkeypatch.setenv("BENCHWRIGHT_TEST_SECRET", "hunter2")
    monkeypatch.setenv("PYTHONSTARTUP", "/nonexistent/startup.py")
    result = grade(must_pass("env"), None)
    assert result.passed
    assert "hunter2" not in result.evidence["stdout"]
    assert "PYTHONSTARTUP" not in result.evidence["stdout"]
    assert "PYTHONSAFEPATH=1" in result.evidence["stdout"]


def test_a_leading_pytest_is_python_dash_m_pytest(grade):
    result = grade(must_pass("pytest -q test_calc.py"), CALC, FIX)
    assert result.passed, result.detail
    assert result.evidence["junit"]["passed"] == 1


# -- what a command is ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "runner", "tail"),
    [
        ("python -m pytest -q", "pytest", " -q"),
        ("python3  -m pytest", "pytest", ""),
        ("pytest tests/x.py -k 'a or b'", "pytest", " tests/x.py -k 'a or b'"),
        ("python x.py", "python", " x.py"),
        ("python -c 'import pytest'", "python", " -c 'import pytest'"),
        ("pythonic x", "shell", "pythonic x"),
        ("python3.12 x.py", "shell", "python3.12 x.py"),
        ("grep -q pytest requirements.txt", "shell", "grep -q pytest requirements.txt"),
        ("git grep -qI x agent; test $? -eq 1", "shell", "git grep -qI x agent; test $? -eq 1"),
    ],
)
def test_a_command_is_led_by_its_runner(command, runner, tail):
    invocation = parse(command)
    assert (invocation.runner, invocation.tail) == (runner, tail)


@pytest.mark.parametrize(
    "command",
    [
        "python -m pytest -q && echo done",
        "python -m pytest -q > out.txt",
        "cd sub && python -m pytest",
        "FOO=1 pytest",
        "timeout 30 pytest -q",
        "env python3 -m pytest",
        "true; /usr/bin/pytest",
    ],
)
def test_a_pytest_run_inside_a_compound_command_is_refused_at_load_time(registry, command):
    with pytest.raises(SpecError, match=r"oracles\[0\]\.command.*must be the whole command"):
        make_task([must_pass(command)], registry=registry)


# -- the copy ---------------------------------------------------------------------------


def test_each_command_runs_on_its_own_copy_and_never_changes_the_agents_tree(registry):
    task = make_task(
        [
            {"id": "writer", **must_pass("echo mark > made.txt && rm calc.py")},
            {"id": "reader", **must_pass("test ! -e made.txt && test -e calc.py")},
            {"id": "static", "type": "file_exists", "path": "calc.py"},
        ],
        CALC,
        registry=registry,
    )
    result = run_task(task, make_trajectory(), registry=registry)
    assert [r.status for r in result.results] == [Status.PASS] * 3


def test_bytecode_is_left_out_of_the_copy_and_named(grade):
    steps = [
        write("Write", "__pycache__/calc.cpython-311.pyc", "not bytecode"),
        write("Write", "stale.pyc", "not bytecode"),
    ]
    result = grade(must_pass("test ! -e __pycache__ && test ! -e stale.pyc"), CALC, *steps)
    assert result.passed, result.detail
    assert result.evidence["left_out"] == ["__pycache__", "stale.pyc"]


# -- pytest on the checker's terms ------------------------------------------------------


def test_the_initial_fixtures_pytest_config_is_used(grade):
    files = {
        **CALC,
        "pytest.ini": "[pytest]\ntestpaths = checks\n",
        "checks/test_only.py": "def test_only():\n    pass\n",
    }
    result = grade(must_pass("python -m pytest -q"), files)
    assert result.passed, result.detail  # only checks/ ran; the failing test_calc.py did not
    assert result.evidence["pytest_config"] == "pytest.ini"
    assert result.evidence["junit"]["passed"] == 1


def test_the_fixtures_pythonpath_is_appended_not_prepended(grade):
    files = {
        "pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["src"]\n',
        "src/calc.py": "def add(a, b):\n    return a + b\n",
        "src/json.py": "raise SystemExit('shadowed')\n",
        "tests/test_calc.py": "import json\nfrom calc import add\n\n\ndef test_add():\n"
        "    assert add(1, 2) == 3\n",
    }
    result = grade(must_pass("python -m pytest -q tests"), files)
    assert result.passed, result.detail + result.evidence["stdout"]
    assert result.evidence["pytest_config"] == "pyproject.toml"


def test_a_conftest_the_task_owns_is_kept_and_one_it_does_not_is_removed(grade):
    files = {
        **CALC,
        "conftest.py": "import pytest\n\n\n@pytest.fixture\ndef two():\n    return 2\n",
    }
    uses = "def test_two(two):\n    assert two == 2\n"
    steps = [write("Write", "test_two.py", uses), write("Write", "sub/conftest.py", "")]
    result = grade(must_pass("python -m pytest -q test_two.py"), files, *steps)
    assert result.passed, result.detail
    assert result.evidence["conftest_removed"] == ["sub/conftest.py"]


def test_exit_0_with_no_test_run_fails(grade):
    files = {"test_none.py": "import os\nos._exit(0)\n"}
    result = grade(must_pass("python -m pytest -q"), files)
    assert result.status is Status.FAIL
    assert result.detail == (
        "exit 0 but pytest wrote no JUnit report (the run ended before pytest did)"
    )


def test_all_skipped_is_not_a_pass(grade):
    files = {"test_s.py": "import pytest\n\n\n@pytest.mark.skip\ndef test_s():\n    pass\n"}
    result = grade(must_pass("python -m pytest -q"), files)
    assert result.status is Status.FAIL
    assert result.detail == "exit 0 but the JUnit report shows no passed test (1 skipped)"


ORACLE = (
    "import pytest\nfrom calc import add\n\n\n"
    "@pytest.mark.parametrize('a', [1, 2])\ndef test_param(a):\n    assert add(a, 0) == a\n\n\n"
    "class TestAdd:\n    def test_one(self):\n        assert add(1, 1) == 2\n\n"
    "    def helper(self):\n        pass\n\n\n"
    "def test_fixed():\n    assert add(2, 2) == 4\n"
)


def test_every_test_of_a_named_stamped_file_must_pass(registry):
    check = must_pass("python -m pytest -q t/test_o.py")
    result = grade_stamped(registry, check, ORACLE)
    assert result.passed, result.detail
    assert result.evidence["stamped_tests"] == [
        "t/test_o.py::test_param",
        "t/test_o.py::TestAdd::test_one",
        "t/test_o.py::test_fixed",
    ]


def test_a_stamped_test_the_run_left_out_fails_the_check(registry):
    check = must_pass("python -m pytest -q t/test_o.py -k 'not fixed'")
    result = grade_stamped(registry, check, ORACLE)
    assert result.status is Status.FAIL
    assert result.detail == "exit 0 but stamped test t/test_o.py::test_fixed did not run"


def test_a_skipped_stamped_test_fails_the_check(registry):
    skipped = ORACLE.replace("def test_fixed", "@pytest.mark.skip\ndef test_fixed")
    result = grade_stamped(registry, must_pass("python -m pytest -q t/test_o.py"), skipped)
    assert result.status is Status.FAIL
    assert result.detail == "exit 0 but stamped test t/test_o.py::test_fixed was skipped"


def grade_stamped(registry, check, oracle):
    """The oracle is the task's stamp, and on disk as stamping leaves it (here: replayed)."""
    task = make_task([check], CALC, registry=registry, stamp={"t/test_o.py": oracle})
    steps = make_trajectory(FIX, write("Write", "t/test_o.py", oracle))
    (result,) = run_task(task, steps, registry=registry).results
    return result


STAMP = {
    "t/test_o.py": b"def test_a():\n    pass\n\n\nclass TestT:\n    def test_b(self):\n"
    b"        pass\n\n    def helper(self):\n        pass\n"
}


@pytest.mark.parametrize(
    ("words", "wanted"),
    [
        (["t/test_o.py"], ["t/test_o.py::test_a", "t/test_o.py::TestT::test_b"]),
        (["-q", "./t/test_o.py::TestT"], ["t/test_o.py::TestT::test_b"]),
        (["t/test_o.py::test_a[1]"], ["t/test_o.py::test_a"]),
        (["--ignore", "t/test_o.py"], []),
        (["--ignore=t/test_o.py", "-q"], []),
        (["-k", "test_a", "t/other.py"], []),
    ],
)
def test_stamped_tests_are_read_from_the_stamped_bytes(words, wanted):
    assert stamped_tests(words, STAMP) == wanted


def test_shortfall_names_the_first_failure_and_every_parametrisation_counts():
    passed = Case("t.test_o", "test_p[1]", "passed")
    assert shortfall([passed], ["t/test_o.py::test_p"]) is None
    failed = Case("t.test_o.TestA", "test_b", "failed")
    assert shortfall([passed, failed], []) == (
        "the JUnit report shows 1 failed or errored: t.test_o.TestA::test_b"
    )
    assert shortfall([], []) == "the JUnit report shows 0 tests"


# -- time -------------------------------------------------------------------------------


CHILD = """\
import subprocess, sys, time
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)", sys.argv[1]])
time.sleep(30)
"""


def test_a_timeout_kills_the_whole_process_tree(grade):
    marker = f"bw-timeout-{uuid.uuid4().hex}"
    command = f"python child.py {marker}; echo never"
    started = time.monotonic()
    result = grade(must_pass(command, timeout=2), {"child.py": CHILD})
    assert time.monotonic() - started < 8
    assert result.status is Status.FAIL
    assert result.detail == f"timed out after 2s (process group killed): {command}"
    assert result.evidence["exit_code"] is None
    assert survivors(marker) == []


def test_a_daemon_the_command_starts_is_gone_when_it_ends(grade):
    marker = f"bw-daemon-{uuid.uuid4().hex}"
    daemon = f"setsid python -c 'import time; time.sleep(60)' {marker} > /dev/null 2>&1 &"
    started = time.monotonic()
    running = f"sleep 0.5; grep -ql {marker} /proc/[0-9]*/cmdline && echo running"
    result = grade(must_pass(f"{daemon} {running}"), None)
    assert time.monotonic() - started < 8
    assert result.status is Status.PASS and result.evidence["stdout"] == "running\n"
    assert survivors(marker) == []


def test_a_failing_exit_code_stays_a_failure_with_a_background_process(grade):
    result = grade(must_pass("sleep 30 & echo boom >&2; exit 4", timeout=5), None)
    assert result.status is Status.FAIL
    assert result.detail.startswith("exit 4: boom")


def test_a_clean_command_reports_no_straggler(grade):
    assert grade(must_pass("true"), None).evidence["straggler"] is False


def test_a_non_positive_timeout_is_refused_at_load_time(registry):
    with pytest.raises(SpecError, match=r"oracles\[0\]\.timeout"):
        make_task([must_pass("true", timeout=0)], registry=registry)


def test_a_report_reached_through_a_link_is_no_report(tmp_path):
    from benchwright.checks.test_must_pass._junit import ReportError, read_report

    real = tmp_path / "elsewhere.xml"
    real.write_text('<testsuite><testcase classname="t" name="test_ok"/></testsuite>')
    assert [c.outcome for c in read_report(real)] == ["passed"]
    planted = tmp_path / "junit.xml"
    planted.symlink_to(real)
    with pytest.raises(ReportError, match="pytest wrote no JUnit report"):
        read_report(planted)
