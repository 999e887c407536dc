"""What the pytest bootstrap is told: the task's test modules, and the config it reads."""

from __future__ import annotations

import json
from pathlib import Path

from benchwright.checks.test_must_pass._bootstrap import owned_modules
from benchwright.checks.test_must_pass._pytest_config import (
    DEFAULT_PYTHON_FILES,
    fixture_config,
)

OWNED = {
    "calc.py",
    "pkg/core.py",
    "tests/test_calc.py",
    "tests/helpers.py",
    "tests/conftest.py",
    "checks/oracle_calc.py",
    "checks/data.py",
    "tests/test_gone.py",
}


def listed(tmp_path: Path, python_files: tuple[str, ...]) -> list[str]:
    copy = tmp_path / "work"
    listing = tmp_path / "owned.json"
    assert owned_modules(copy, OWNED, python_files, listing) == str(listing)
    return [Path(p).relative_to(copy).as_posix() for p in json.loads(listing.read_text())]


def test_the_owned_modules_are_the_task_tests_and_the_modules_beside_them(tmp_path):
    assert listed(tmp_path, DEFAULT_PYTHON_FILES) == [
        "tests/conftest.py",
        "tests/helpers.py",
        "tests/test_calc.py",
        "tests/test_gone.py",  # the bootstrap skips it: it looks inside the sandbox
    ]


def test_the_config_python_files_name_the_test_modules(tmp_path):
    assert listed(tmp_path, ("oracle_*.py",)) == [
        "checks/data.py",
        "checks/oracle_calc.py",
        "tests/conftest.py",
        "tests/helpers.py",
        "tests/test_calc.py",  # beside the conftest
        "tests/test_gone.py",
    ]


def test_the_fixture_config_gives_python_files_and_addopts():
    toml = b'[tool.pytest.ini_options]\npython_files = ["check_*.py"]\n'
    toml += b"addopts = \"-m 'not slow'\"\n"
    config = fixture_config({"pyproject.toml": toml})
    assert config.python_files == ("check_*.py",)
    assert config.addopts == ("-m", "not slow")
    ini = fixture_config({"pytest.ini": b"[pytest]\npython_files = a_*.py b_*.py\n"})
    assert (ini.python_files, ini.addopts) == (("a_*.py", "b_*.py"), ())
    assert fixture_config({}).python_files == DEFAULT_PYTHON_FILES
