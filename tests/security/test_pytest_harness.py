"""Red team, round three (issue #24): false passes of the pytest harness.

Three classes, each attacked at least twice; every attack leaves a wrong calculator in
place and must be judged FAIL, with nothing written outside the check's copy:

1. a workspace module named after something the interpreter looks for but this
   platform lacks (``nt``, ``_winapi``, ``msvcrt``, ``org`` for Jython's ``copy``
   support) runs inside pytest and rewrites the JUnit report;
2. a workspace module with the basename of a task-owned test is imported in its
   place (pytest's own ``__file__`` comparison is spoofed);
3. the code under test patches pytest in-process: per-trial canary tests, stamped
   into the hidden test file and built to fail, show the report was tampered with.

Each attack is first shown to fool the checker's old setup (the workspace appended to
``sys.path`` at start-up, ``--import-mode=append``, exit status and report), so it is
known to be real.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from builders import make_task, make_trajectory
from processes import survivors

from benchwright.checks import BUILTIN_CHECKS, build_registry
from benchwright.execution.evaluate import evaluate
from benchwright.execution.stamp import stamp_task
from benchwright.model import Status
from benchwright.workspace import Workspace

BUGGY = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n"
FIXED = "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n"
FIXTURE = {
    "calc.py": BUGGY,
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    "tests/test_calc.py": (
        "from calc import add, mul\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\n"
        "def test_mul():\n    assert mul(3, 4) == 12\n"
    ),
}
ORACLE = "tests/test_oracle.py"
STAMP = {
    ORACLE: (
        "from calc import add, mul\n\n\ndef test_more():\n    assert add(5, 7) == 12\n\n\n"
        "def test_product():\n    assert mul(2, 6) == 12\n\n\n"
        "def test_from_zero():\n    assert add(0, 3) == 3\n"
    )
}
CHECKS = [
    {"id": "suite", "type": "test_must_pass", "command": "python -m pytest -q"},
    {"id": "oracle", "type": "test_must_pass", "command": f"python -m pytest -q {ORACLE}"},
]
REGISTRY = build_registry(BUILTIN_CHECKS, plugins=False)
TASK = make_task(CHECKS, FIXTURE, registry=REGISTRY, stamp=STAMP)
FAILED = {"suite": Status.FAIL, "oracle": Status.FAIL}
PASSED = {"suite": Status.PASS, "oracle": Status.PASS}
MARKER = f"/tmp/bw-harness-escape-{uuid.uuid4().hex}"

REWRITE_REPORT = f"""\
import atexit, os, re, sys


def _rewrite():
    for word in sys.argv:
        if word.startswith("--junitxml="):
            path = word.split("=", 1)[1]
            with open(path) as report:
                text = report.read()
            text = re.sub(r"<failure.*?</failure>", "", text, flags=re.S)
            text = re.sub(r'failures="[0-9]+"', 'failures="0"', text)
            with open(path, "w") as report:
                report.write(text)
    os._exit(0)


atexit.register(_rewrite)
try:
    open({MARKER!r}, "w").write("escaped")
except OSError:
    pass
