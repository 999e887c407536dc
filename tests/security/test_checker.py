"""Red team: workspaces that try to talk ``test_must_pass`` into passing (issue #11, item 8).

Each attack is the agent's final tree: the calculator is still wrong, and something
else in the workspace tries to make the checker report a pass. The real check judges
every attack FAIL while honest work PASSes. Where an attack fools a naive
``python -m pytest`` (run here unconfined, as the checker used to), the test shows
that too, so each attack is known to be real.
"""

from __future__ import annotations

import glob
import os
import py_compile
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from builders import make_task, make_trajectory
from processes import survivors

from benchwright.checks import BUILTIN_CHECKS, build_registry
from benchwright.execution.evaluate import evaluate
from benchwright.model import Status
from benchwright.workspace import Workspace

BUGGY = "def add(a, b):\n    return a - b\n"
FIXED = "def add(a, b):\n    return a + b\n"
FIXTURE = {
    "calc.py": BUGGY,
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
}
ORACLE = "tests/test_oracle.py"
STAMP = {ORACLE: "from calc import add\n\n\ndef test_more():\n    assert add(5, 7) == 12\n"}
CHECKS = [
    {"id": "suite", "type": "test_must_pass", "command": "python -m pytest -q"},
    {"id": "oracle", "type": "test_must_pass", "command": f"python -m pytest -q {ORACLE}"},
]
REGISTRY = build_registry(BUILTIN_CHECKS, plugins=False)
TASK = make_task(CHECKS, FIXTURE, registry=REGISTRY, stamp=STAMP)

PASS_ALL = """\
import pytest


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    report.outcome = "passed"
    return report
"""
"""A plugin that rewrites every test report to passed (the JUnit report would agree)."""
EXIT_0 = "import os\nos._exit(0)\n"


def _tree(extra: dict[str, bytes | str], removed: tuple[str, ...] = ()) -> dict[str, bytes]:
    files = {**FIXTURE, **STAMP, **extra}  # the stamp is on disk, as after stamping
    return {
        p: c.encode() if isinstance(c, str) else c for p, c in files.items() if p not in removed
    }


def judge(extra: dict[str, bytes | str], removed: tuple[str, ...] = ()) -> dict[str, Status]:
    """Every check's status on this tree (`judged` keeps the details)."""
    return {check_id: status for check_id, (status, _) in judged(extra, removed).items()}


def judged(
    extra: dict[str, bytes | str], removed: tuple[str, ...] = ()
) -> dict[str, tuple[Status, str]]:
    """Every check's status and detail; the agent's tree must come back unchanged."""
    files = _tree(extra, removed)
    workspace = Workspace(files)
    try:
        results = evaluate(TASK, workspace, make_trajectory(), registry=REGISTRY)
        root = workspace.directory()
        after = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
        assert after == set(files), "a check changed the agent's tree"
        for path, content in files.items():
            assert (root / path).read_bytes() == content, f"a check changed {path}"
    finally:
        workspace.cleanup()
    return {r.check_id: (r.status, r.detail) for r in results}


