"""A writable view of a shared read-only tree, private to one sandbox (overlayfs).

Check commands each need a tree they may write (``.pytest_cache``, build output, a test
that rewrites a data file) and that no other check sees. Copying the workspace per
check costs the harness O(tree) each time; an overlay costs O(1): the trial's one
read-only base is the lower layer, and the check's writes land in an upper directory
of its own, which is thrown away with it.

bubblewrap 0.8 has no overlay option, so the sandbox mounts it itself: as root,
bubblewrap keeps ``CAP_SYS_ADMIN`` for the namespace's setup, a fixed shell prelude
mounts the overlay inside the sandbox's own mount namespace, and ``setpriv`` then drops
every capability before the command runs. The base is bound read-only as well (the
command may read it, as it may read its own view, never write it). Without root, or
where the kernel refuses the mount (`_probe.overlay_supported`), callers copy instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

MOUNT_FAILED = "benchwright: cannot mount the overlay"
"""What the prelude says (and exit 125) when the mount fails: the harness's fault."""
MOUNT_PRELUDE = (
    'mount -t overlay overlay -o "lowerdir=$1,upperdir=$2,workdir=$3" "$4" '
    f'|| {{ echo "{MOUNT_FAILED}" >&2; exit 125; }}; '
    'cd "$(pwd -P)" && shift 4 && exec "$@"'
)
"""Run as root inside the sandbox before ``setpriv``: mount, re-enter the working directory
through the mount (it was entered before the mount covered it), then become the command."""
_OPTION_UNSAFE = re.compile(r"[,:\\\s=]")
"""Characters the overlay's mount options cannot carry in a path."""


@dataclass(frozen=True, slots=True)
class Overlay:
    """``target`` shows ``lower`` (never written) with writes going to ``layers/upper``."""

    lower: Path
    layers: Path
    """Holds ``upper`` (empty but for whiteouts the harness placed: files the command must
    not see) and ``work`` (overlayfs's scratch), which must share one mount."""
    target: Path

    @property
    def upper(self) -> Path:
        return self.layers / "upper"

    @property
    def work(self) -> Path:
        return self.layers / "work"

    @property
    def paths(self) -> tuple[Path, Path, Path, Path]:
        return (self.lower, self.upper, self.work, self.target)

    @property
    def mountable(self) -> bool:
        """Whether every path can be named in the mount's options."""
        return not any(_OPTION_UNSAFE.search(str(path)) for path in self.paths)

    def prelude(self) -> list[str]:
        """The argv words that mount this overlay and then run the words after them."""
        return ["/bin/sh", "-c", MOUNT_PRELUDE, "sh", *map(str, self.paths)]
