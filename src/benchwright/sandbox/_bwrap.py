"""The bubblewrap command line that enforces a `Sandbox`.

The sandbox's root is empty and read-only: the system directories and the interpreter
are bound read-only, the writable paths read-write at their own names, ``/tmp`` (with
``$HOME`` and ``/var/tmp`` in it) and ``/dev/shm`` are fresh, private and sized
(`Limits.tmp_mb`), ``/proc`` shows only the sandbox's own PID namespace. Anything else
on the host — the suite, its stamps, the run directory, other trials, the harness's
source and temp dirs — does not exist in there.

As root, bubblewrap sets the namespaces up and ``setpriv`` drops to the sandbox's own
leased uid (`Sandbox.uid`) with no capabilities before the command runs; as any other
user, an unprivileged user namespace does the same job. Limits are ``setrlimit``
ceilings set by ``prlimit`` inside, just before the command, so every process of the
command inherits them and, in a user namespace, the process count is the namespace's
own (a limit set before bubblewrap would bind the caller's whole uid; docs/security.md).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from benchwright.sandbox._policy import Network, Sandbox
from benchwright.sandbox._uids import identity_files

SANDBOX_HOME = "/tmp/home"
WRAPPER_LEVELS = 2
"""Levels of a sandboxed process tree, from the spawned leader down, that are bubblewrap's
own (its monitor, the namespace's init). Both die of SIGTERM and take the namespace with
them, so a graceful signal must skip them and reach the command's processes directly."""
_MOUNTS = frozenset({"/", "/tmp", "/var", "/var/tmp", SANDBOX_HOME})
"""Directories the sandbox makes itself (their modes are set where they are made)."""
SYSTEM_DIRS = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_MIB = 1024 * 1024


def interpreter_dirs() -> tuple[Path, ...]:
    """The grader's Python (venv and base install): check commands run it read-only."""
    return _outermost(
        (Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).resolve().parent)
    )


def _outermost(paths: Sequence[Path]) -> tuple[Path, ...]:
    """``paths`` without those the system dirs or another of them already show."""
    unique = set(paths)
    outer = {p for p in unique if not any(p != o and p.is_relative_to(o) for o in unique)}
    return tuple(sorted(p for p in outer if not _under_system(p)))


def _under_system(path: Path) -> bool:
    return any(path.is_relative_to(d) for d in SYSTEM_DIRS)


