"""Grade one vspro tree: the executed-app kit runs vspro's phases, then every check.

Hermetic (`suites.kit`): a fresh copy of the tree, a fresh database, a leased port and a
fresh Meridian mock per grading, which the app reaches at the base URL rendered into its
prompt (``vendor_url``; see `kit.serve_vendor`); the app is stopped (its whole process
group) however the grading ends. A phase that raises is a harness fault (INFRA rows); an
app that never becomes healthy skips the app phases (FAIL rows naming the boot).

What is vspro's is here: the Meridian mock and its fixture's truth as the observation
record, the phases' context, the check table with its timing and browser rows, and the
board's screenshot order.
"""

from __future__ import annotations

from pathlib import Path
from typing import Unpack

from benchwright.model import CheckResult
from benchwright.services.meridian import Fixture
from benchwright.suites.kit import Grading, ShotOrder
from benchwright.suites.kit.meridian_grader import MeridianGrader, MeridianOptions
from benchwright.suites.vspro.browser import publishable, ranked
from benchwright.suites.vspro.checks import BROWSER_CHECKS, CheckSettings, browser_rows, build_table
from benchwright.suites.vspro.checks._timing import judge_timing
from benchwright.suites.vspro.context import VENDOR_URL, GradeContext, GradeSettings
from benchwright.suites.vspro.observations import Observations
from benchwright.suites.vspro.phases import select_phases

PACKAGE = "vspro"
"""The app's package, in the tree or one directory down."""
DB_NAME = "graded-sb6.db"
SHOTS = ShotOrder(ranked, publishable)


GRADER = MeridianGrader(PACKAGE, DB_NAME, "v2", GradeContext, GradeSettings, CheckSettings,
                        VENDOR_URL, select_phases, SHOTS)  # fmt: skip


def grade(tree: Path, **options: Unpack[MeridianOptions]) -> Grading:
    """Run the selected phases against a fresh copy of ``tree`` (``vspro/`` in it or one
    directory down) and evaluate every check; the options are `kit.MeridianOptions`
    (seed, phases, timing, settings, check_settings, evidence, confinement, vendor_url,
    on_phase).

    Returns:
        `Grading`: one row per sb-6 check (browser checks UNAVAILABLE), the
        observations, per-phase records, the tree's sha256 and the seed.

    Raises:
        SpecError: the tree is not a directory, a phase name is unknown, or ``vendor_url``
            is not a loopback base URL.
        HarnessError: no port could be leased, or (unconfined) the vendor's port is taken.
    """
    return GRADER.grade(tree, _record, _judge, BROWSER_CHECKS, **options)


def _record(fixture: Fixture, seed: int) -> Observations:
    """The empty record of one grading: the fixture's truth the sb-6 rows judge against."""
    return Observations(seed, fixture.expect, frozenset(r["id"] for r in fixture.rows))


def _judge(obs: Observations, check_settings: CheckSettings) -> list[CheckResult]:
    """The sb-6 rows: timing judged against its host windows, browser rows staged."""
    return judge_timing(build_table().evaluate(obs, check_settings), obs) + browser_rows()
