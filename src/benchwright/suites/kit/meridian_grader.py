"""The ``grade`` of a Meridian-backed suite, written once: the options every such grader
takes (`MeridianOptions`) and the grading they drive (`MeridianGrader`). A suite names
what differs (its package, database, vendor API version, context, settings, phases and
screenshot order) and hands in its record and its judge; its own ``grade`` is then a
docstring and one call."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict, Unpack

from benchwright.model import CheckResult
from benchwright.sandbox import Confinement
from benchwright.services.meridian import Timing
from benchwright.suites.kit.context import BaseContext, MeridianSetup, MockMaker, meridian_suite
from benchwright.suites.kit.grading import AppSuite, Grading, grade_tree
from benchwright.suites.kit.phases import Phase, PhaseListener
from benchwright.suites.kit.runner import Log
from benchwright.suites.kit.screenshots import ShotOrder


class MeridianOptions(TypedDict, total=False):
    """What a caller may set on one grading (each optional)."""

    seed: int
    """The Meridian fixture seed (0, the default, is the published fixture)."""
    phases: Iterable[str] | None
    """Names to run (``boot`` and ``trace`` join any app phase); None for all."""
    timing: Timing | None
    """The mock's delays; the contract's by default (tests shrink them)."""
    settings: Any
    """The phases' timeouts and waits; the suite's defaults by default."""
    check_settings: Any
    """Ladders and ``k_P`` the checks grade against; the methodology's by default."""
    evidence_dir: Path | None
    """Where the app log, vendor trace and relied-on screenshots are kept (names
    prefixed with ``evidence_prefix``); None keeps nothing."""
    evidence_prefix: str
    confinement: Confinement | None
    """How the app is confined; sandboxed (a network namespace of its own) by default."""
    vendor_url: str | None
    """The vendor's base URL rendered into the entrant's prompt; the app is told it and
    reaches the mock there (`kit.serve_vendor`). None: the suite's."""
    on_phase: PhaseListener | None
    """Told when each phase starts and ends; None tells no one."""


OPTIONS = frozenset(MeridianOptions.__annotations__)


@dataclass(frozen=True)
class MeridianGrader:
    """What differs between the gradings of two Meridian-backed suites."""

    package: str
    """The app's package, in the tree or one directory down."""
    db_name: str
    version: str
    """The mock's API version (``v1``, ``v2``)."""
    context: type[BaseContext]
    settings: Callable[[], Any]
    check_settings: Callable[[], Any]
    vendor_url: str
    select: Callable[[Iterable[str] | None], tuple[Phase, ...]]
    shots: ShotOrder
    make_mock: MockMaker | None = None
    """How a grading makes its mock; None: `MeridianMock` of ``version``."""

    def grade(
        self,
        tree: Path,
        record: Callable[[Any, int], Log],
        judge: Callable[[Log, Any], list[CheckResult]],
        staged: tuple[str, ...],
        **options: Unpack[MeridianOptions],
    ) -> Grading:
        """Grade ``tree``: ``record(fixture, seed)`` is the empty observation record,
        ``judge(record, check_settings)`` its rows, ``staged`` the ids with no producer.

        Raises:
            TypeError: an option no Meridian grader knows (a typo is never ignored).
            SpecError: the tree is not a directory, a phase name is unknown, or the
                vendor URL is not a loopback base URL.
            HarnessError: no port could be leased, or (unconfined) the vendor's port is
                taken.
        """
        suite = self.suite(record, judge, **options)
        seed = options.get("seed", 0)
        return grade_tree(suite, tree, self.select(options.get("phases")), seed=seed,
                          staged=staged, confinement=options.get("confinement"),
                          vendor_url=options.get("vendor_url") or self.vendor_url,
                          on_phase=options.get("on_phase"),
                          evidence_dir=options.get("evidence_dir"),
                          evidence_prefix=options.get("evidence_prefix", ""))  # fmt: skip

    def suite(
        self,
        record: Callable[[Any, int], Log],
        judge: Callable[[Log, Any], list[CheckResult]],
        **options: Unpack[MeridianOptions],
    ) -> AppSuite[Log]:
        """The suite for one grading with ``options`` (`meridian_suite`): what `grade`
        hands the kit, and what a test of one grading's setup prepares.

        Raises:
            TypeError: an option no Meridian grader knows (a typo is never ignored).
        """
        unknown = sorted(set(options) - OPTIONS)
        if unknown:
            raise TypeError(f"grade() got unknown option(s) {', '.join(unknown)}")
        seed = options.get("seed", 0)
        checks = options.get("check_settings") or self.check_settings()
        setup = MeridianSetup(self.version, seed, options.get("timing"), self.context,
                              options.get("settings") or self.settings(),
                              options.get("vendor_url") or self.vendor_url,
                              self.make_mock)  # fmt: skip
        return meridian_suite(self.package, self.db_name, setup,
                              lambda fixture: record(fixture, seed),
                              lambda obs: judge(obs, checks), self.shots)  # fmt: skip
