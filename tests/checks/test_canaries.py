"""Canary tests planted in stamped test files (`test_must_pass._canary`), and how the
report's account of them is judged (`_junit.tampered`)."""

from __future__ import annotations

import ast
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from builders import make_task

from benchwright.checks.test_must_pass import plant_canaries
from benchwright.checks.test_must_pass._canary import plant
from benchwright.checks.test_must_pass._junit import Case, tampered

ORACLE = b'''\
"""Hidden oracle."""

import pytest

from calc import add, greet

CASES = [(1, 2, 3), (2, 2, 4)]


def test_oracle_adds_small_numbers():
    total = add(5, 7)
    assert total == 12


def test_oracle_adds_negative_numbers():
    assert add(-5, -7) == -12


def test_oracle_greets_by_name():
    assert greet("ada") == "hello ada"


@pytest.mark.parametrize("a,b,expected", CASES)
def test_oracle_adds_pairs(a, b, expected):
    assert add(a, b) == expected
    assert add(b, a) == 3 if a == 1 else True
'''
HONEST = "def add(a, b):\n    return a + b\n\n\ndef greet(name):\n    return f'hello {name}'\n"
WRONG = "def add(a, b):\n    return a - b\n\n\ndef greet(name):\n    return name\n"
PYTHON_FILES = ("test_*.py",)
PATH = "tests/test_oracle.py"


def planted(seed: int, source: bytes = ORACLE) -> tuple[bytes, tuple[str, ...]]:
    files, canaries = plant({PATH: source}, PYTHON_FILES, random.Random(seed))
    return files[PATH], canaries.get(PATH, ())


def top_tests(source: bytes) -> dict[str, ast.FunctionDef]:
    tree = ast.parse(source)
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


@pytest.mark.parametrize("seed", range(20))
def test_a_canary_is_a_real_test_renamed_with_one_literal_changed(seed):
    source, canaries = planted(seed)
    real, after = top_tests(ORACLE), top_tests(source)
    assert len(canaries) == 2
    assert set(after) == set(real) | set(canaries)
    for name in canaries:
        assert name.startswith("test_oracle_") and name not in real
        canary = after[name]
        twins = [t for t in real.values() if _differences(t, canary) == 1]
        assert len(twins) == 1, ast.unparse(canary)


def _differences(real: ast.FunctionDef, canary: ast.FunctionDef) -> int:
    """How many literals differ between the two functions, renamed alike (-1: other shape)."""
    a, b = list(ast.walk(real)), list(ast.walk(canary))
    if len(a) != len(b):
        return -1
    differing = 0
    for x, y in zip(a, b, strict=True):
        if type(x) is not type(y):
            return -1
        if isinstance(x, ast.Constant) and x.value != y.value:
            differing += 1
    return differing


def test_canaries_differ_from_trial_to_trial():
    task = make_task(
        [{"type": "test_must_pass", "command": f"python -m pytest {PATH}"}],
        {"calc.py": HONEST},
        stamp={PATH: ORACLE.decode()},
    )
    made = [plant_canaries(task) for _ in range(3)]
    assert len({files[PATH] for files, _ in made}) == 3
    assert all(len(canaries[PATH]) == 2 for _, canaries in made)


def test_no_canaries_without_a_pytest_check():
    task = make_task(
        [{"type": "test_must_pass", "command": "python -c 'import calc'"}],
        {"calc.py": HONEST},
        stamp={PATH: ORACLE.decode()},
    )
    assert plant_canaries(task) == ({PATH: ORACLE}, {})


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("calc", [HONEST, WRONG], ids=["honest", "wrong"])
def test_every_canary_fails_whatever_the_code_does(tmp_path, seed, calc):
    source, canaries = planted(seed)
    stdout = run_pytest(tmp_path, source, calc)
    failed = {
        line.split("::")[1].split(" ")[0].split("[")[0]
        for line in stdout.splitlines()
        if line.startswith("FAILED ")
    }
    assert set(canaries) <= failed, stdout
    if calc == HONEST:
        assert failed == set(canaries), stdout