def naive_exit(
    tmp_path: Path,
    extra: dict[str, bytes | str],
    removed: tuple[str, ...] = (),
    args: tuple[str, ...] = (),
) -> int:
    """What the old checker saw: ``python -m pytest -q`` in the tree, exit status only."""
    root = tmp_path / "naive"
    for path, content in _tree(extra, removed).items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(content)
    env = {"PATH": os.environ["PATH"], "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
    return subprocess.run(command, cwd=root, env=env, capture_output=True, timeout=60).returncode


def pyc(tmp_path: Path, source: str, mode: py_compile.PycInvalidationMode) -> bytes:
    src = tmp_path / f"src-{uuid.uuid4().hex}.py"
    src.write_text(source)
    out = tmp_path / "out.pyc"
    py_compile.compile(str(src), cfile=str(out), invalidation_mode=mode, doraise=True)
    return out.read_bytes()


FAILED = {"suite": Status.FAIL, "oracle": Status.FAIL}


def test_honest_work_passes_both_checks():
    assert judge({"calc.py": FIXED}) == {"suite": Status.PASS, "oracle": Status.PASS}


def test_the_wrong_calculator_fails_both_checks():
    assert judge({}) == FAILED


# -- attacks, by class; each fools a naive run unless marked ------------------------------

DIST_INFO = "evil-0.1.dist-info"
ATTACKS: dict[str, dict[str, str]] = {
    # runner shadowing
    "pytest.py": {"pytest.py": "raise SystemExit(0)\n"},
    "_pytest/ and pytest/": {
        "pytest/__init__.py": EXIT_0,
        "_pytest/__init__.py": EXIT_0,
    },
    # stdlib shadowing (pytest imports json and argparse at start-up)
    "json.py": {"json.py": EXIT_0},
    "argparse.py": {"argparse.py": EXIT_0},
    # config discovery: outranks the fixture's pyproject.toml, or sits nearer the tests
    "pytest.ini addopts": {"pytest.ini": "[pytest]\naddopts = -p evil\n", "evil.py": PASS_ALL},
    "tests/tox.ini": {"tests/tox.ini": "[pytest]\naddopts = -p evil\n", "evil.py": PASS_ALL},
    "tests/setup.cfg": {
        "tests/setup.cfg": "[tool:pytest]\naddopts = -p evil\n",
        "evil.py": PASS_ALL,
    },
    # plugin autoload through an entry point on the path
    "dist-info entry point": {
        f"{DIST_INFO}/METADATA": "Metadata-Version: 2.1\nName: evil\nVersion: 0.1\n",
        f"{DIST_INFO}/entry_points.txt": "[pytest11]\nevil = evil\n",
        "evil.py": PASS_ALL,
    },
    "egg-info entry point": {
        "evil.egg-info/PKG-INFO": "Metadata-Version: 2.1\nName: evil\nVersion: 0.1\n",
        "evil.egg-info/entry_points.txt": "[pytest11]\nevil = evil\n",
        "evil.py": PASS_ALL,
    },
    # conftest files the task does not own
    "root conftest.py hook": {"conftest.py": PASS_ALL},
    "tests/conftest.py added": {"tests/conftest.py": PASS_ALL},
    # exit 0 from agent code the tests import
    "os._exit(0) at import": {"calc.py": BUGGY + EXIT_0},
    "atexit": {"calc.py": BUGGY + "import atexit, os\natexit.register(os._exit, 0)\n"},
}
NOT_NAIVE = {"tests/conftest.py added"}
"""Attacks the naive run is not fooled by on this tree (they still must FAIL)."""
CAUGHT_BY = {
    "os._exit(0) at import": ("exit 0 but pytest wrote no JUnit report",) * 2,
    "atexit": (
        "exit 0 but the JUnit report shows 2 failed or errored: tests.test_calc::test_add",
        "exit 0 but the JUnit report shows 1 failed or errored: tests.test_oracle::test_more",
    ),
}
"""How the checker sees through an attack; by default, pytest runs and the tests fail."""
NAIVE_ARGS = {"tests/tox.ini": (ORACLE,), "tests/setup.cfg": (ORACLE,)}
"""Config nearer the tests is found for a command that names them."""


@pytest.mark.parametrize("name", ATTACKS)
def test_an_attack_in_the_workspace_fails_both_checks(name, tmp_path):
    files = ATTACKS[name]
    if name not in NOT_NAIVE:
        fooled = naive_exit(tmp_path, files, args=NAIVE_ARGS.get(name, ()))
        assert fooled == 0, f"{name} does not fool a naive run"
    results = judged(files)
    assert {check_id: status for check_id, (status, _) in results.items()} == FAILED
    suite, oracle = CAUGHT_BY.get(name, ("exit 1: 2 failed", "exit 1: 1 failed"))
    assert results["suite"][1].startswith(suite), results
    assert results["oracle"][1].startswith(oracle), results


def test_planted_bytecode_for_an_unchanged_module_is_not_read(tmp_path):
    planted = pyc(tmp_path, FIXED, py_compile.PycInvalidationMode.UNCHECKED_HASH)
    files = {f"__pycache__/calc.cpython-{sys.version_info[0]}{sys.version_info[1]}.pyc": planted}
    assert naive_exit(tmp_path, files) == 0
    assert judge(files) == FAILED


def test_sourceless_bytecode_is_not_imported(tmp_path):
    files = {"calc.pyc": pyc(tmp_path, FIXED, py_compile.PycInvalidationMode.TIMESTAMP)}
    assert naive_exit(tmp_path, files, removed=("calc.py",)) == 0
    assert judge(files, removed=("calc.py",)) == FAILED


@pytest.mark.parametrize("name", ["sitecustomize.py", "usercustomize.py"])
def test_a_site_hook_in_the_workspace_never_runs(name):
    assert judge({name: EXIT_0, "calc.py": FIXED}) == {"suite": Status.PASS, "oracle": Status.PASS}
    assert judge({name: "import os\nos.environ['X'] = '1'\n" + EXIT_0}) == FAILED


def test_agent_code_cannot_write_outside_its_copy():
    marker = f"/tmp/bw-escape-{uuid.uuid4().hex}"
    escape = (
        "import glob, pathlib\n"
        f"pathlib.Path({marker!r}).write_text('out')\n"
        "for tree in glob.glob('/tmp/benchwright-*/workspace'):\n"
        "    pathlib.Path(tree, 'calc.py').write_text('def add(a, b):\\n    return a + b\\n')\n"
    )
    # judge() asserts the agent's tree is unchanged; the host's /tmp must be too.
    assert judge({"calc.py": escape + BUGGY}) == FAILED
    assert not Path(marker).exists()
    assert not glob.glob("/tmp/benchwright-*/workspace/escaped")


def test_a_daemon_started_by_agent_code_does_not_survive_the_check():
    marker = f"bw-checker-daemon-{uuid.uuid4().hex}"
    daemon = (
        "import subprocess, sys\n"
        f"subprocess.Popen(['setsid', sys.executable, '-c', 'import time; time.sleep(60)', "
        f"{marker!r}], start_new_session=True)\n"
    )
    assert judge({"calc.py": daemon + FIXED}) == {"suite": Status.PASS, "oracle": Status.PASS}
    assert survivors(marker) == []
