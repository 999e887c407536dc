"""The run index (`key_index`): rows found by directory, then by run id; rows of two
writers at once both kept; nothing created by a reader; a copy's removal keeps the key."""

from __future__ import annotations

import multiprocessing
import os
import stat
from pathlib import Path

import pytest

from benchwright.errors import SpecError
from benchwright.execution import integrity, key_index


def _record_many(state: str, base: str, start: int) -> None:
    os.environ[integrity.STATE_ENV] = state
    for n in range(start, start + 40):
        key_index.record(f"run-{n}", Path(base) / f"run-{n}", integrity.new_key(), "mac")


def test_two_writers_at_once_keep_every_row(tmp_path, state_dir):
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_record_many, args=(str(state_dir), str(tmp_path), s))
               for s in (0, 40)]  # fmt: skip
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(120)
        assert writer.exitcode == 0
    found = [key_index.lookup(tmp_path / f"run-{n}", None) for n in range(80)]
    assert all(entry is not None for entry in found)
    assert stat.S_IMODE(key_index.index_path().stat().st_mode) == 0o600


def test_found_by_directory_first_then_by_claimed_run_id(tmp_path, state_dir):
    a, b = integrity.new_key(), integrity.new_key()
    key_index.record("run-a", tmp_path / "a", a, "mac-a")
    key_index.record("run-b", tmp_path / "b", b, "mac-b")
    assert key_index.lookup(tmp_path / "a", "run-b").key == a  # the directory decides
    assert key_index.lookup(tmp_path / "copy", "run-b").key == b  # a copy: its claim
    assert key_index.lookup(tmp_path / "copy", "run-c") is None
    assert key_index.lookup(tmp_path / "copy", None) is None


def test_a_reader_creates_no_index_and_a_bad_run_id_is_refused(tmp_path, state_dir):
    assert key_index.lookup(tmp_path, "run-a") is None
    assert not key_index.index_path().exists()
    with pytest.raises(SpecError, match=r"'\.\./x' is not a run id"):
        key_index.record("../x", tmp_path, integrity.new_key(), "mac")


def test_removing_a_copy_keeps_the_originals_key(tmp_path, state_dir):
    key_index.record("run-a", tmp_path / "a", integrity.new_key(), "mac")
    assert not key_index.forget(tmp_path / "elsewhere" / "run-a")
    assert key_index.forget(tmp_path / "a")
    assert key_index.lookup(tmp_path / "a", "run-a") is None