def run_pytest(tmp_path: Path, source: bytes, calc: str) -> str:
    """pytest's output on ``source`` as the test file, beside ``calc`` (unconfined: the
    harness's own files)."""
    (tmp_path / "calc.py").write_text(calc)
    (tmp_path / "test_planted.py").write_bytes(source)
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    command = [sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider"]
    done = subprocess.run(
        [*command, "test_planted.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.stdout


def test_a_string_literal_keeps_its_quotes_and_a_negative_number_its_sign():
    seen = set()
    for seed in range(30):
        source, canaries = planted(seed)
        for name in canaries:
            text = ast.get_source_segment(source.decode(), top_tests(source)[name]) or ""
            if "greet(" in text:
                assert '== "' in text and '"hello ada"' not in text
                seen.add("string")
            if "add(-5, -7)" in text:
                assert "== -" in text and "== -12" not in text
                seen.add("negative")
    assert seen == {"string", "negative"}


UNTWINNABLE = b"""\
import pytest

from calc import add


@pytest.mark.skip(reason="later")
def test_skipped():
    assert add(1, 2) == 3


@pytest.mark.xfail
def test_expected_to_fail():
    assert add(1, 2) == 3


def test_in_a_loop():
    for a in range(3):
        assert add(a, 0) == 0


def test_returns_early():
    if add(1, 1):
        return
    assert add(1, 2) == 3


def test_no_literal():
    assert add(1, 2) == add(2, 1)


class TestInAClass:
    def test_method(self):
        assert add(1, 2) == 3
"""


def test_tests_whose_outcome_is_not_their_asserts_are_never_twinned():
    assert planted(0, UNTWINNABLE) == (UNTWINNABLE, ())


def test_files_that_are_not_tests_or_do_not_parse_are_stamped_as_they_are():
    stamp = {"tests/helpers.py": ORACLE, "tests/test_broken.py": b"def test_x(:\n"}
    assert plant(stamp, PYTHON_FILES, random.Random(0)) == (stamp, {})


# -- the report's account of the canaries ---------------------------------------------

STAMP = {PATH: ORACLE}
CANARIES = {PATH: ("test_oracle_adds_big_numbers",)}
CLASS = "tests.test_oracle"


def cases(canary: str | None) -> list[Case]:
    found = [Case(CLASS, "test_oracle_adds_small_numbers", "passed")]
    return found + ([Case(CLASS, "test_oracle_adds_big_numbers", canary)] if canary else [])


def test_a_failed_canary_is_the_honest_account():
    assert tampered(cases("failed"), CANARIES, STAMP, []) is None


@pytest.mark.parametrize("outcome", ["passed", "skipped"])
def test_a_canary_reported_other_than_failed_is_tampering(outcome):
    assert tampered(cases(outcome), CANARIES, STAMP, []) == (
        f"report tampered: canary test {PATH}::test_oracle_adds_big_numbers was reported {outcome}"
    )


def test_a_canary_missing_from_a_file_that_ran_in_full_is_tampering():
    assert tampered(cases(None), CANARIES, STAMP, [PATH]) == (
        f"report tampered: canary test {PATH}::test_oracle_adds_big_numbers "
        "is missing from the report"
    )


@pytest.mark.parametrize(
    "words", [["-k", "small"], ["-m", "slow"], [f"--deselect={PATH}::x"], [f"{PATH}::x"]]
)
def test_a_canary_missing_from_a_selection_is_not_tampering(words):
    assert tampered(cases(None), CANARIES, STAMP, words) is None


def test_a_canary_of_a_file_that_did_not_run_may_be_missing():
    assert tampered([Case("tests.test_calc", "test_add", "passed")], CANARIES, STAMP, []) is None


PARAMETRIZED = b"""\
import pytest

from calc import add


@pytest.mark.parametrize("a, b, total", [(1, 2, 3), (2, 5, 7)])
def test_adds(a, b, total):
    assert add(a, b) == total


@pytest.mark.parametrize("n", [1, 2])
def test_adds_nothing(n):
    assert add(n, 0) == n
"""


@pytest.mark.parametrize("seed", range(4))
def test_the_twin_of_a_parametrized_test_changes_the_expected_value_of_every_row(
    tmp_path: Path, seed: int
):
    """``n`` is also the input of ``test_adds_nothing``: changing it would not fail the copy."""
    source, canaries = planted(seed, PARAMETRIZED)
    assert len(canaries) == 1
    rows = ast.literal_eval(top_tests(source)[canaries[0]].decorator_list[0].args[1])
    assert [row[:2] for row in rows] == [(1, 2), (2, 5)]
    assert rows[0][2] != 3 and rows[1][2] != 7
    stdout = run_pytest(tmp_path, source, HONEST)
    assert "2 failed, 4 passed" in stdout, stdout
