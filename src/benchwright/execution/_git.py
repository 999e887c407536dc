"""Git snapshots of a trial's workspace, kept where the agent can neither reach nor configure them.

The snapshot repository is a bare git dir beside the workspace
(``<temp parent>/snapshots.git``), never ``workspace/.git``: the sandbox binds
only ``workspace/`` and ``scratch/`` into the agent's view, and a ``.git`` the
agent makes is plain content that no snapshot holds. Git itself never reads
the workspace either. The harness walks it (`_tree`: no symlink followed, no
FIFO or device opened, no ``.gitignore``/``.gitattributes`` honoured) and
streams every file into one ``git fast-import`` per snapshot, whose
``get-mark`` output is the only source of commit ids. So nothing the agent
writes — ``core.fsmonitor``, hooks, ``filter.*.clean``, ``core.sshCommand``,
attributes, a spoofed ``HEAD`` or tag, a nested repository — can run code in
the harness or change what a snapshot holds. The repository's configuration,
its "global" configuration and its attributes are all written here, and
system configuration is switched off.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

from benchwright.errors import HarnessError
from benchwright.workspace import HARNESS_DIRS, UNCOPIED_DIRS

GIT_TIMEOUT_S = 60.0
MAX_DIFF_BYTES = 2_000_000
"""A phase's diff is cut here (an agent may write gigabytes); the cut says so."""
SNAPSHOT_DIRNAME = "snapshots.git"
MAX_DEPTH = 200
"""Deeper directory nesting errors the trial instead of exhausting the harness's descriptors."""
SKIPPED_DIRS = UNCOPIED_DIRS | HARNESS_DIRS
"""What the checks' view of the workspace leaves out; any entry named ``.git`` is skipped too."""

