"""A private, writable view of the workspace for one check command, beside harness-only dirs.

Each command gets its own view, so its side effects (or an agent module's writes at
import) never reach another check or the agent's tree. The view leaves out bytecode
(``__pycache__/``, ``*.pyc``: a planted ``.pyc`` can stand in for an unchanged ``.py``)
and anything that is not a file, directory or symlink (a FIFO would hang the copy).
The harness directories sit beside the view, never inside it.

Copying and re-owning the whole workspace for every check would cost the harness
O(tree) per check. Where the sandbox can mount an overlay (`overlay_supported`), the
workspace is copied **once per trial** into a read-only base beside it, and each
command sees that base through an overlay whose writes land in an upper directory of
its own: O(1) per check, and a check cannot change what another sees. Files a command
must not see (a conftest the task does not own) are hidden by whiteouts in its upper
directory. Elsewhere (unconfined, or not root) each command gets a full copy, as before.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from benchwright.sandbox import Overlay, overlay_supported

BYTECODE_DIRS = frozenset({"__pycache__"})
BYTECODE_SUFFIXES = (".pyc", ".pyo")
BASE_SUFFIX = ".check-base"
"""The trial's shared base is ``<workspace>.check-base`` beside the workspace, in its private
temp parent, with ``<workspace>.check-base.json`` (what was left out, the conftests)."""


@dataclass(slots=True)
class Workdir:
    """Where one check command runs (``copy``) and what the harness keeps beside it."""

    root: Path
    left_out: list[str] = field(default_factory=list)
    """Workspace paths not copied (bytecode, special files), relative, sorted."""
    base: Path | None = None
    """The trial's shared read-only base under ``copy`` (an overlay); None: ``copy`` is a
    copy of its own."""
    copied: int = 0
    """Files this check copied: the whole tree for a copy of its own or the check that built
    the shared base, 0 for every check after it."""
    conftests: list[str] = field(default_factory=list)
    """Every ``conftest.py`` in the shared base, relative (found once, when it was built)."""

    @property
    def copy(self) -> Path:
        """The command's working directory: the agent's tree with stamps, writable."""
        return self.root / "work"

    @property
    def overlay(self) -> Overlay | None:
        """How the sandbox shows the base at ``copy``, writable; None for a copy of its own."""
        return None if self.base is None else Overlay(self.base, self.root / "layers", self.copy)

    @property
    def writable(self) -> list[Path]:
        """The host paths the command's sandbox binds read-write."""
        return [self.report] if self.base is not None else [self.copy, self.report]

    @property
    def site(self) -> Path:
        """Holds only the harness ``sitecustomize`` (read-only to the command)."""
        return self.root / "harness" / "site"

    @property
    def config(self) -> Path:
        """The checker's own pytest config, from the initial fixture (read-only)."""
        return self.root / "harness" / "config"

    @property
    def report(self) -> Path:
        """Where pytest writes its JUnit report: the only other writable place."""
        return self.root / "report"

    @property
    def home(self) -> Path:
        """HOME and TMPDIR when unconfined (the sandbox brings private ones)."""
        return self.root / "home"


@contextmanager
def workdir(source: Path, *, shared: bool = False) -> Iterator[Workdir]:
    """A private temp dir holding a view of ``source``; removed on exit, whatever is in it.

    ``shared``: the command runs sandboxed, so it may see the trial's shared base through
    an overlay (when this machine can mount one) instead of a copy of its own.
    """
    root = Path(tempfile.mkdtemp(prefix="bw-check-"))
    try:
        made = Workdir(root)
        if shared and overlay_supported() and (base := _shared_base(source, made)) is not None:
            made.base = base
            overlay = made.overlay
            assert overlay is not None
            for path in (overlay.target, overlay.upper, overlay.work):
                path.mkdir(parents=True)
        else:
            made.copied = _copy_tree(source, made.copy, made.left_out)
        for path in (made.site, made.config, made.report, made.home):
            path.mkdir(parents=True)
        for path in (made.root / "harness", made.site, made.config):
            path.chmod(0o755)  # readable by the sandbox's unprivileged user, never writable
        made.left_out.sort()
        yield made
    finally:
        shutil.rmtree(root, onerror=_force)


