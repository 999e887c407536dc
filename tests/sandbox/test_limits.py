"""Reading a limit from a failed command's trace: which hit is the sandbox's, which is not."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from benchwright.sandbox import Limits, limit_reason

FULL = "limit: in-memory /tmp and /dev/shm (8 MiB each) full"
SMALL = Limits(tmp_mb=8)


@pytest.mark.parametrize(
    ("exit_code", "trace"),
    [
        (1, "OSError: [Errno 28] No space left on device"),
        (1, "head: error writing 'standard output': No space left on device"),
        (1, "Error: ENOSPC: no space left on device, write"),
        (128 + signal.SIGBUS, "Bus error"),  # a mapped page of a full /dev/shm
        (-signal.SIGBUS, ""),
    ],
)
def test_no_space_is_the_in_memory_filesystems_limit(tmp_path: Path, exit_code, trace):
    assert limit_reason(SMALL, exit_code, trace, writable=[tmp_path]) == FULL


def test_no_space_is_not_blamed_on_a_limit_the_sandbox_does_not_have():
    trace = "OSError: [Errno 28] No space left on device"
    assert limit_reason(Limits(tmp_mb=None), 1, trace) is None
    assert limit_reason(SMALL, 0, trace) is None  # it coped: no failure to explain


def test_a_thread_past_the_process_limit_is_the_process_limit():
    trace = "RuntimeError: can't start new thread"
    assert limit_reason(Limits(processes=16), 1, trace) == "limit: process count (16) reached"


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None, reason="mounts a small tmpfs"
)
def test_no_space_on_a_full_host_filesystem_is_the_hosts_failure_not_a_limit(tmp_path: Path):
    """The disk the workspace lives on is full: that is not the sandbox's /tmp cap."""
    disk, roomy = tmp_path / "disk", tmp_path / "roomy"
    disk.mkdir()
    roomy.mkdir()
    code = textwrap.dedent(
        f"""
        import contextlib, sys
        from benchwright.sandbox import Limits, limit_reason
        with contextlib.suppress(OSError), open({str(disk / "fill")!r}, "wb") as out:
            out.write(b"x" * 2 * 2**20)
        trace = "OSError: [Errno 28] No space left on device"
        print(limit_reason(Limits(tmp_mb=8), 1, trace, writable=[{str(roomy)!r}, {str(disk)!r}]))
        """
    )
    mount = f'mount -t tmpfs -o size=1m tmpfs {disk} && exec {sys.executable} -c "$0"'
    done = subprocess.run(  # in a mount namespace of its own: nothing to unmount after
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", mount, code],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.stdout.strip() == "None", done.stderr
