"""Red team: output a process floods the grader with is read back by its tail only.

A sandboxed command (an agent, a check, an app) owns its stdout and stderr files: it can
print hundreds of mebibytes, or grow the file sparsely to its size limit in an instant.
The grader must keep a bounded tail (`OUTPUT_LIMIT` bytes per stream) and read no more
than that tail from disk. What was read is measured by the kernel's count of bytes this
process read (``rchar`` in ``/proc/self/io``), never by time.
"""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

import pytest
from processes import survivors

from benchwright.probes import run_command
from benchwright.probes.process import OUTPUT_LIMIT
from benchwright.sandbox import CONFINED, unavailable_reason
from benchwright.services._launch import tail
from benchwright.workspace import tail_bytes, tail_text

needs_bwrap = pytest.mark.skipif(unavailable_reason() is not None, reason="no bwrap here")
GIB = 1024**3
SLACK = 1024 * 1024
"""Reads besides the tail while measuring (``/proc/self/io`` itself, Python's own files)."""


def _bytes_read() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


def _sparse(path: Path, size: int, end: bytes) -> None:
    """A file of ``size`` bytes, all a hole but ``end`` at its very end."""
    with path.open("wb") as file:
        file.truncate(size - len(end))
        file.seek(size - len(end))
        file.write(end)


def test_a_10_gib_file_is_read_only_at_its_tail(tmp_path: Path) -> None:
    log = tmp_path / "stdout.txt"
    _sparse(log, 10 * GIB, b"last words\n")
    before = _bytes_read()
    kept = tail_bytes(log, 4096)
    read = _bytes_read() - before
    assert len(kept) == 4096 and kept.endswith(b"\0last words\n")
    assert read < 4096 + SLACK
    assert tail_text(log, 11) == "last words\n"
    assert tail(log, 10 * GIB - 5, 4096) == b"ords\n"  # the app log: only after the offset


def test_what_is_not_a_regular_file_gives_nothing(tmp_path: Path) -> None:
    (tmp_path / "real").write_bytes(b"secret")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert tail_bytes(tmp_path / "link", 100) == b""
    assert tail_bytes(tmp_path / "missing", 100) == b""
    assert tail_bytes(tmp_path, 100) == b""


@needs_bwrap
def test_a_sandboxed_flood_of_wide_characters_keeps_a_bounded_tail(tmp_path: Path) -> None:
    """3 MiB of 4-byte characters: at most `OUTPUT_LIMIT` bytes of each stream are kept."""
    marker = uuid.uuid4().hex
    script = (
        "import sys\n"
        "for _ in range(12): sys.stdout.write('\\U0001F600' * 65536)\n"
        "for _ in range(12): sys.stderr.write('\\U0001F600' * 65536)\n"
        "sys.stdout.write('END-OUT'); sys.stderr.write('END-ERR')\n"
    )
    work = tmp_path / "work"
    work.mkdir()
    argv = [sys.executable, "-c", script, marker]
    obs = run_command(argv, work, timeout_s=60, sandbox=CONFINED.sandbox([work]))
    assert obs.exit_code == 0, obs.stderr[-500:]
    for stream, end in ((obs.stdout, "END-OUT"), (obs.stderr, "END-ERR")):
        assert stream.endswith(end)
        assert len(stream.encode("utf-8", errors="surrogateescape")) <= OUTPUT_LIMIT + 3
    assert not survivors(marker)


@needs_bwrap
def test_a_sandboxed_command_growing_its_stdout_to_1000_mib_costs_only_the_tail(
    tmp_path: Path,
) -> None:
    """``ftruncate`` on its own stdout makes 1000 MiB in an instant; the grader reads the tail."""
    marker = uuid.uuid4().hex
    script = (
        "import os\n"
        "os.ftruncate(1, 1000 * 1024 * 1024); os.lseek(1, 0, os.SEEK_END)\n"
        "os.write(1, b'the end'); os.ftruncate(2, 1000 * 1024 * 1024)\n"
    )
    work = tmp_path / "work"
    work.mkdir()
    argv = [sys.executable, "-c", script, marker]
    before = _bytes_read()
    obs = run_command(argv, work, timeout_s=60, sandbox=CONFINED.sandbox([work]))
    read = _bytes_read() - before
    assert obs.exit_code == 0, obs.stderr[-500:]
    assert obs.stdout.endswith("the end") and len(obs.stdout) == OUTPUT_LIMIT
    assert len(obs.stderr) == OUTPUT_LIMIT
    assert read < 2 * OUTPUT_LIMIT + SLACK
    assert not survivors(marker)
