"""A host uid of its own for every sandbox, when benchwright runs as root.

``RLIMIT_NPROC`` counts the processes of a real uid. Were every sandbox to run as one
uid (``nobody``), one trial holding its process limit would stop every other trial,
check and app on the machine from forking. So each sandbox leases a uid from a range
reserved for benchwright (`UID_RANGE`) for as long as its process runs. The lease is an
``flock`` on a file of its own under `LEASE_DIR`, which every benchwright process on the
machine shares and which the kernel releases if the holder dies. Its release kills and
awaits any process of the uid left (there should be none: the sandbox's PID namespace
ends with its command) and only then marks the file clean; a uid whose file is not
marked clean (its holder died) is handed out only when no process of it is alive. So
two sandboxes never share a uid and no sandbox inherits another's process, and the
common lease looks through ``/proc`` once, at its release.

Inside, ``/etc/passwd`` and ``/etc/group`` name the leased uid (`identity_files`), so a
program that looks its user up (``getpass``, ``whoami``, Node's ``os.userInfo``) works.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from benchwright.errors import HarnessError
from benchwright.sandbox._policy import Sandbox

UID_RANGE = range(2_000_000_000, 2_000_065_536)
"""Reserved for sandboxes: far above system and regular users and the usual subordinate
ranges, above systemd's container range (up to 1879048191), below 2^31."""
LEASE_DIR = Path("/run/benchwright/sandbox-uids")
"""One lock file per uid ever leased, plus its ``.passwd``/``.group``; root's, mode 0700."""
USER_NAME = "benchwright"
SURVIVOR_WAIT_S = 10.0
"""How long a release waits for the processes it killed to be gone (they are SIGKILLed)."""
_CLEAN, _HELD = b"1", b"0"
"""The lock file's one byte: released with nothing of the uid left, or held (or its
holder died). Rewritten in place, never truncated, so it costs no disk write."""


@dataclasses.dataclass(frozen=True, slots=True)
class UidLease:
    """One uid, held until `release`."""

    uid: int
    fd: int
    """The locked file: closing it (or the holder dying) returns the uid to the pool."""

    def release(self) -> None:
        """End every process of the uid that is still there, then give the uid back."""
        try:
            if _end_processes(self.uid):
                os.pwrite(self.fd, _CLEAN, 0)
        finally:
            os.close(self.fd)


def identity_files(uid: int) -> tuple[Path, Path]:
    """The ``passwd`` and ``group`` files a sandbox of ``uid`` sees at ``/etc``."""
    return LEASE_DIR / f"{uid}.passwd", LEASE_DIR / f"{uid}.group"


