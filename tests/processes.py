"""Finding processes by a marker in their command line, for "nothing survives" tests.

A test starts its processes with a unique marker in an argument (``sleep 60<marker>``)
and asks /proc afterwards. Pids would not do: a sandboxed process has another pid in
its own namespace, and it cannot write a pidfile where the test could read it.
"""

from __future__ import annotations

import time
from pathlib import Path


def with_marker(marker: str) -> list[int]:
    """Live (non-zombie) processes whose command line holds ``marker``, now."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker.encode() in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


def survivors(marker: str, within: float = 5.0) -> list[int]:
    """`with_marker` once none is left or ``within`` seconds have passed (the kernel ends
    a killed PID namespace asynchronously)."""
    deadline = time.monotonic() + within
    while (found := with_marker(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def of_uid(uid: int) -> list[int]:
    """Processes (zombies too: they still count against the uid's process limit) whose
    real, effective, saved or filesystem uid is ``uid``, now."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        uids = next((line.split()[1:] for line in status.splitlines() if line[:4] == "Uid:"), [])
        if str(uid) in uids:
            found.append(int(entry.name))
    return found