def _shared_base(source: Path, made: Workdir) -> Path | None:
    """The trial's base (built on first use, into ``made.copied``); None when the overlay
    could not name its paths (the caller copies instead)."""
    base = source.with_name(source.name + BASE_SUFFIX)
    facts = base.with_name(base.name + ".json")
    if not Overlay(base, made.root / "layers", made.copy).mountable:
        return None
    if not facts.exists():
        building = Path(tempfile.mkdtemp(prefix=".building-", dir=source.parent))
        left_out: list[str] = []
        made.copied = _copy_tree(source, building / "tree", left_out)
        conftests = sorted(
            (Path(d) / "conftest.py").relative_to(building / "tree").as_posix()
            for d, _dirs, files in os.walk(building / "tree")
            if "conftest.py" in files
        )
        (building / "tree").rename(base)
        facts.write_text(json.dumps({"left_out": left_out, "conftests": conftests}))
        shutil.rmtree(building, ignore_errors=True)
    known = json.loads(facts.read_text())
    made.left_out.extend(known["left_out"])
    made.conftests = known["conftests"]
    return base


def _copy_tree(source: Path, target: Path, left_out: list[str]) -> int:
    """Copy ``source`` to ``target`` but what `_not_copied` leaves out; the files copied."""
    copied = 0

    def count(src: str, dst: str) -> object:
        nonlocal copied
        copied += 1
        return shutil.copy2(src, dst)

    shutil.copytree(
        source, target, symlinks=True, ignore=_leave_out(source, left_out), copy_function=count
    )
    return copied


def _leave_out(source: Path, left_out: list[str]) -> Callable[[str, list[str]], set[str]]:
    def ignore(directory: str, names: list[str]) -> set[str]:
        skipped = {name for name in names if _not_copied(os.path.join(directory, name))}
        rel = os.path.relpath(directory, source)
        left_out.extend(os.path.normpath(os.path.join(rel, n)) for n in skipped)
        return skipped

    return ignore


def _not_copied(path: str) -> bool:
    name = os.path.basename(path)
    if name in BYTECODE_DIRS or name.endswith(BYTECODE_SUFFIXES):
        return True
    mode = os.lstat(path).st_mode
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode))


def remove_conftests(work: Workdir, owned: Collection[str]) -> list[str]:
    """Take every ``conftest.py`` the task does not own out of the command's view.

    Returns the removed paths, relative and sorted, for the evidence.
    """
    if work.base is None:
        found = [
            (Path(d) / "conftest.py").relative_to(work.copy).as_posix()
            for d, _dirs, files in os.walk(work.copy)
            if "conftest.py" in files
        ]
    else:
        found = work.conftests
    removed = sorted(rel for rel in found if rel not in owned)
    for rel in removed:
        if (overlay := work.overlay) is None:
            (work.copy / rel).unlink()
        else:
            _whiteout(overlay.lower, overlay.upper, rel)
    return removed


def _whiteout(lower: Path, upper: Path, rel: str) -> None:
    """Hide ``rel`` of ``lower`` in the overlay: overlayfs reads a 0/0 character device in the
    upper layer as "deleted". Its parents are made with the lower directories' modes."""
    *parents, name = rel.split("/")
    here, below = upper, lower
    for part in parents:
        here, below = here / part, below / part
        if not here.is_dir():
            here.mkdir()
            here.chmod(stat.S_IMODE(below.stat().st_mode))
    os.mknod(here / name, stat.S_IFCHR, os.makedev(0, 0))


def _force(function: Callable[[str], object], path: str, _exc_info: object) -> None:
    """A command may leave read-only directories behind: open them up and retry."""
    with contextlib.suppress(OSError):
        os.chmod(os.path.dirname(path), stat.S_IRWXU)
        if os.path.isdir(path) and not os.path.islink(path):
            os.chmod(path, stat.S_IRWXU)
        function(path)
