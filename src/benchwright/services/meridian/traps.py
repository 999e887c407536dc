"""The list endpoint's traps, as a small state machine reset at every phase.

``nth`` counts every list GET since the last reset (304s and trapped requests
included). Request 2 is rate-limited with ``Retry-After`` in seconds; request 3,
only if it carries a cursor, is answered 410 ``cursor_expired``, and then the
next list request is rate-limited with an HTTP-date. When the stall is armed,
the phase's first request whose page reaches the end is held. Each trap fires at
most once per phase; arming the stall lasts until it is disarmed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Trap(Enum):
    """A trapped list response."""

    RATE_SECONDS = "seconds"
    CURSOR_EXPIRED = "cursor_expired"
    RATE_DATE = "date"


@dataclass
class TrapState:
    """Where the current phase stands; mutated only under the store's lock."""

    nth: int = 0
    date_pending: bool = False
    stall_armed: bool = False
    stall_secs: float | None = None
    stall_fired: bool = False

    def reset(self) -> None:
        """A new phase: count from zero, re-arm every one-shot."""
        self.nth = 0
        self.date_pending = False
        self.stall_fired = False

    def on_list(self, has_cursor: bool) -> Trap | None:
        """Count one list request and say which trap (if any) answers it."""
        self.nth += 1
        if self.nth == 2:
            return Trap.RATE_SECONDS
        if self.nth == 3 and has_cursor:
            self.date_pending = True
            return Trap.CURSOR_EXPIRED
        if self.date_pending:
            self.date_pending = False
            return Trap.RATE_DATE
        return None

    def take_stall(self, reaches_end: bool) -> bool:
        """True once per phase, for the first end-reaching page while armed."""
        if self.stall_armed and not self.stall_fired and reaches_end:
            self.stall_fired = True
            return True
        return False
