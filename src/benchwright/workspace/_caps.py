"""How much an agent may leave in its workspace: a file count and a byte total.

Every later step costs the harness in proportion to the tree, outside any budget the
agent is charged for: snapshots, reading the tree back, the checks' copies. An agent
that makes 40,000 empty files in 5 s would cost minutes of it. So after each agent
phase (and while a trajectory is replayed) the tree is measured, and past a cap the
trial stops with the cap named as its reason (``limit: workspace files (20,000 files)
exceeded``). The measurement stops as soon as a cap is passed, so it costs at most the
cap, never the agent's count.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

MIB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class WorkspaceCaps:
    """Ceilings on one trial's workspace (``run --max-workspace-files/--max-workspace-mb``)."""

    files: int = 20_000
    """Entries under the workspace — files, directories, links, ``.git`` included."""
    megabytes: int = 512
    """Sum of the regular files' sizes (apparent: a sparse file counts whole), MiB."""

    def files_reason(self) -> str:
        return f"limit: workspace files ({self.files:,} files) exceeded"

    def bytes_reason(self) -> str:
        return f"limit: workspace bytes ({self.megabytes:,} MiB) exceeded"

    def reason(self, files: int, size: int) -> str | None:
        """The cap that ``files`` entries holding ``size`` bytes pass, if any."""
        if files > self.files:
            return self.files_reason()
        if size > self.megabytes * MIB:
            return self.bytes_reason()
        return None


def over_caps(root: Path, caps: WorkspaceCaps) -> str | None:
    """The cap the tree under ``root`` passes (its reason), else None.

    No link is followed and no file opened; the walk ends at the first cap passed.
    """
    files = size = 0
    pending = [str(root)]
    while pending:
        try:
            entries = os.scandir(pending.pop())
        except OSError:  # a directory the agent made unreadable: nothing in it is read later
            continue
        with entries:
            for entry in entries:
                files += 1
                info = entry.stat(follow_symlinks=False)
                if stat.S_ISDIR(info.st_mode):
                    pending.append(entry.path)
                elif stat.S_ISREG(info.st_mode):
                    size += info.st_size
                if reason := caps.reason(files, size):
                    return reason
    return None
