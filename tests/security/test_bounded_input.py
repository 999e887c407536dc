"""Red team, issue #11 item 7: input files that used to crash the grader or exhaust its memory.

Each attack is a suite in ``tmp_path`` run through the real console script
(``benchwright run SUITE --agent nop``). Every one must end in exit 2 with one
line naming the file and the field, quickly, before any agent starts and with
nothing written under ``--out``.
"""

from __future__ import annotations

import os
import textwrap
import time
from pathlib import Path

import pytest

from benchwright.errors import EXIT_INVALID

pytestmark = pytest.mark.slow

TASK = """\
id: {id}
class: fix
prompt: Fix add.
{body}
checks:
  - type: assertion_exists
    path: calc.py
    pattern: 'return a \\+ b'
"""
CALC = 'workspace:\n  calc.py: "def add(a, b):\\n    return a - b\\n"'


def _suite(root: Path, body: str = CALC, task_id: str = "t") -> Path:
    (root / "tasks").mkdir(parents=True)
    (root / "suite.yaml").write_text(
        "suite: attack\nclasses: {fix: fixes}\ntasks: [tasks/*.yaml]\n"
    )
    (root / "tasks" / "t.yaml").write_text(TASK.format(id=task_id, body=body))
    return root


def _run(cli, suite: Path, tmp_path: Path) -> tuple[str, float]:
    out = tmp_path / "runs"
    started = time.perf_counter()
    proc = cli("run", str(suite), "--agent", "nop", "--out", str(out), "--no-sandbox")
    elapsed = time.perf_counter() - started
    assert proc.returncode == EXIT_INVALID, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert not out.exists() or not any(out.rglob("result.json"))
    return proc.stderr, elapsed


def _laughs(levels: int = 9) -> str:
    lines = ["lol0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"lol{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 9) + "]" for n in range(1, levels)]
    return "\n".join(lines) + f"\ntags: *a{levels - 1}\n" + CALC


def test_billion_laughs_is_refused_in_a_second_not_minutes(cli, tmp_path):
    stderr, elapsed = _run(cli, _suite(tmp_path / "s", _laughs()), tmp_path)
    assert "tasks/t.yaml: aliases expand to more than 10000 extra nodes" in stderr
    assert elapsed < 10  # was 114 s and 3.9 GB


def test_a_fixture_link_to_dev_zero_is_refused_without_reading_it(cli, tmp_path):
    suite = _suite(tmp_path / "s", "fixture: fx")
    (suite / "tasks" / "fx").mkdir()
    (suite / "tasks" / "fx" / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (suite / "tasks" / "fx" / "zero.bin").symlink_to("/dev/zero")
    stderr, elapsed = _run(cli, suite, tmp_path)
    assert "tasks/t.yaml: fixture: cannot read " in stderr
    assert "fx/zero.bin: symbolic link leads outside to /dev/zero" in stderr
    assert elapsed < 10


def test_a_fifo_in_a_fixture_is_refused_instead_of_hanging(cli, tmp_path):
    suite = _suite(tmp_path / "s", "fixture: fx")
    (suite / "tasks" / "fx").mkdir()
    (suite / "tasks" / "fx" / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    os.mkfifo(suite / "tasks" / "fx" / "pipe")
    stderr, _ = _run(cli, suite, tmp_path)
    assert "fx/pipe: not a regular file (a device, FIFO or socket)" in stderr


def test_a_task_file_that_is_a_fifo_is_refused_instead_of_hanging(cli, tmp_path):
    suite = _suite(tmp_path / "s")
    os.mkfifo(suite / "tasks" / "u.yaml")
    proc = cli("validate", str(suite / "tasks"))
    assert proc.returncode == EXIT_INVALID
    assert proc.stderr.endswith("tasks/u.yaml: not a regular file\n"), proc.stderr


def test_nesting_past_the_recursion_limit_is_refused(cli, tmp_path):
    deep = "tags: " + "[" * 5000 + "]" * 5000 + "\n" + CALC
    stderr, _ = _run(cli, _suite(tmp_path / "s", deep), tmp_path)
    # libyaml stops at its own limit (1000) first; the pure-Python parser at ours (100)
    assert "tasks/t.yaml: " in stderr
    assert "exceeded maximum nesting depth" in stderr or "nesting deeper than 100" in stderr


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (CALC + "\nbudget: 1e400", "budget: must be a number, got str"),
        (CALC + "\nbudget: .inf", "budget: must be a finite number, got inf"),
        (CALC + "\nbudget: 99999999999999999999999", "budget: integer beyond 64 bits"),
    ],
)
def test_numbers_that_no_consumer_can_hold_are_refused(cli, tmp_path, body, message):
    stderr, _ = _run(cli, _suite(tmp_path / "s", body), tmp_path)
    assert f"tasks/t.yaml: {message}" in stderr


def test_a_task_id_that_is_a_path_is_refused_before_a_run_directory_exists(cli, tmp_path):
    long_id = "a" * 201
    stderr, _ = _run(cli, _suite(tmp_path / "s", task_id=long_id), tmp_path)
    assert "tasks/t.yaml: id: must be at most 200 characters, got 201" in stderr


def test_a_solution_and_stamp_that_clash_are_refused_at_load(cli, tmp_path):
    body = CALC + textwrap.dedent("""
        stamp:
          calc.py/oracle.py: "assert True\\n"
    """)
    stderr, _ = _run(cli, _suite(tmp_path / "s", body), tmp_path)
    assert "stamp[\"calc.py/oracle.py\"]: conflicts with 'calc.py'" in stderr