_CONFIG = """\
[core]
\trepositoryformatversion = 0
\tbare = true
\tfsmonitor = false
\thooksPath = /dev/null
\tattributesFile = /dev/null
\texcludesFile = /dev/null
\tlogAllRefUpdates = false
[gc]
\tauto = 0
[protocol]
\tallow = never
"""
_GLOBAL = "[safe]\n\tdirectory = *\n"
"""``safe.directory`` is honoured only in global config, never on the command line."""
_ATTRIBUTES = (
    "text eol crlf filter diff merge ident working-tree-encoding encoding whitespace delta "
    "export-ignore export-subst conflict-marker-size binary"
)
_SAFE = ("-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null")
_COMMITTER = b"committer benchwright <benchwright@localhost> 0 +0000\n"
_COMMIT_ID = re.compile(r"[0-9a-f]{40}")
_OPEN_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_OPEN_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class Snapshots:
    """The snapshot commits of one workspace, by tag (tags live here, not in refs)."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self.git_dir = workspace.parent / SNAPSHOT_DIRNAME
        self.commits: dict[str, str] = {}
        self._tip: str | None = None
        self._env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        self._env.update(
            GIT_DIR=str(self.git_dir), GIT_CONFIG_NOSYSTEM="1", GIT_ATTR_NOSYSTEM="1",
            GIT_CONFIG_GLOBAL=str(self.git_dir / "harness.gitconfig"), GIT_TERMINAL_PROMPT="0",
        )  # fmt: skip

    def init(self) -> str:
        """Write the bare repository by hand (no template, no hook) and commit ``start``."""
        try:
            self.git_dir.mkdir(mode=0o700)
            for sub in ("objects", "refs/heads", "refs/tags", "info"):
                (self.git_dir / sub).mkdir(parents=True)
            (self.git_dir / "HEAD").write_text("ref: refs/heads/snapshots\n")
            (self.git_dir / "config").write_text(_CONFIG)
            (self.git_dir / "harness.gitconfig").write_text(_GLOBAL)
            unset = " ".join(f"!{name}" for name in _ATTRIBUTES.split())
            (self.git_dir / "info" / "attributes").write_text(f"* {unset}\n")
        except OSError as exc:
            raise HarnessError(f"git init: {exc}") from exc
        return self.snapshot("start")

    def snapshot(self, tag: str) -> str:
        """Commit every file the agent left (even none) and tag it; return the commit id."""
        stream = [b"commit refs/heads/snapshots\nmark :1\n", _COMMITTER, _data(tag.encode())]
        if self._tip:
            stream.append(b"from %s\n" % self._tip.encode())
        stream.append(b"deleteall\n")
        for path, mode, content in _tree(self.workspace):
            stream += (b"M %s inline %s\n" % (mode, _quote(os.fsencode(path))), _data(content))
        stream.append(b"\nget-mark :1\n")
        commit = self._git("fast-import", "--quiet", stdin=b"".join(stream)).decode().strip()
        if not _COMMIT_ID.fullmatch(commit):
            raise HarnessError(f"git fast-import: no commit id in its output {commit[:80]!r}")
        self._tip = commit
        return self.tag(tag, commit)

    def tag(self, tag: str, commit: str) -> str:
        self.commits[tag] = commit
        return commit

    def changed(self, before: str, after: str) -> list[str]:
        """Paths added, modified or deleted from commit ``before`` to ``after``, sorted."""
        out = self._git("diff-tree", "-r", "-z", "--name-only", "--no-renames", before, after)
        return sorted(os.fsdecode(p) for p in out.split(b"\0") if p)

    def diff(self, before: str, after: str) -> str:
        """The unified diff from commit ``before`` to ``after`` (binary files named, not
        shown), cut at `MAX_DIFF_BYTES`; the viewer shows it per phase."""
        out = self._git(
            "diff-tree", "-p", "-r", "--no-renames", "--no-color", "--no-ext-diff",
            "--no-textconv", before, after,
        )  # fmt: skip
        text = out[:MAX_DIFF_BYTES].decode("utf-8", errors="replace")
        if len(out) > MAX_DIFF_BYTES:
            text += f"\n[diff cut at {MAX_DIFF_BYTES} of {len(out)} bytes]\n"
        return text

    def _git(self, *args: str, stdin: bytes | None = None) -> bytes:
        try:
            done = subprocess.run(
                ["git", *_SAFE, *args], cwd=self.git_dir, env=self._env, input=stdin,
                capture_output=True, timeout=GIT_TIMEOUT_S,
            )  # fmt: skip
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise HarnessError(f"git {args[0]}: {exc}") from exc
        if done.returncode != 0:
            message = done.stderr.decode(errors="replace").strip().splitlines()
            raise HarnessError(f"git {args[0]}: {message[-1] if message else 'failed'}")
        return done.stdout


def _data(content: bytes) -> bytes:
    return b"data %d\n%s\n" % (len(content), content)


def _quote(path: bytes) -> bytes:
    """C-style quoting, as fast-import reads a path (names may hold quotes or newlines)."""
    out = bytearray(b'"')
    for byte in path:
        if byte in b'"\\':
            out += b"\\%c" % byte
        elif byte < 0x20 or byte == 0x7F:
            out += b"\\%03o" % byte
        else:
            out.append(byte)
    return bytes(out + b'"')


def _tree(root: Path) -> Iterator[tuple[str, bytes, bytes]]:
    """(path, git mode, content) of every regular file and symlink under ``root``.

    Directories are opened with O_NOFOLLOW through their parent's descriptor, so
    a symlink swapped in for a directory is never followed out of the workspace.
    """
    try:
        fd = os.open(root, _OPEN_DIR)
    except OSError as exc:
        raise HarnessError(f"snapshot: cannot open the workspace: {exc.strerror}") from exc
    yield from _walk(fd, "", 0)


def _walk(dir_fd: int, prefix: str, depth: int) -> Iterator[tuple[str, bytes, bytes]]:
    try:
        if depth > MAX_DEPTH:
            raise HarnessError(f"snapshot: directories nested deeper than {MAX_DEPTH} at {prefix}")
        for name in sorted(os.listdir(dir_fd)):
            info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
            if name == ".git" or (stat.S_ISDIR(info.st_mode) and name in SKIPPED_DIRS):
                continue
            if stat.S_ISDIR(info.st_mode):
                child = os.open(name, _OPEN_DIR, dir_fd=dir_fd)
                yield from _walk(child, f"{prefix}{name}/", depth + 1)
            elif stat.S_ISLNK(info.st_mode):
                yield prefix + name, b"120000", os.fsencode(os.readlink(name, dir_fd=dir_fd))
            elif stat.S_ISREG(info.st_mode) and (found := _read(name, dir_fd)) is not None:
                yield prefix + name, *found
    except OSError as exc:
        raise HarnessError(f"snapshot: cannot read {prefix or './'}: {exc.strerror}") from exc
    finally:
        os.close(dir_fd)


def _read(name: str, dir_fd: int) -> tuple[bytes, bytes] | None:
    """A regular file's mode and bytes; None if it was swapped for something else."""
    fd = os.open(name, _OPEN_FILE, dir_fd=dir_fd)
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        return (b"100755" if info.st_mode & 0o100 else b"100644"), file.read()