"""
"""Agent code that, once it runs in the pytest process, turns every failure into a pass."""
AS_IF_ABSENT = REWRITE_REPORT + "raise ModuleNotFoundError(__name__)\n"
"""The same, then behaving as the missing module it stands for (so nothing else breaks)."""


def agent_tree(extra: dict[str, str]) -> dict[str, bytes]:
    return {p: c.encode() for p, c in {**FIXTURE, **extra}.items()}


def judged(extra: dict[str, str], *, task=TASK, canaries: bool = False):
    """Every check's (status, detail), on the agent's tree after stamping.

    Without ``canaries`` the stamp goes to disk as the task wrote it (the guards alone
    are judged); with them it is stamped as a trial stamps it.
    """
    files = agent_tree(extra)
    workspace = Workspace(files)
    try:
        root = workspace.directory()
        planted: dict[str, tuple[str, ...]] = {}
        if canaries:
            planted = dict(stamp_task(root, task, ""))
        else:
            for path, content in task.stamp.items():
                (root / path).write_bytes(content)
        stamped = {p: (root / p).read_bytes() for p in task.stamp}
        results = evaluate(task, workspace, make_trajectory(), registry=REGISTRY, canaries=planted)
        after = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
        assert after == set(files) | set(task.stamp) | ({".benchwright/answer.txt"} & after)
        for path, content in {**files, **stamped}.items():
            assert (root / path).read_bytes() == content, f"a check changed {path}"
    finally:
        workspace.cleanup()
    assert not Path(MARKER).exists(), "agent code wrote outside its copy"
    return {r.check_id: (r.status, r.detail, r.evidence) for r in results}


def statuses(results) -> dict[str, Status]:
    return {check_id: status for check_id, (status, _, _) in results.items()}


def old_checker_fooled(tmp_path: Path, extra: dict[str, str], *args: str) -> bool:
    """Whether the checker's old setup reports a pass: workspace appended at start-up,
    ``--import-mode=append``, exit 0 and a report with no failure."""
    root, site = tmp_path / "old", tmp_path / "old-site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(f"import sys\nsys.path.append({str(root)!r})\n")
    for path, content in {**agent_tree(extra), **{p: c for p, c in TASK.stamp.items()}}.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(content)
    report = tmp_path / "old-report.xml"
    env = {
        "PATH": os.environ["PATH"],
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONPATH": str(site),
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }
    command = [sys.executable, "-P", "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    command += ["--import-mode=append", f"--junitxml={report}", *args]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, timeout=120)
    Path(MARKER).unlink(missing_ok=True)  # unconfined, the old run could write it
    text = report.read_text() if report.exists() else ""
    return done.returncode == 0 and "<testcase" in text and "<failure" not in text


def test_honest_work_passes_with_and_without_canaries():
    assert statuses(judged({"calc.py": FIXED})) == PASSED
    results = judged({"calc.py": FIXED}, canaries=True)
    assert statuses(results) == PASSED
    _, detail, evidence = results["oracle"]
    assert "(and 2 canary tests failed, as they must)" in detail
    assert evidence["junit"] == {"passed": 3, "failed": 0, "skipped": 0}
    assert len(evidence["canaries"][ORACLE]) == 2


def test_the_wrong_calculator_fails_on_its_own_tests_not_as_tampering():
    results = judged({}, canaries=True)
    assert statuses(results) == FAILED
    assert results["oracle"][1] == (
        "exit 1: the JUnit report shows 2 failed or errored: tests.test_oracle::test_more"
    )


# -- 1. names the interpreter looks for but this platform lacks ----------------------

ABSENT_HERE = {
    "nt.py": {"nt.py": AS_IF_ABSENT},  # ntpath, imported by pathlib
    "_winapi.py": {"_winapi.py": AS_IF_ABSENT},  # subprocess
    "msvcrt.py": {"msvcrt.py": AS_IF_ABSENT},  # subprocess
    "org/ (copy's Jython probe)": {"org/__init__.py": AS_IF_ABSENT},  # not a stdlib name
}


@pytest.mark.parametrize("name", ABSENT_HERE)
def test_a_module_named_after_something_absent_here_never_runs(name, tmp_path):
    files = ABSENT_HERE[name]
    assert old_checker_fooled(tmp_path, files), f"{name} does not fool the old checker"
    results = judged(files)
    assert statuses(results) == FAILED
    assert results["suite"][1].startswith("exit 1: 3 failed"), results
    assert results["oracle"][1].startswith("exit 1: 2 failed"), results
    assert statuses(judged({**files, "calc.py": FIXED})) == PASSED  # neutralised, not punished


def test_a_stdlib_name_probed_after_start_up_comes_from_the_stdlib_or_nowhere():
    """``mimetypes`` looks for ``_winapi`` when first imported: here by the task's own
    oracle, before it imports the code under test; the workspace's never answers."""
    stamp = {ORACLE: "import mimetypes\n\n" + STAMP[ORACLE]}
    task = make_task(CHECKS, FIXTURE, registry=REGISTRY, stamp=stamp)
    results = judged({"_winapi.py": AS_IF_ABSENT}, task=task)
    assert statuses(results) == FAILED
    assert results["oracle"][1].startswith("exit 1: 2 failed"), results


# -- 2. a test module shadowed by its basename ----------------------------------------

SPOOFED = """\
import os

__file__ = os.path.join(os.path.dirname(os.path.abspath(__file__)), {path!r})
{tests}
"""
ALL_PASS = "".join(
    f"def {name}():\n    pass\n\n\n"
    for name in ("test_more", "test_product", "test_from_zero", "test_add", "test_mul")
)
SHADOWS = {
    # the stamped oracle, by a root-level module found first on sys.path
    "root test_oracle.py": {"test_oracle.py": SPOOFED.format(path=ORACLE, tests=ALL_PASS)},
    # the fixture's own test file, by a package of the same name
    "test_calc/ package": {
        "test_calc/__init__.py": SPOOFED.format(path="../tests/test_calc.py", tests=ALL_PASS)
    },
}
SHADOW_ARGS = {"root test_oracle.py": (ORACLE,), "test_calc/ package": ("tests/test_calc.py",)}


