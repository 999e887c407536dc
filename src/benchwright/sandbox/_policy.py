"""What a sandbox allows: writable paths, readable extras, a network policy, limits.

A `Sandbox` is plain data; `benchwright.sandbox.command_line` turns it into the
bubblewrap command that enforces it. Nothing here decides a verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from benchwright.sandbox._overlay import Overlay


class Network(StrEnum):
    """Which network a sandboxed process sees."""

    NONE = "none"
    """A private network namespace with only its own, empty loopback: nothing is reachable."""
    BRIDGED = "bridged"
    """A private network namespace (its own loopback, shared with no other sandbox) that the
    outside reaches only through Unix sockets in a directory bound into it: the app under
    test, whose relays (services/_relay.py) carry its port out and the vendor's in."""
    LOOPBACK = "loopback"
    """The host's loopback, for an agent that needs a local service (``--agent-network
    loopback``). The host network namespace is shared: see docs/security.md."""
    HOST = "host"
    """The host's network as it is (a live agent CLI needs its model API)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource ceilings applied to every process in the sandbox (``setrlimit``)."""

    memory_mb: int | None = 4096
    """Address space per process, MiB; an allocation past it fails (``MemoryError``)."""
    processes: int | None = 512
    """Processes of the sandbox's own user (a leased uid as root, a user namespace
    otherwise: no other sandbox draws on it); a ``fork`` past it fails with EAGAIN."""
    file_size_mb: int | None = 1024
    """Largest file a process may write, MiB; past it the writer gets SIGXFSZ."""
    tmp_mb: int | None = 512
    """Size of each in-memory filesystem the sandbox can write, MiB: ``/tmp`` (which holds
    ``$HOME`` and is ``/var/tmp`` too) and ``/dev/shm``; past it a write fails with ENOSPC.
    None leaves them at the kernel's default, half of the host's RAM."""


@dataclass(frozen=True, slots=True)
class Edge:
    """A relay a sandboxed command runs behind, in a network namespace of its own: the
    only way across is the Unix sockets in ``directory`` (services/_relay.py), so the
    command reaches what the relay offers (a build vendor at its rendered address) and
    nothing else of the host."""

    directory: Path
    """Bound read-write: the sockets that cross the namespace's edge."""
    relay: tuple[str, ...]
    """Run inside before the command (ending in ``--``): binds the relay's listeners, then
    execs the command."""
    readable: tuple[Path, ...] = ()
    """What the relay needs to read (its script)."""
    env: tuple[tuple[str, str], ...] = ()
    """Variables set inside (``HTTPS_PROXY`` when an egress proxy is relayed in)."""


@dataclass(frozen=True, slots=True)
class Sandbox:
    """The confinement of one process tree.

    Every path keeps its host name inside the sandbox, so a command line the harness
    built (``{workspace}``, a prompt file) means the same thing in there.
    """

    writable: tuple[Path, ...]
    """Bound read-write; the only host paths the process can change."""
    readable: tuple[Path, ...] = ()
    """Extra host paths bound read-only (the system and the interpreter always are)."""
    network: Network = Network.NONE
    limits: Limits = field(default_factory=Limits)
    env: tuple[tuple[str, str], ...] = ()
    """Variables set inside on top of the process environment (after ``HOME``/``TMPDIR``)."""
    overlay: Overlay | None = None
    """A writable view of a shared read-only tree, mounted inside before the command runs
    (root only: `benchwright.sandbox.overlay_supported`)."""
    edge: Edge | None = None
    """The relay the command runs behind (`Network.BRIDGED`); None: none."""
    uid: int | None = None
    """The host uid it runs as when benchwright is root: its own, leased for as long as
    it runs (`benchwright.sandbox.leased`); None until then, and as any other user."""
