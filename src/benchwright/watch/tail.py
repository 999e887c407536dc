"""Follow a file that another process appends to: complete lines only, by polling.

A poll reads from the last offset to the end. A trailing line without its newline
is an agent still writing it: it is kept back until the rest arrives. A file that
shrank was rotated or rewritten, so it is read again from the start. Polling needs
no inotify and behaves the same on every filesystem (network mounts included).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class TailedFile:
    path: Path
    offset: int = 0
    lines: list[str] = field(default_factory=list)
    """Every complete line read so far, in order."""
    restarts: int = 0
    """How many times the file shrank and `lines` started over."""
    _partial: bytes = b""

    def read_new(self) -> bool:
        """Append newly completed lines to `lines`; True when there were any.

        A file that vanished or cannot be read yields nothing now and is tried again.
        """
        try:
            size = self.path.stat().st_size
            if size < self.offset:
                self.offset, self._partial, self.lines = 0, b"", []
                self.restarts += 1
            if size == self.offset:
                return False
            with self.path.open("rb") as handle:
                handle.seek(self.offset)
                chunk = handle.read(size - self.offset)
        except OSError:
            return False
        self.offset += len(chunk)
        complete, _, self._partial = (self._partial + chunk).rpartition(b"\n")
        if not complete and not _:
            return False
        text = complete.decode("utf-8", errors="replace")
        self.lines.extend(text.split("\n"))
        return True
