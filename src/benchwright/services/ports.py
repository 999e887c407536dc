"""Free loopback ports that concurrent gradings on one machine cannot both receive.

Asking the kernel for port 0 gives a port nobody has bound *now*, but the app
binds it later, and in between another grading may get the same number. So a
lease is taken in two steps: bind port 0 (the kernel's word that the port is
free), then take an exclusive ``flock`` on a per-port lock file shared by every
benchwright process on the machine. A port whose lock is held elsewhere is
skipped and another is drawn, a bounded number of times. The lock lives as long
as the lease, across app restarts on the same port; the probe socket is closed
at once so the app can bind.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
import tempfile
from pathlib import Path

from benchwright.errors import HarnessError

DEFAULT_LOCK_DIR = Path(tempfile.gettempdir()) / "benchwright-ports"
DEFAULT_ATTEMPTS = 50


class PortLease:
    """A port reserved for one grading; a context manager that releases the lock."""

    def __init__(self, port: int, lock_fd: int, lock_path: Path) -> None:
        self.port = port
        self.lock_path = lock_path
        self._fd: int | None = lock_fd

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Give the port back. The lock file stays: unlinking it would let two waiters
        lock two different inodes of the same path."""
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None

    def __enter__(self) -> PortLease:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def __repr__(self) -> str:
        return f"PortLease(port={self.port}, held={self.held})"


def lease_port(
    host: str = "127.0.0.1", *, lock_dir: Path | None = None, attempts: int = DEFAULT_ATTEMPTS
) -> PortLease:
    """Reserve a free port on ``host`` until the lease is released.

    Raises:
        HarnessError: no port could be both bound and locked in ``attempts`` draws,
            or the lock directory cannot be created.
    """
    directory = lock_dir or DEFAULT_LOCK_DIR
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise HarnessError(f"cannot create the port lock directory {directory}: {exc}") from exc
    for _ in range(attempts):
        with _draw(host) as probe:
            port = probe.getsockname()[1]
            # Lock while the probe still holds the port, so nobody can bind it meanwhile.
            lease = _try_lock(directory / f"{port}.lock", port)
        if lease is not None:
            return lease
    raise HarnessError(
        f"no free port on {host} after {attempts} draws: every port drawn was leased by "
        f"another grading (locks in {directory})"
    )


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    """True if nothing is bound to ``port`` on ``host`` right now (a bind check)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        # SO_REUSEADDR: a port whose old connections linger in TIME_WAIT is free to serve.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def _draw(host: str) -> socket.socket:
    """A socket bound to a port the kernel chose as free."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        probe.bind((host, 0))
    except OSError as exc:
        probe.close()
        raise HarnessError(f"cannot bind a free port on {host}: {exc}") from exc
    return probe


def _try_lock(path: Path, port: int) -> PortLease | None:
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise HarnessError(f"cannot open the port lock {path}: {exc}") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.close(fd)
        raise HarnessError(f"cannot lock {path}: {exc}") from exc
    return PortLease(port, fd, path)
