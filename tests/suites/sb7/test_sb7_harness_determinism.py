"""The same seed twice: the same schedule positions (the harness's and the vendor's, and
where the vendor's first-walk faults landed) and the same verdicts. The session's
``sb7_golden`` is the first grading; this test makes the second, through the phases that
carry the seeded schedule (the browser's and the latency phases add minutes and no
schedule position), and compares the rows those phases decide."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchwright.services.meridian_v3 import derive_schedule
from benchwright.suites.sb7 import grade
from benchwright.suites.sb7.checks import BROWSER_CHECKS, build_table
from benchwright.suites.sb7.checks._timing import HOSTS
from benchwright.suites.sb7.observations import VENDOR
from benchwright.suites.sb7.schedule import derive

REFERENCE = Path(__file__).parents[3] / "suites" / "sb7" / "reference"

SCHEDULED = ("tree", "smoke", "boot", "sync1", "reads", "matrix", "resync", "partition",
             "workflow", "final", "stream", "vendor")  # fmt: skip
"""Part one's phases: every seeded position of the harness's and the vendor's schedule."""
DECIDED = frozenset(build_table().ids) - frozenset(BROWSER_CHECKS)
"""The rows those phases decide (the A B C D X R tiers)."""

pytestmark = pytest.mark.slow
"""It shares the host: the rows it compares count and order events, and their deadlines
(kill windows, Retry-After, the held create) are seconds wide, so a busy host moves no
verdict (the same grading beside three CPU spinners on two cores, three times, and beside
five, twice: every verdict and fault position equal). The timing rows are left out
(`verdicts`)."""


def landed(obs: Any) -> dict[str, Any]:
    """Where the vendor's faults landed, as its trace saw them: the cursor the first walk's
    drop and 500 hit, and the faults the later syncs met."""
    trace = obs[VENDOR].trace
    return {"sync1": [(r.fault, r.cursor) for r in trace.sync1 if r.fault],
            "resync": [r.fault for r in trace.resync if r.fault]}  # fmt: skip


def verdicts(grading: Any) -> dict[str, tuple[str, float]]:
    """Every row's status and score, but the timing rows': their figures are the host's as
    much as the app's, and the contention rule may refuse one grading and not the other."""
    return {r.check_id: (r.status.name, r.score) for r in grading.rows
            if r.check_id in DECIDED and r.check_id not in HOSTS}  # fmt: skip


def test_the_same_seed_grades_the_same_positions_and_verdicts(
    sb7_golden: tuple[Any, float],
) -> None:
    first = sb7_golden[0]
    harness, vendor = derive(0), derive_schedule(0)
    derive.cache_clear()
    derive_schedule.cache_clear()
    assert derive(0) == harness and derive_schedule(0) == vendor  # recomputed, not cached
    second = grade(REFERENCE, seed=0, phases=SCHEDULED)
    assert landed(second.observations) == landed(first.observations)
    assert verdicts(second) == verdicts(first)