def command_line(sandbox: Sandbox, argv: Sequence[str], cwd: Path) -> list[str]:
    """``bwrap … [setpriv …] prlimit … argv``: run ``argv`` in ``cwd`` inside ``sandbox``.

    Raises:
        ValueError: we are root and the sandbox has no leased uid (`leased` gives it one).
    """
    root = os.geteuid() == 0
    if root and sandbox.uid is None:
        raise ValueError("a sandbox started by root needs a uid of its own: lease one first")
    words = [_tool("bwrap"), "--die-with-parent", "--new-session"]
    words += ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    if sandbox.network in (Network.NONE, Network.BRIDGED):
        words.append("--unshare-net")
    if root:
        words += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
        if sandbox.overlay is not None:  # for the mount prelude only: setpriv drops it
            words += ["--cap-add", "CAP_SYS_ADMIN"]
    else:
        words += ["--unshare-user", "--disable-userns"]
    words += _filesystem(sandbox)
    words += ["--setenv", "HOME", SANDBOX_HOME, "--setenv", "TMPDIR", "/tmp"]
    for name, value in sandbox.env:
        words += ["--setenv", name, value]
    words += ["--chdir", str(cwd), "--"]
    if root and sandbox.overlay is not None:
        words += sandbox.overlay.prelude()
    if root:
        words += [_tool("setpriv"), f"--reuid={sandbox.uid}", f"--regid={sandbox.uid}"]
        words += ["--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]
    relay = list(sandbox.edge.relay) if sandbox.edge else []
    return words + _limits(sandbox) + relay + list(argv)


def _filesystem(sandbox: Sandbox) -> list[str]:
    words: list[str] = []
    for name in SYSTEM_DIRS:
        path = Path(name)
        if path.is_symlink():
            words += ["--symlink", os.readlink(path), name]
        elif path.is_dir():
            words += ["--ro-bind", name, name]
    if sandbox.uid is not None:  # its own name, for programs that look their user up
        passwd, group = identity_files(sandbox.uid)
        words += ["--ro-bind", str(passwd), "/etc/passwd", "--ro-bind", str(group), "/etc/group"]
    size = [] if sandbox.limits.tmp_mb is None else ["--size", str(sandbox.limits.tmp_mb * _MIB)]
    words += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", *size, "--tmpfs", "/dev/shm"]
    words += ["--perms", "1777", *size, "--tmpfs", "/tmp"]
    words += ["--perms", "0755", "--dir", "/var", "--symlink", "../tmp", "/var/tmp"]
    words += ["--perms", "0777", "--dir", SANDBOX_HOME]  # private: only this sandbox sees it
    overlay = sandbox.overlay
    lower = (overlay.lower,) if overlay else ()
    layers = (overlay.layers,) if overlay else ()
    read_only = _outermost((*interpreter_dirs(), *sandbox.readable, *lower))
    writable = (*sandbox.writable, *layers)
    for parent in _parents((*read_only, *writable, *(overlay.paths if overlay else ()))):
        words += ["--perms", "0755", "--dir", str(parent)]  # traversable, and empty but for binds
    for path in read_only:
        words += ["--ro-bind", str(path), str(path)]
    for path in writable:
        words += ["--bind", str(path), str(path)]
    if overlay:
        words += ["--perms", "0755", "--dir", str(overlay.target)]  # the prelude mounts on it
    # The root and /dev are in-memory too, and a user namespace's own: nothing is written there.
    return [*words, "--remount-ro", "/dev", "--remount-ro", "/"]


def _parents(paths: Sequence[Path]) -> list[Path]:
    """The ancestors of ``paths`` bubblewrap must create, outermost first."""
    found: set[Path] = set()
    for path in paths:
        found.update(p for p in path.parents if not _under_system(p) and str(p) not in _MOUNTS)
    return sorted(found, key=lambda p: len(p.parts))


def _limits(sandbox: Sandbox) -> list[str]:
    limits = sandbox.limits
    words = [_tool("prlimit"), "--core=0"]
    if limits.memory_mb is not None:
        words.append(f"--as={limits.memory_mb * _MIB}")
    if limits.processes is not None:
        words.append(f"--nproc={limits.processes}")
    if limits.file_size_mb is not None:
        words.append(f"--fsize={limits.file_size_mb * _MIB}")
    return [*words, "--"]


def tool(name: str) -> str | None:
    """The path of ``bwrap``, ``prlimit`` or ``setpriv``; ``$BENCHWRIGHT_BWRAP`` names bwrap."""
    if name == "bwrap" and (chosen := os.environ.get("BENCHWRIGHT_BWRAP")):
        return chosen if os.access(chosen, os.X_OK) else None
    return shutil.which(name, path=os.defpath + ":/usr/sbin:/sbin")


def _tool(name: str) -> str:
    return tool(name) or name


def prepare(sandbox: Sandbox) -> None:
    """Hand the writable paths to the sandbox's user, so it can write only there.

    As root the sandbox runs as its leased uid; the workspace the harness wrote (or a
    sandbox of another uid left) must become that uid's. As anyone else the user
    namespace maps the caller's own uid. An overlay's upper layer (a few whiteouts) is
    handed over each time; its shared lower layer only when its top is not the uid's
    already: the checks of a trial lease the uid that owns it when it is free
    (`leased`), so the tree is re-owned once, not once per check. The top is handed
    over last, so it says "done"; nothing but this hands it over and no sandbox can
    write it.

    Raises:
        ValueError: we are root and the sandbox has no leased uid.
    """
    if os.geteuid() != 0:
        return
    if (uid := sandbox.uid) is None:
        raise ValueError("a sandbox started by root needs a uid of its own: lease one first")
    tops = list(sandbox.writable)
    if (overlay := sandbox.overlay) is not None:
        tops.append(overlay.upper)
        if os.lstat(overlay.lower).st_uid != uid:
            tops.append(overlay.lower)
    for top in tops:
        for dirpath, dirnames, filenames in os.walk(top):
            for name in (*dirnames, *filenames):
                os.lchown(os.path.join(dirpath, name), uid, uid)
        os.lchown(top, uid, uid)  # last: for the lower layer, it says "done"
