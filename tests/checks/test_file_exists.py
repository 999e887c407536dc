"""file_exists: a deliverable file exists and is not a stub."""

from __future__ import annotations

import pytest
from builders import make_task, write

from benchwright.errors import SpecError
from benchwright.model import Status

FILES = {"README.md": "hi\n"}


def test_passes_a_file_the_agent_wrote(grade):
    result = grade(
        {"type": "file_exists", "path": "docs/guide.md"},
        FILES,
        write("Write", "docs/guide.md", "# Guide\n"),
    )
    assert result.status is Status.PASS
    assert result.detail == "docs/guide.md exists (8 bytes >= 1)"
    assert result.evidence == {"path": "docs/guide.md", "size": 8}


def test_fails_an_empty_file_by_default(grade):
    result = grade({"type": "file_exists", "path": "out.txt"}, FILES, write("Write", "out.txt", ""))
    assert result.status is Status.FAIL and result.score == 0.0
    assert result.detail == "out.txt has 0 bytes, fewer than the 1 required"


def test_fails_a_stub_below_min_bytes(grade):
    spec = {"type": "file_exists", "path": "out.txt", "min_bytes": 100}
    result = grade(spec, FILES, write("Write", "out.txt", "TODO\n"))
    assert result.status is Status.FAIL
    assert result.detail == "out.txt has 5 bytes, fewer than the 100 required"


def test_exactly_min_bytes_passes(grade):
    spec = {"type": "file_exists", "path": "out.txt", "min_bytes": 5}
    assert grade(spec, FILES, write("Write", "out.txt", "12345")).passed


def test_min_bytes_zero_accepts_an_empty_file(grade):
    spec = {"type": "file_exists", "path": "out.txt", "min_bytes": 0}
    assert grade(spec, FILES, write("Write", "out.txt", "")).passed


def test_fails_a_missing_file(grade):
    result = grade({"type": "file_exists", "path": "out.txt"}, FILES)
    assert result.status is Status.FAIL
    assert result.detail == "out.txt does not exist"


def test_fails_a_file_the_agent_deleted(grade):
    result = grade(
        {"type": "file_exists", "path": "README.md"},
        FILES,
        {"tool": "Delete", "args": {"path": "README.md"}},
    )
    assert result.detail == "README.md does not exist"


def test_a_file_written_only_by_a_command_is_not_seen(grade):
    # Recorded commands are not replayed; only file tools change the graded state.
    result = grade(
        {"type": "file_exists", "path": "out.txt"},
        FILES,
        {"tool": "Bash", "args": {"command": "echo hi > out.txt"}},
    )
    assert result.status is Status.FAIL


def test_a_directory_is_not_a_file(grade):
    result = grade({"type": "file_exists", "path": "docs"}, FILES, write("Write", "docs/a.md", "x"))
    assert result.detail == "docs does not exist"


def test_the_path_is_normalized(grade):
    assert grade({"type": "file_exists", "path": "./README.md"}, FILES).passed


def test_negative_min_bytes_is_refused_at_load_time(registry):
    with pytest.raises(SpecError, match=r"oracles\[0\]\.min_bytes"):
        make_task([{"type": "file_exists", "path": "a", "min_bytes": -1}], registry=registry)
