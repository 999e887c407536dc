"""The six statuses a check result can carry.

A status says *what happened*; how it counts toward a score is the scorer's
policy, never the check's decision (see DESIGN.md, "Core types").
"""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """Outcome of one check."""

    PASS = "PASS"
    """The check looked and the work met it."""
    FAIL = "FAIL"
    """The check looked and the work fell short; also any wanted check with no result."""
    NOT_ATTEMPTED = "NOT_ATTEMPTED"
    """There was nothing to inspect (no answer captured, no candidate code)."""
    SKIPPED = "SKIPPED"
    """A capability the check needs (Docker, a browser) is absent on this machine."""
    INFRA = "INFRA"
    """The harness itself broke while checking; never the work's fault, never a pass."""
    UNAVAILABLE = "UNAVAILABLE"
    """A probe could not measure; the row leaves measured means."""

    @property
    def is_harness_fault(self) -> bool:
        """True for statuses that say nothing about the work itself."""
        return self in (Status.SKIPPED, Status.INFRA, Status.UNAVAILABLE)
