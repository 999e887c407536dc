"""pattern_absent: the old name is gone from the agent's files, judged without git."""

from __future__ import annotations

import pytest
from builders import make_task, write

from benchwright.errors import SpecError
from benchwright.model import Status

CHECK = {
    "type": "pattern_absent",
    "patterns": [r"total_value\(", r"total_value ="],
    "paths": ["inventory/**", "tests/**"],
    "exclude": ["tests/legacy/**"],
}
FILES = {
    "inventory/store.py": "class Store:\n    def total_value(self):\n        return 0\n",
    "tests/test_store.py": "def test_total(store):\n    assert store.total_value() == 0\n",
    "README.md": "call total_value() to sum the stock\n",
}
STORE = "class Store:\n    def stock_value(self):\n        return 0\n"
RENAMED = (
    write("Write", "inventory/store.py", STORE),
    write(
        "Write",
        "tests/test_store.py",
        "def test_total(store):\n    assert store.stock_value() == 0\n",
    ),
)


def test_a_complete_rename_passes_and_files_outside_paths_are_not_searched(grade):
    result = grade(CHECK, FILES, *RENAMED)
    assert result.status is Status.PASS
    assert result.detail == "no match for 2 pattern(s) in 2 text file(s)"


def test_an_untouched_tree_fails_naming_the_first_file_and_line(grade):
    result = grade(CHECK, FILES)
    assert result.status is Status.FAIL and result.score == 0.0
    assert result.detail == r"inventory/store.py:2 matches /total_value\(/: 'total_value('"
    assert result.evidence["path"] == "inventory/store.py" and result.evidence["line"] == 2


def test_a_near_miss_an_alias_left_behind_fails(grade):
    alias = STORE + "\n    total_value = stock_value\n"
    result = grade(CHECK, FILES, RENAMED[1], write("Write", "inventory/store.py", alias))
    assert result.status is Status.FAIL
    assert result.detail == "inventory/store.py:5 matches /total_value =/: 'total_value ='"


def test_excluded_files_are_not_searched(grade):
    legacy = write("Write", "tests/legacy/old.py", "x.total_value()\n")
    assert grade(CHECK, FILES, *RENAMED, legacy).passed


def test_gitattributes_cannot_hide_a_file_binary_is_decided_by_content(grade):
    attributes = write("Write", ".gitattributes", "* binary -diff export-ignore\n")
    hidden = write("Write", "inventory/alias.py", "total_value = None\n")
    result = grade(CHECK, FILES, *RENAMED, attributes, hidden)
    assert result.status is Status.FAIL
    assert result.detail == "inventory/alias.py:1 matches /total_value =/: 'total_value ='"


def test_a_file_with_a_nul_byte_is_binary_and_skipped(grade):
    blob = write("Write", "inventory/data.bin", "total_value = \x00\n")
    result = grade(CHECK, FILES, *RENAMED, blob)
    assert result.passed
    assert result.evidence["binary"] == ["inventory/data.bin"]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"patterns": []}, "patterns"),
        ({"patterns": ["("]}, "patterns[0]: invalid regex '('"),
        ({"patterns": ["x"], "path": "a.py"}, "path"),
    ],
)
def test_bad_params_are_refused_at_load_time(registry, params, message):
    with pytest.raises(SpecError) as caught:
        make_task([{"type": "pattern_absent", **params}], registry=registry)
    assert message in str(caught.value)
