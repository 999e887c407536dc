"""Grade one vendorsync tree: the executed-app kit runs vendorsync's phases, then every
check of sb-5.2.

What is vendorsync's is here: the Meridian **v1** mock served at the v1 profile's
rendered address, its fixture's truth as the observation record, the build-phase
vendor trace the docs row reads, and the check table with its timing rows judged and
its browser rows staged until they have a producer.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from benchwright.errors import SpecError
from benchwright.model import CheckResult
from benchwright.sandbox import Confinement
from benchwright.services.meridian import Timing, V1Fixture
from benchwright.suites.kit import AppSuite, Grading, PhaseListener, ShotOrder, grade_tree
from benchwright.suites.kit.context import MeridianSetup, meridian_suite
from benchwright.suites.vendorsync.checks import (
    CheckSettings,
    build_table,
    staged,
    staged_browser_rows,
)
from benchwright.suites.vendorsync.checks._timing import judge_timing
from benchwright.suites.vendorsync.context import VENDOR_URL, GradeContext, GradeSettings
from benchwright.suites.vendorsync.observations import Observations, Truth
from benchwright.suites.vendorsync.phases import select_phases

PACKAGE = "vendorsync"
"""The app's package, in the tree or one directory down."""
DB_NAME = "graded-sb52.db"
DOCS_PATHS = ("/v1/docs", "/docs")


def _by_name(shots: Iterable[Path]) -> list[Path]:
    """One screenshot per name (the first), by name."""
    first: dict[str, Path] = {}
    for path in shots:
        first.setdefault(path.stem, path)
    return [first[name] for name in sorted(first)]


def _none(shots: Iterable[Path]) -> tuple[Path, ...]:
    """The board receives none until the browser phase names its own (vendorsync.browser)."""
    return ()


SHOTS = ShotOrder(_by_name, _none)


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
    build_trace: Path | None = None,
) -> Grading:
    """Run the selected phases against a fresh copy of ``tree`` and evaluate every check.

    Args:
        tree: the built tree; ``vendorsync/`` in it or one directory down.
        seed: the Meridian v1 fixture seed (0 is the published fixture).
        phases: names to run (``boot`` and ``trace`` join any app phase); None for all.
        timing: the mock's delays; the contract's by default (tests shrink them).
        settings: request, sync, restart and client timeouts.
        check_settings: the P ladders and ``k_P``; the methodology's by default.
        evidence_dir, evidence_prefix: where the app log and vendor trace are kept.
        confinement: how the app (and the client driver) is confined; sandboxed by default.
        vendor_url: the vendor's base URL rendered into the prompt (the v1 profile's).
        on_phase: told when each phase starts and ends.
        build_trace: the vendor trace (JSONL) the harness recorded while the tree was
            built; ``vendor_read_docs`` counts its docs reads. None: that row is
            UNAVAILABLE (never read from the graded tree).

    Raises:
        SpecError: the tree is not a directory, a phase name is unknown, ``vendor_url``
            is not a loopback base URL, or ``build_trace`` is unreadable.
        HarnessError: no port could be leased, or (unconfined) the vendor's port is taken.
    """
    docs = None if build_trace is None else docs_reads(build_trace)
    setup = MeridianSetup("v1", seed, timing, GradeContext, settings or GradeSettings(), vendor_url)
    suite = _suite(setup, check_settings or CheckSettings(), docs)
    return grade_tree(suite, tree, select_phases(phases), seed=seed, staged=staged(),
                      confinement=confinement, vendor_url=vendor_url, on_phase=on_phase,
                      evidence_dir=evidence_dir, evidence_prefix=evidence_prefix)  # fmt: skip


def docs_reads(trace: Path) -> int:
    """GETs of the vendor's docs page (``/v1/docs`` or ``/docs``) in a JSONL vendor trace.

    Raises:
        SpecError: (naming the file) it cannot be read, or a line is not a JSON object.
    """
    try:
        lines = trace.read_text(encoding="utf-8").splitlines()
        parsed = [json.loads(line) for line in lines if line.strip()]
    except (OSError, ValueError) as exc:
        raise SpecError.single(str(trace), f"unreadable build-phase vendor trace: {exc}") from exc
    if not all(isinstance(line, dict) for line in parsed):
        raise SpecError.single(str(trace), "a build-phase vendor trace line is not an object")
    return sum(x.get("method") == "GET" and x.get("path") in DOCS_PATHS for x in parsed)


def _suite(
    setup: MeridianSetup, check_settings: CheckSettings, docs: int | None
) -> AppSuite[Observations]:
    """vendorsync for one grading: a Meridian v1 mock whose fixture is the record's truth
    (with the build's docs reads), the phases' context, and the sb-5.2 rows."""

    def record(fixture: V1Fixture) -> Observations:
        return Observations(seed=setup.seed, truth=Truth.of(fixture), build_docs_reads=docs)

    def judge(obs: Observations) -> list[CheckResult]:
        rows = build_table().evaluate(obs, check_settings)
        return judge_timing(rows, obs) + staged_browser_rows()

    return meridian_suite(PACKAGE, DB_NAME, setup, record, judge, SHOTS)
