"""Stamping over whatever the agent left: nothing leaks out, nothing outside changes, no hang.

Each attack plants something at (or above) a stamp path, the way an agent
could before its last phase ended. Every test then asserts three things: the
file outside the workspace is byte-for-byte unchanged (or still absent), the
stamp is a fresh regular file with the oracle's bytes, and `stamp` returned
within a deadline (it runs in a thread, so a regression fails, never hangs).
"""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from benchwright.errors import HarnessError
from benchwright.execution.stamp import ANSWER_PATH, stamp

ORACLE = "tests/test_oracle.py"
SECRET = b"def test_hidden():\n    assert compute() == 42\n"
OUTSIDE = b"the grader's own file\n"
ANSWER = "count: 3\n"
DEADLINE_S = 10

Plant = Callable[[Path, Path], None]
"""(workspace, outside directory) -> None: what the agent leaves behind."""


def _stamp_promptly(ws: Path) -> None:
    errors: list[BaseException] = []

    def run() -> None:
        try:
            stamp(ws, {ORACLE: SECRET}, ANSWER)
        except BaseException as exc:  # handed to the test thread
            errors.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(DEADLINE_S)
    assert not worker.is_alive(), f"stamp blocked for more than {DEADLINE_S}s"
    if errors:
        raise errors[0]


def _fresh_file(path: Path, content: bytes) -> None:
    info = path.lstat()
    assert stat.S_ISREG(info.st_mode), f"{path} is not a regular file"
    assert info.st_nlink == 1, f"{path} is still linked elsewhere"
    assert path.read_bytes() == content


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    ws = tmp_path / "trial" / "workspace"
    (ws / "tests").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.txt").write_bytes(OUTSIDE)
    return ws, outside


def _symlink_file_absolute(ws: Path, out: Path) -> None:
    (ws / ORACLE).symlink_to(out / "victim.txt")


def _symlink_file_relative(ws: Path, out: Path) -> None:
    (ws / ORACLE).symlink_to("../../../outside/victim.txt")


def _symlink_dangling(ws: Path, out: Path) -> None:
    (ws / ORACLE).symlink_to(out / "created-by-stamp.py")


def _symlink_to_dir(ws: Path, out: Path) -> None:
    (ws / ORACLE).symlink_to(out)


def _symlink_answer(ws: Path, out: Path) -> None:
    (ws / ".benchwright").mkdir()
    (ws / ANSWER_PATH).symlink_to(out / "victim.txt")


def _parent_symlink_absolute(ws: Path, out: Path) -> None:
    (ws / "tests").rmdir()
    (ws / "tests").symlink_to(out)


def _parent_symlink_relative(ws: Path, out: Path) -> None:
    (ws / "tests").rmdir()
    (ws / "tests").symlink_to("../../outside")


def _parent_symlink_answer(ws: Path, out: Path) -> None:
    (ws / ".benchwright").symlink_to(out)


def _hardlink(ws: Path, out: Path) -> None:
    os.link(out / "victim.txt", ws / ORACLE)


def _hardlink_answer(ws: Path, out: Path) -> None:
    (ws / ".benchwright").mkdir()
    os.link(out / "victim.txt", ws / ANSWER_PATH)


def _fifo(ws: Path, out: Path) -> None:
    os.mkfifo(ws / ORACLE)


def _fifo_answer(ws: Path, out: Path) -> None:
    (ws / ".benchwright").mkdir()
    os.mkfifo(ws / ANSWER_PATH)


def _fifo_parent(ws: Path, out: Path) -> None:
    (ws / "tests").rmdir()
    os.mkfifo(ws / "tests")


def _device_null(ws: Path, out: Path) -> None:
    os.mknod(ws / ORACLE, stat.S_IFCHR | 0o666, os.makedev(1, 3))


def _device_zero_answer(ws: Path, out: Path) -> None:
    (ws / ".benchwright").mkdir()
    os.mknod(ws / ANSWER_PATH, stat.S_IFCHR | 0o666, os.makedev(1, 5))


def _device_parent(ws: Path, out: Path) -> None:
    os.mknod(ws / ".benchwright", stat.S_IFCHR | 0o666, os.makedev(1, 5))


def _directory(ws: Path, out: Path) -> None:
    (ws / ORACLE).mkdir()
    (ws / ORACLE / "inner.py").write_text("x\n")


def _directory_with_escape_link(ws: Path, out: Path) -> None:
    (ws / ORACLE).mkdir()
    (ws / ORACLE / "link").symlink_to(out)
    (ws / ORACLE / "hard").hardlink_to(out / "victim.txt")


def _directory_answer(ws: Path, out: Path) -> None:
    (ws / ANSWER_PATH).mkdir(parents=True)


def _file_as_parent(ws: Path, out: Path) -> None:
    (ws / "tests").rmdir()
    (ws / "tests").write_text("not a directory\n")


def _file_as_answer_parent(ws: Path, out: Path) -> None:
    (ws / ".benchwright").write_text("not a directory\n")


def _nested_parent_symlink(ws: Path, out: Path) -> None:
    (ws / "tests").rmdir()
    (ws / "tests").symlink_to(ws / "deep")
    (ws / "deep").symlink_to(out)


ATTACKS: dict[str, Plant] = {
    f.__name__.lstrip("_"): f
    for f in (
        _symlink_file_absolute, _symlink_file_relative, _symlink_dangling, _symlink_to_dir,
        _symlink_answer, _parent_symlink_absolute, _parent_symlink_relative,
        _parent_symlink_answer, _nested_parent_symlink, _hardlink, _hardlink_answer, _fifo,
        _fifo_answer, _fifo_parent, _device_null, _device_zero_answer, _device_parent,
        _directory, _directory_with_escape_link, _directory_answer, _file_as_parent,
        _file_as_answer_parent,
    )
}  # fmt: skip


@pytest.mark.parametrize("plant", ATTACKS.values(), ids=ATTACKS.keys())
def test_a_planted_path_neither_leaks_nor_writes_through_nor_blocks(layout, plant):
    ws, outside = layout
    if "device" in plant.__name__ and os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    before = {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()}
    plant(ws, outside)
    _stamp_promptly(ws)
    assert {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()} == before
    _fresh_file(ws / ORACLE, SECRET)
    _fresh_file(ws / ANSWER_PATH, ANSWER.encode())


def test_a_handle_the_agent_kept_open_does_not_reach_the_stamp(layout):
    ws, _ = layout
    (ws / ORACLE).write_text("def test_x(): pass\n")
    with (ws / ORACLE).open("r+b") as held:
        _stamp_promptly(ws)
        held.seek(0)
        held.write(b"def test_forged(): pass\n# " + b"x" * 100)
        held.flush()
    _fresh_file(ws / ORACLE, SECRET)


def test_a_workspace_that_is_itself_a_symlink_is_refused(tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    (tmp_path / "workspace").symlink_to(target)
    with pytest.raises(HarnessError, match=r"stamp: cannot open .*workspace"):
        stamp(tmp_path / "workspace", {ORACLE: SECRET}, ANSWER)
    assert list(target.iterdir()) == []


@pytest.mark.parametrize("rel", ["../escape.py", "tests/../../x.py", "/abs.py", "a//b.py"])
def test_a_path_that_is_not_plain_and_relative_is_refused(layout, rel):
    ws, _ = layout
    with pytest.raises(HarnessError, match="is not a plain relative path"):
        stamp(ws, {rel: SECRET}, ANSWER)