def lease_uid(prefer: int | None = None) -> UidLease:
    """``prefer`` when nobody holds it and no process uses it, else the lowest such uid
    of `UID_RANGE`.

    Raises:
        HarnessError: the lease directory cannot be used, or every uid is taken.
    """
    first = [prefer] if prefer is not None and prefer in UID_RANGE else []
    try:
        LEASE_DIR.mkdir(mode=0o700, parents=True, exist_ok=True)
        for uid in (*first, *UID_RANGE):
            fd = os.open(LEASE_DIR / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            clean = os.pread(fd, 1, 0) == _CLEAN
            if not clean and _processes_of(uid):  # its holder died; its sandbox lingers
                os.close(fd)
                continue
            try:
                os.pwrite(fd, _HELD, 0)
                _write_identity(uid)
            except BaseException:
                os.close(fd)
                raise
            return UidLease(uid, fd)
    except OSError as exc:
        raise HarnessError(f"sandbox: cannot lease a uid in {LEASE_DIR}: {exc}") from exc
    raise HarnessError(
        f"sandbox: every uid of {UID_RANGE.start}-{UID_RANGE.stop - 1} is leased "
        f"({len(UID_RANGE)} sandboxes at once)"
    )


@dataclasses.dataclass(slots=True)
class _Shared:
    """A lease held by the live sandboxes of this process that write the same paths."""

    lease: UidLease
    paths: list[Path]
    """The writable paths of every sandbox holding it (one entry per sandbox's path)."""


_SHARED: list[_Shared] = []
_SHARED_LOCK = threading.Lock()


@contextlib.contextmanager
def leased(sandbox: Sandbox) -> Iterator[Sandbox]:
    """``sandbox`` with a uid of its own while the block runs; as it is unless we are root.

    Sandboxes alive at once that write the same paths (the vspro grader's second app
    instance shares the first's tree and database directory) share one uid: handing the
    paths to a new uid would take them from the sandbox already writing there. The
    uid is released when the last of them ends. As any other user, each sandbox's user
    namespace already counts its processes apart (docs/security.md, "One process pool
    per sandbox").

    Raises:
        HarnessError: no uid can be leased.
    """
    if os.geteuid() != 0 or sandbox.uid is not None:
        yield sandbox
        return
    paths = [Path(os.path.realpath(path)) for path in sandbox.writable]
    with _SHARED_LOCK:
        shared = next((s for s in _SHARED if _overlap(paths, s.paths)), None)
        if shared is None:
            shared = _Shared(lease_uid(prefer=_owner_of_shared_tree(sandbox)), [])
            _SHARED.append(shared)
        shared.paths.extend(paths)
    try:
        yield dataclasses.replace(sandbox, uid=shared.lease.uid)
    finally:
        with _SHARED_LOCK:
            for path in paths:
                shared.paths.remove(path)
            last = not shared.paths
            if last:
                _SHARED.remove(shared)
        if last:
            shared.lease.release()


def _owner_of_shared_tree(sandbox: Sandbox) -> int | None:
    """The uid an overlay's shared lower layer was handed to, if any: the checks of one
    trial run one after another, and the next leasing that uid (when it is free) finds
    the tree its own already, instead of re-owning all of it (`prepare`). Only the
    harness hands the layer over, and it is read-only to every sandbox, so a check gets
    nothing of an earlier check's by sharing its uid but the same read-only files; that
    check's processes were all ended at its release."""
    if sandbox.overlay is None:
        return None
    try:
        return os.lstat(sandbox.overlay.lower).st_uid
    except OSError:
        return None


def _overlap(ours: list[Path], theirs: list[Path]) -> bool:
    return any(a.is_relative_to(b) or b.is_relative_to(a) for a in ours for b in theirs)


def _write_identity(uid: int) -> None:
    passwd, group = identity_files(uid)
    entry = f"{USER_NAME}:x:{uid}:{uid}:benchwright sandbox:/tmp/home:/bin/sh\n"
    for target, host, line in (
        (passwd, Path("/etc/passwd"), entry),
        (group, Path("/etc/group"), f"{USER_NAME}:x:{uid}:\n"),
    ):
        text = host.read_text(encoding="utf-8", errors="replace") if host.exists() else ""
        wanted = text + ("" if text.endswith("\n") or not text else "\n") + line
        if not target.exists() or target.read_text(encoding="utf-8") != wanted:
            target.write_text(wanted, encoding="utf-8")  # once, unless the host's changed


def _processes_of(uid: int) -> list[int]:
    """Pids whose real, effective, saved or filesystem uid is ``uid`` (zombies included:
    they still count against its process limit)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit() and _runs_as(int(name), uid):
            found.append(int(name))
    return found


def _runs_as(pid: int, uid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith(b"Uid:"):
                    return str(uid).encode() in line.split()[1:]
    except OSError:  # gone meanwhile
        pass
    return False


def _end_processes(uid: int) -> bool:
    """SIGKILL every process of ``uid`` and wait until none is left (bounded); whether
    none is."""
    deadline = time.monotonic() + SURVIVOR_WAIT_S
    while pids := _processes_of(uid):
        if time.monotonic() >= deadline:
            return False
        for pid in pids:
            _kill(pid, uid)
        time.sleep(0.01)  # a SIGKILLed process is gone once its parent has reaped it
    return True


def _kill(pid: int, uid: int) -> None:
    """SIGKILL ``pid`` through a pidfd, so a pid reused meanwhile is never signalled."""
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        return
    try:
        if _runs_as(pid, uid):  # the pidfd now pins the process we checked
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
    except OSError:
        pass
    finally:
        os.close(pidfd)