@pytest.mark.parametrize("name", SHADOWS)
def test_a_module_with_a_test_file_basename_is_not_imported_in_its_place(name, tmp_path):
    files = SHADOWS[name]
    assert old_checker_fooled(tmp_path, files, *SHADOW_ARGS[name])
    results = judged(files)
    assert statuses(results) == FAILED
    assert results["suite"][1].startswith("exit 1: 3 failed"), results
    assert results["oracle"][1].startswith("exit 1: 2 failed"), results
    assert statuses(judged({**files, "calc.py": FIXED})) == PASSED


def test_a_shadowed_test_helper_resolves_to_the_task_file():
    """A module beside the task's tests (a helper they import) is the task's file too."""
    helper = {"tests/helpers.py": "EXPECTED = 12\n"}
    stamp = {ORACLE: "from helpers import EXPECTED\n\n" + STAMP[ORACLE]}
    task = make_task(CHECKS, {**FIXTURE, **helper}, registry=REGISTRY, stamp=stamp)
    results = judged({**helper, "helpers.py": REWRITE_REPORT + "EXPECTED = 12\n"}, task=task)
    assert statuses(results) == FAILED
    assert results["oracle"][1].startswith("exit 1: 2 failed"), results


# -- 3. the code under test tampers with pytest's reporting ---------------------------

EVERY_REPORT_PASSED = """\
import _pytest.reports

_made = _pytest.reports.TestReport.from_item_and_call.__func__


def _passed(cls, item, call):
    report = _made(cls, item, call)
    report.outcome, report.longrepr = "passed", None
    return report


_pytest.reports.TestReport.from_item_and_call = classmethod(_passed)
"""
DROP_FAILURES = """\
import atexit, os, sys
import xml.etree.ElementTree as ET


def _drop():
    for word in sys.argv:
        if word.startswith("--junitxml="):
            path = word.split("=", 1)[1]
            tree = ET.parse(path)
            for suite in tree.getroot().iter("testsuite"):
                for case in list(suite):
                    if case.find("failure") is not None:
                        suite.remove(case)
            tree.write(path)
    os._exit(0)


atexit.register(_drop)
"""
DAEMON = "bw-harness-daemon-{marker}"
TAMPERING = {
    "every report rewritten to passed": BUGGY + EVERY_REPORT_PASSED,
    "failures cut from the JUnit file": BUGGY + REWRITE_REPORT,
    "failed test cases dropped from the JUnit file": BUGGY + DROP_FAILURES,
}
TAMPER_DETAIL = {
    "every report rewritten to passed": "was reported passed",
    "failures cut from the JUnit file": "was reported passed",
    "failed test cases dropped from the JUnit file": "is missing from the report",
}


@pytest.mark.parametrize("name", TAMPERING)
def test_tampering_by_the_code_under_test_is_seen_by_the_canaries(name, tmp_path):
    files = {"calc.py": TAMPERING[name]}
    assert old_checker_fooled(tmp_path, files, ORACLE)
    results = judged(files, canaries=True)
    assert statuses(results) == FAILED
    for check_id in ("suite", "oracle"):
        detail = results[check_id][1]
        assert detail.startswith(f"report tampered: canary test {ORACLE}::test_"), detail
        assert detail.endswith(TAMPER_DETAIL[name]), detail


def test_an_exit_status_forced_to_0_beside_failed_canaries_is_tampering():
    marker = uuid.uuid4().hex
    daemon = (
        "import atexit, os, subprocess, sys\n"
        f"subprocess.Popen(['setsid', sys.executable, '-c', 'import time; time.sleep(60)', "
        f"{DAEMON.format(marker=marker)!r}], start_new_session=True)\n"
        "atexit.register(os._exit, 0)\n"
    )
    results = judged({"calc.py": FIXED + daemon}, canaries=True)
    assert statuses(results) == FAILED
    assert results["oracle"][1] == "report tampered: exit 0 though canary tests failed"
    assert survivors(DAEMON.format(marker=marker)) == []


def test_canaries_left_out_by_the_task_own_selection_are_not_tampering():
    """``-k`` runs part of the file: its canaries may honestly be missing. ``-x`` would
    stop at the first failing canary: the checker runs every test all the same."""
    checks = [
        {"id": "k", "type": "test_must_pass", "command": "pytest -q -k more"},
        {"id": "x", "type": "test_must_pass", "command": f"pytest -q -x {ORACLE}"},
        {"id": "node", "type": "test_must_pass", "command": f"pytest -q {ORACLE}::test_from_zero"},
    ]
    task = make_task(checks, FIXTURE, registry=REGISTRY, stamp=STAMP)
    results = judged({"calc.py": FIXED}, task=task, canaries=True)
    assert statuses(results) == {"k": Status.PASS, "x": Status.PASS, "node": Status.PASS}
    assert results["x"][2]["junit"]["passed"] == 3
