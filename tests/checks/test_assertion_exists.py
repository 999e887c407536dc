"""assertion_exists: a regex still matches the file after the agent's edits."""

from __future__ import annotations

import pytest
from builders import make_task, write

from benchwright.errors import SpecError
from benchwright.model import Status

TEST_FILE = "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"
CHECK = {
    "type": "assertion_exists",
    "path": "tests/test_calc.py",
    "pattern": r"assert add\(1, 2\) == 3",
}
FILES = {"tests/test_calc.py": TEST_FILE, "calc.py": "def add(a, b):\n    return a - b\n"}


def test_passes_when_the_assertion_survives_and_names_the_line(grade):
    result = grade(CHECK, FILES, write("Write", "calc.py", "def add(a, b):\n    return a + b\n"))
    assert result.status is Status.PASS
    assert result.detail == r"tests/test_calc.py:5 matches /assert add\(1, 2\) == 3/"
    assert result.evidence["line"] == 5 and result.evidence["match"] == "assert add(1, 2) == 3"


def test_reformatting_around_the_assertion_still_passes(grade):
    edited = (
        "# reformatted\nfrom calc import add\n\ndef test_add():\n    assert add(1, 2) == 3  # ok\n"
    )
    assert grade(CHECK, FILES, write("Write", "tests/test_calc.py", edited)).passed


def test_fails_a_weakened_assertion(grade):
    weakened = TEST_FILE.replace("assert add(1, 2) == 3", "assert add(1, 2)")
    result = grade(CHECK, FILES, write("Write", "tests/test_calc.py", weakened))
    assert result.status is Status.FAIL and result.score == 0.0
    assert result.detail == r"no match for /assert add\(1, 2\) == 3/ in tests/test_calc.py"


def test_fails_when_the_expected_value_is_changed(grade):
    step = {
        "tool": "Edit",
        "args": {"file_path": "tests/test_calc.py", "old_string": "== 3", "new_string": "== -1"},
    }
    assert grade(CHECK, FILES, step).status is Status.FAIL


def test_fails_when_the_file_was_deleted(grade):
    result = grade(CHECK, FILES, {"tool": "Delete", "args": {"path": "tests/test_calc.py"}})
    assert result.status is Status.FAIL
    assert result.detail == "tests/test_calc.py does not exist"


def test_a_commented_out_assertion_needs_an_anchored_pattern(grade):
    commented = TEST_FILE.replace("    assert", "    # assert")
    step = write("Write", "tests/test_calc.py", commented)
    # The seed's unanchored search is fooled by a comment: a known limit of regexes.
    assert grade(CHECK, FILES, step).passed
    # re.MULTILINE makes ^ a line start, so the author can close the hole.
    anchored = {**CHECK, "pattern": r"^\s*assert add\(1, 2\) == 3"}
    assert grade(anchored, FILES, step).status is Status.FAIL


def test_an_unescaped_pattern_is_a_regex_not_a_literal(grade):
    # The seed's pitfall: "add(1, 2)" unescaped is a group, and no longer matches the call.
    loose = {**CHECK, "pattern": "assert add(1, 2) == 3"}
    assert grade(loose, FILES).status is Status.FAIL


def test_the_path_is_normalized(grade):
    assert grade({**CHECK, "path": "./tests/test_calc.py"}, FILES).passed


def test_an_invalid_regex_is_refused_at_load_time(registry):
    with pytest.raises(SpecError, match=r"oracles\[0\]\.pattern: .*invalid regex"):
        make_task([{**CHECK, "pattern": "assert add(1"}], FILES, registry=registry)
