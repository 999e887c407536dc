"""Grade one vendorsync tree: the executed-app kit runs vendorsync's phases, then every
check of sb-5.2.

What is vendorsync's is here: the Meridian **v1** mock served at the v1 profile's
rendered address, its fixture's truth as the observation record, the build-phase
vendor trace the docs row reads, and the check table with its timing rows judged and
its browser rows staged until they have a producer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Unpack

from benchwright.errors import SpecError
from benchwright.model import CheckResult
from benchwright.services.meridian import V1Fixture
from benchwright.suites.kit import Grading, PreferredShots
from benchwright.suites.kit.meridian_grader import MeridianGrader, MeridianOptions
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


SHOTS = PreferredShots(("load-1280", "load-375", "error", "empty", "sync-after")).order
"""The board receives the page at 1280 px, at a 375 px phone, the error and empty states
and the page after the sync click (vendorsync.browser), in that order."""


GRADER = MeridianGrader(PACKAGE, DB_NAME, "v1", GradeContext, GradeSettings, CheckSettings,
                        VENDOR_URL, select_phases, SHOTS)  # fmt: skip


def grade(
    tree: Path, *, build_trace: Path | None = None, **options: Unpack[MeridianOptions]
) -> Grading:
    """Run the selected phases against a fresh copy of ``tree`` (``vendorsync/`` in it or
    one directory down) and evaluate every check; the options are `kit.MeridianOptions`
    (seed, phases, timing, settings, check_settings, evidence, confinement, vendor_url,
    on_phase), the mock's API version v1.

    Args:
        build_trace: the vendor trace (JSONL) the harness recorded while the tree was
            built; ``vendor_read_docs`` counts its docs reads. None: that row is
            UNAVAILABLE (never read from the graded tree).

    Raises:
        SpecError: the tree is not a directory, a phase name is unknown, ``vendor_url``
            is not a loopback base URL, or ``build_trace`` is unreadable.
        HarnessError: no port could be leased, or (unconfined) the vendor's port is taken.
    """
    docs = None if build_trace is None else docs_reads(build_trace)
    return GRADER.grade(tree, recorder(docs), _judge, staged(), **options)


def recorder(docs: int | None) -> Callable[[V1Fixture, int], Observations]:
    """The empty record of one grading: the v1 fixture's truth and the build's ``docs``
    reads (None: no build-phase trace)."""

    def record(fixture: V1Fixture, seed: int) -> Observations:
        return Observations(seed=seed, truth=Truth.of(fixture), build_docs_reads=docs)

    return record


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


def _judge(obs: Observations, check_settings: CheckSettings) -> list[CheckResult]:
    """The sb-5.2 rows: timing judged against its host windows, unproduced ids staged."""
    return judge_timing(build_table().evaluate(obs, check_settings), obs) + staged_browser_rows()
