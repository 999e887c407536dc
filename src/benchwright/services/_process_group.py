"""Find and end every process an app started, read from /proc (Linux).

An app under test runs as the leader of its own session, so its session id and
process group id are the leader's pid, and ``killpg`` reaches the group. A child
that called ``setsid`` has left the group, and once the leader dies it is
re-parented to init and nothing links it to the app any more; so the family is
*remembered*: every pid seen in the group, the session or below the leader is
kept with its start time, and signalled later only if the same process (same
pid and start time) is still alive. Zombies are already dead and never counted.

A sandboxed app sits below bubblewrap's own processes (its monitor, the leader,
and the PID namespace's init): they die of SIGTERM and take the namespace with
them, so a graceful signal goes only to the app's processes below them, and
SIGKILL to everyone.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

_PROC = Path("/proc")
_POLL_S = 0.02

Identity = tuple[int, int]
"""(pid, start time in clock ticks since boot): a pid is reused, the pair is not."""


def _stat(pid: int) -> tuple[str, int, int, int, int] | None:
    """(state, ppid, pgrp, session, starttime) of ``pid``, or None if it is gone."""
    try:
        raw = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name is parenthesised and may hold spaces or ')': split after the last ')'.
    fields = raw[raw.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[2]), int(fields[3]), int(fields[19])


def _live() -> dict[int, tuple[int, int, int, int]]:
    """pid -> (ppid, pgrp, session, starttime) of every live, non-zombie process."""
    table = {}
    for entry in _PROC.iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) and stat[0] not in ("Z", "X"):
            table[int(entry.name)] = stat[1:]
    return table


class Family:
    """The processes one app leader started, as far as /proc has ever shown them.

    Args:
        leader: the process the harness spawned (a session and group leader).
        wrappers: levels of the tree from the leader down that only wrap the app
            (bubblewrap's monitor and init: 2); they get SIGKILL, never a gentler signal.
    """

    def __init__(self, leader: int, wrappers: int = 0) -> None:
        self.leader, self.wrappers = leader, wrappers
        self._known: set[Identity] = set()

    def alive(self) -> set[int]:
        """Refresh what is known and return the pids of the family still alive."""
        table = _live()
        found = {pid for pid, row in table.items() if self.leader in (row[1], row[2])}
        if self.leader in table:
            found.add(self.leader)
        frontier = set(found)
        while frontier:  # bounded: each pid enters ``found`` at most once
            frontier = {pid for pid, row in table.items() if row[0] in frontier} - found
            found |= frontier
        self._known |= {(pid, table[pid][3]) for pid in found}
        still = {pid for pid, start in self._known if pid in table and table[pid][3] == start}
        self._known = {(pid, start) for pid, start in self._known if pid in still}
        return still

    def signal(self, sig: signal.Signals) -> None:
        """Send ``sig`` to the leader's group and to every remembered member still alive
        (but for SIGKILL, not to the wrappers)."""
        targets = self.alive()
        if self.wrappers and sig != signal.SIGKILL:
            targets -= self._wrapper_pids()
        else:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.leader, sig)
        for pid in targets:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)

    def _wrapper_pids(self) -> set[int]:
        """The leader and its descendants ``wrappers - 1`` levels down."""
        table = _live()
        level = {self.leader}
        found = set(level)
        for _ in range(self.wrappers - 1):
            level = {pid for pid, row in table.items() if row[0] in level}
            found |= level
        return found

    def kill_and_wait(self, timeout_s: float) -> set[int]:
        """SIGKILL the family until none is left; return survivors (a harness fault:
        a process stuck in the kernel, or one outside this user's reach)."""
        deadline = time.monotonic() + timeout_s
        while True:
            self.signal(signal.SIGKILL)
            left = self.alive()
            if not left or time.monotonic() >= deadline:
                return left
            time.sleep(_POLL_S)
