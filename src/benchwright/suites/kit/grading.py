"""One hermetic grading of a built tree by a suite: its phases in a work directory of
its own, its checks on what they saw, and the evidence kept beside the card."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic

from benchwright.model import CheckResult
from benchwright.sandbox import CONFINED, Confinement
from benchwright.suites.kit.evidence import keep_evidence, kept_screenshots, relocated
from benchwright.suites.kit.phases import Phase, PhaseListener, PhaseRecord, nobody
from benchwright.suites.kit.runner import AppContext, BootFailure, Log, boot_failure, run_phases
from benchwright.suites.kit.screenshots import CardShot, ShotOrder
from benchwright.suites.kit.tree import locate_root, tree_sha256
from benchwright.suites.kit.vendor import vendor_port
from benchwright.suites.kit.workspace import Workspace, workspace


@dataclass(frozen=True)
class AppSuite(Generic[Log]):
    """What the kit needs from a suite to grade one tree."""

    name: str
    """Names the work directory (``benchwright-<name>-*``)."""
    db_name: str
    """The app's database file, in the work directory's database directory."""
    prepare: Callable[[Workspace], tuple[AppContext, Log]]
    """The context the phases get (with the vendor mock, its trace at
    `Workspace.vendor_trace`) and the empty observation record, for one grading."""
    judge: Callable[[Log], list[CheckResult]]
    """Every check's row on what the phases saw."""
    shots: ShotOrder
    """Which screenshots the card lists first and the board receives."""


@dataclass(frozen=True)
class Executed(Generic[Log]):
    """What one grading left: the observations, per-phase records, the rows (pointed at
    the kept screenshots), the kept evidence files and screenshots."""

    observations: Log
    phases: tuple[PhaseRecord, ...]
    rows: tuple[CheckResult, ...]
    evidence: dict[str, str]
    """Evidence file kind -> path (``app_log``, ``vendor_trace``, ``screenshot_<name>`` for
    each one the board receives), when kept."""
    screenshots: tuple[CardShot, ...]


def execute(
    suite: AppSuite[Log],
    root: Path,
    selected: Sequence[Phase],
    *,
    confinement: Confinement,
    on_phase: PhaseListener | None = None,
    evidence_dir: Path | None = None,
    evidence_prefix: str = "",
) -> Executed[Log]:
    """Run ``selected`` against a fresh copy of ``root`` and judge what they saw.

    Args:
        suite: the suite's setup, checks and screenshot rule.
        root: the directory holding the app's package.
        selected: the phases to run, in order (`phases.select_phases`).
        confinement: how the app is confined.
        on_phase: told when each phase starts and ends; None tells no one.
        evidence_dir: where the app log, the vendor trace and the screenshots rows rely
            on are copied (names prefixed with ``evidence_prefix``) before the work
            directory is deleted; None keeps nothing.
    """
    with workspace(suite.name, root) as space:
        ctx, obs = suite.prepare(space)
        obs, records = run_phases(selected, ctx, obs, db=space.db(suite.db_name),
                                  log=space.app_log, confinement=confinement,
                                  notify=on_phase or nobody)  # fmt: skip
        rows = suite.judge(obs)
        evidence = keep_evidence(space, evidence_dir, evidence_prefix)
        shots, moved = kept_screenshots(space, obs, rows, evidence_dir, evidence_prefix,
                                        suite.shots)  # fmt: skip
    evidence |= {f"screenshot_{s.name}": s.path for s in shots if s.published}
    rows = [relocated(r, moved) for r in rows]
    return Executed(obs, tuple(records), tuple(rows), evidence, shots)


@dataclass(frozen=True)
class Grading:
    """One suite's grading of one tree: the rows for its scorer plus everything the
    scorecard's provenance needs (what `grade` of every suite grader returns)."""

    rows: tuple[CheckResult, ...]
    observations: Any
    """The suite's observation record (a `PhaseLog`)."""
    phases: tuple[PhaseRecord, ...]
    root: Path
    tree_sha256: str
    seed: int
    evidence: dict[str, str] = field(default_factory=dict)
    """Evidence file kind -> path (app log, vendor trace, published screenshots), when kept."""
    staged: tuple[str, ...] = ()
    """Check ids the suite has no producer for yet: reported UNAVAILABLE, named on the card."""
    isolation: str = "bwrap"
    """How the app was confined (``none``: the user passed ``--no-sandbox``)."""
    boot_failure: BootFailure | None = None
    """Why the app never became healthy at boot; None when it did (or never booted)."""
    screenshots: tuple[CardShot, ...] = ()
    """The kept screenshots, each with the rows that rely on it; the published ones are
    also ``evidence["screenshot_<name>"]`` (what ``publish`` posts)."""


def grade_tree(
    suite: AppSuite[Log],
    tree: Path,
    selected: Sequence[Phase],
    *,
    seed: int,
    staged: tuple[str, ...],
    confinement: Confinement | None,
    vendor_url: str,
    on_phase: PhaseListener | None = None,
    evidence_dir: Path | None = None,
    evidence_prefix: str = "",
) -> Grading:
    """Grade ``tree`` (the suite's package in it or one directory down) through
    ``selected`` and hand back what a suite's ``grade`` returns: the rows plus the
    provenance (tree digest, seed, staged ids, isolation, boot failure). Confined
    (`CONFINED`) unless told otherwise.

    Raises:
        SpecError: ``vendor_url`` is no loopback base URL, or the tree holds no package.
    """
    confinement = confinement or CONFINED
    vendor_port(vendor_url)  # refuse a bad URL before anything runs
    root = locate_root(tree, suite.name)
    digest = tree_sha256(root)
    done = execute(suite, root, selected, confinement=confinement, on_phase=on_phase,
                   evidence_dir=evidence_dir, evidence_prefix=evidence_prefix)  # fmt: skip
    return Grading(
        done.rows,
        done.observations,
        done.phases,
        root,
        digest,
        seed,
        done.evidence,
        staged=staged,
        isolation=confinement.isolation,
        boot_failure=boot_failure(done.observations),
        screenshots=done.screenshots,
    )
