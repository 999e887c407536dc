"""Grade one sb-7 tree: the executed-app kit runs sb-7's phases, then the 51 checks of
tiers A, B, C, D, X and R (the browser tiers J, V, P, T and E stay UNAVAILABLE, named,
until issue 29 gives them their instrument).

What is sb-7's is here: the Meridian **v3** mock served at the rendered address, the
app as two services (ledgerd and notifierd, `GradeContext`), the fixture's truth as the
observation record, and the check table (`sb7.checks.judge`).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Unpack

from benchwright.model import CheckResult
from benchwright.services.meridian_v3 import MeridianV3Mock, V3Fixture, V3Timing, berlin_day
from benchwright.suites.kit import Grading
from benchwright.suites.kit.meridian_grader import MeridianGrader, MeridianOptions
from benchwright.suites.kit.screenshots import PreferredShots
from benchwright.suites.sb7.checks import CheckSettings, judge, staged
from benchwright.suites.sb7.context import LEDGER_DB, VENDOR_URL, GradeContext, GradeSettings
from benchwright.suites.sb7.observations import LoadRow, Observations, Reversal, Truth
from benchwright.suites.sb7.phases import select_phases
from benchwright.suites.sb7.schedule import REJECT, SUBMIT, derive

PACKAGE = "app"
"""The entrant's package, in the tree or one directory down."""


def make_mock(seed: int, timing: V3Timing | None, trace: Path) -> MeridianV3Mock:
    """A fresh Meridian v3 mock for one grading, its request trace the workspace's."""
    return MeridianV3Mock(seed, trace_path=trace, timing=timing)


SHOT_RULE = PreferredShots(("load-1280", "viz-field", "approval-end", "load-375",
                            "feed-degraded", "sync-after", "error", "empty"))  # fmt: skip
"""What the board shows of an sb-7 card, first first (at most five, within its size limits):
the console as a finance team first sees it, the 3D field, the approval journey's end, the
phone layout and the feed during the notifier's outage."""
SHOTS = SHOT_RULE.order

GRADER = MeridianGrader(PACKAGE, LEDGER_DB, "v3", GradeContext, GradeSettings, CheckSettings,
                        VENDOR_URL, select_phases, SHOTS, make_mock)  # fmt: skip


def grade(tree: Path, **options: Unpack[MeridianOptions]) -> Grading:
    """Run the selected phases against a fresh copy of ``tree`` (``app/`` in it or one
    directory down) and evaluate every check; the options are `kit.MeridianOptions` (seed,
    phases, timing, settings, check_settings, evidence, confinement, vendor_url, on_phase).

    Raises:
        SpecError: the tree is not a directory, a phase name is unknown, or ``vendor_url``
            is not a loopback base URL.
        HarnessError: no port could be leased, or (unconfined) the vendor's port is taken.
    """
    return GRADER.grade(tree, record, _judge, staged(), **options)


def record(fixture: V3Fixture, seed: int) -> Observations:
    """The empty record of one grading: the v3 fixture's truth."""
    return Observations(seed=seed, truth=truth(fixture, seed))


def truth(fixture: V3Fixture, seed: int) -> Truth:
    """The fixture at load as the checks compare with it, and the notifications the
    harness schedule's drafts (plus the load's reversals and the refund) must make."""
    rows = {
        row["id"]: LoadRow(row["version"], row["amount_minor"], row["currency"], row["status"],
                           row["created_at"], berlin_day(row["created_at"]).isoformat(),
                           row.get("note") or "")
        for row in fixture.payments
    }  # fmt: skip
    reversals = tuple(Reversal(r["payment_id"], r["currency"], r["amount_minor"])
                      for r in fixture.reversals)  # fmt: skip
    return Truth(rows, tuple(d.isoformat() for d in fixture.days), fixture.dst_day.isoformat(),
                 reversals, expected_notifications(len(reversals), seed))  # fmt: skip


def expected_notifications(load_reversals: int, seed: int) -> dict[str, int]:
    """What the scheduled run materializes when the app follows the spec: a notification
    per reversal (those at load and the refund), per submit and reject of the partition,
    the matrix's self-submitted draft, D2's draft (submitted, rejected; a resubmit counts
    only when the app allows it, so not here) and A2's (submitted, approved)."""
    steps = Counter(step.action for step in derive(seed).partition)
    return {"reversal.created": load_reversals + 1,
            "draft.submitted": steps[SUBMIT] + 3,
            "draft.rejected": steps[REJECT] + 1,
            "draft.approved": 1}  # fmt: skip


def _judge(obs: Observations, settings: Any) -> list[CheckResult]:
    return judge(obs, settings)
