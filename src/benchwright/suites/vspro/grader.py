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

from collections.abc import Iterable
from pathlib import Path

from benchwright.model import CheckResult
from benchwright.sandbox import Confinement
from benchwright.services.meridian import Fixture, Timing
from benchwright.suites.kit import AppSuite, Grading, PhaseListener, ShotOrder, grade_tree
from benchwright.suites.kit.context import MeridianSetup, meridian_suite
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


def grade(
    tree: Path,
    *,
    seed: int = 0,
    phases: Iterable[str] | None = None,
    timing: Timing | None = None,
    settings: GradeSettings | None = None,
    check_settings: CheckSettings | None = None,
    evidence_dir: Path | None = None,
    evidence_prefix: str = "",
    confinement: Confinement | None = None,
    vendor_url: str = VENDOR_URL,
    on_phase: PhaseListener | None = None,
) -> Grading:
    """Run the selected phases against a fresh copy of ``tree`` and evaluate every check.

    Args:
        tree: the built tree; ``vspro/`` in it or one directory down.
        seed: the Meridian fixture seed (0 is the published fixture).
        phases: names to run (``boot`` and ``trace`` join any app phase); None for all.
        timing: the mock's delays; the contract's by default (tests shrink them).
        settings: request, sync and restart timeouts; the seed's by default.
        check_settings: latency ladders and ``k_P``; the methodology's by default.
        evidence_dir: where the app log and vendor trace are copied (as
            ``<prefix>app.log`` and ``<prefix>vendor-trace.jsonl``) before the work
            directory is deleted; None keeps nothing.
        confinement: how the app is confined; sandboxed (a network namespace of its own)
            by default.
        vendor_url: the vendor's base URL rendered into the entrant's prompt; the app is
            told it (``MERIDIAN_BASE_URL``) and reaches the mock there (`kit.serve_vendor`).
        on_phase: told when each phase starts and ends (`PhaseListener`); None tells no one.

    Returns:
        `Grading`: one row per sb-6 check (browser checks UNAVAILABLE), the
        observations, per-phase records, the tree's sha256 and the seed.

    Raises:
        SpecError: the tree is not a directory, a phase name is unknown, or ``vendor_url``
            is not a loopback base URL.
        HarnessError: no port could be leased, or (unconfined) the vendor's port is taken.
    """
    suite = _suite(MeridianSetup("v2", seed, timing, GradeContext, settings or GradeSettings(),
                                 vendor_url), check_settings or CheckSettings())  # fmt: skip
    return grade_tree(suite, tree, select_phases(phases), seed=seed, staged=BROWSER_CHECKS,
                      confinement=confinement, vendor_url=vendor_url, on_phase=on_phase,
                      evidence_dir=evidence_dir, evidence_prefix=evidence_prefix)  # fmt: skip


def _suite(setup: MeridianSetup, check_settings: CheckSettings) -> AppSuite[Observations]:
    """vspro for one grading: a Meridian mock whose fixture is the record's truth, the
    phases' context, and the sb-6 rows (timing judged, browser rows staged)."""

    def record(fixture: Fixture) -> Observations:
        return Observations(setup.seed, fixture.expect, frozenset(r["id"] for r in fixture.rows))

    def judge(obs: Observations) -> list[CheckResult]:
        rows = build_table().evaluate(obs, check_settings)
        return judge_timing(rows, obs) + browser_rows()

    return meridian_suite(PACKAGE, DB_NAME, setup, record, judge, SHOTS)
