"""``benchwright grade SUITE --many TREE...``: several trees, one executor job each.

Each job grades one tree from scratch (its own copy, ports, vendor mock, database and
browser) and hands back its scorecard file's text; the driver writes
``<json-dir>/<name>.json`` the moment a job finishes, so a long batch leaves every
finished card on disk whatever happens to the rest. Evidence (screenshots) is written
by the grading beside it. The table is printed in the order the trees were given, the
same with one worker or many, and the exit code is the worst of the rows: 0 a grading
completed (whatever its score), 3 the harness failed on a tree.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory

from benchwright.errors import EXIT_HARNESS, EXIT_PASSED, SpecError
from benchwright.execution.executor import Executor, Job
from benchwright.execution.progress import ProgressDisplay
from benchwright.execution.tracked import tracked
from benchwright.reports.phase_progress import PhaseFeed, TreePhases
from benchwright.sandbox import Confinement
from benchwright.scoring.thresholds import ThresholdsPin


@dataclass(frozen=True)
class TreeJob:
    """What a worker needs to grade one tree: names and paths, never open objects."""

    suite: str
    tree: Path
    name: str
    """Unique in the batch: the scorecard is ``<name>.json``, evidence ``<name>.*``."""
    seed: int
    phases: tuple[str, ...] | None
    confinement: Confinement
    json_dir: Path | None
    thresholds: ThresholdsPin | None = None
    vendor_url: str | None = None
    """None keeps the suite's."""
    phase_feed: Path | None = None
    """Where the grading appends its phases for the driver's progress display."""


@dataclass(frozen=True)
class TreeRow:
    """One tree's line of the table."""

    name: str
    tree: str
    score: float | None
    """None when the harness failed before a scorecard existed."""
    scorer_version: str
    exit_code: int
    note: str
    """``completed``, the phases that raised, or the harness error."""
    scorecard: str | None = None
    """The scorecard file's text, for the driver to write."""


def grade_tree(job: TreeJob) -> TreeRow:
    """Grade one tree (runs in a worker: the grader and scorer are loaded from names)."""
    from benchwright.suites.grade_run import SuiteGrader

    grader = SuiteGrader.load(job.suite, job.thresholds)
    card = None if job.json_dir is None else job.json_dir / f"{job.name}.json"
    feed = None if job.phase_feed is None else PhaseFeed(job.phase_feed)
    graded = grader.grade(
        job.tree, seed=job.seed, phases=job.phases, confinement=job.confinement,
        vendor_url=job.vendor_url, card=card, on_phase=feed,
    )  # fmt: skip
    note = f"harness failed in {'; '.join(graded.broken)}" if graded.broken else "completed"
    code = EXIT_HARNESS if graded.broken else EXIT_PASSED
    return TreeRow(job.name, str(job.tree), graded.card.score, graded.card.scorer_version, code,
                   note, graded.json())  # fmt: skip


def tree_names(trees: Sequence[Path]) -> list[str]:
    """Each tree's directory name, numbered from the second on where names repeat."""
    names: list[str] = []
    for tree in trees:
        base = tree.resolve().name or "tree"
        name, n = base, 1
        while name in names:
            n += 1
            name = f"{base}-{n}"
        names.append(name)
    return names


def read_trees(trees: Sequence[Path], trees_from: Path | None) -> list[Path]:
    """The trees given as arguments, then those listed in ``trees_from`` (one a line,
    blank lines and ``#`` comments skipped, relative to the list's directory).

    Raises:
        SpecError: no tree at all, an unreadable list, or a tree that is no directory
            (every one named, before anything is graded).
    """
    listed = list(trees)
    if trees_from is not None:
        try:
            lines = trees_from.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise SpecError.single(f"--trees-from {trees_from}", f"cannot read: {exc}") from None
        entries = [s for s in (line.strip() for line in lines) if s and not s.startswith("#")]
        listed += [trees_from.parent / entry for entry in entries]
    if not listed:
        raise SpecError.single("--many", "no trees: give them as arguments or --trees-from")
    missing = [(str(t), "no such directory") for t in listed if not t.is_dir()]
    if missing:
        raise SpecError("--many", missing)
    return listed


def grade_many(
    suite: str,
    trees: Sequence[Path],
    *,
    executor: Executor,
    confinement: Confinement,
    json_dir: Path | None = None,
    seed: int = 0,
    phases: str | None = None,
    thresholds: ThresholdsPin | None = None,
    vendor_url: str | None = None,
) -> Iterator[TreeRow]:
    """Grade every tree on ``executor``; write each scorecard as its job finishes; yield
    the rows in the order the trees were given once all are done. While they run, each
    tree's phase and elapsed time is on the progress display, and each finished phase a
    line on stderr (`TreePhases`, fed through a temporary folder).

    Raises:
        SpecError: an unknown suite or phase (before anything is graded).
    """
    from benchwright.suites import grader_for, grading_resources

    selected = tuple(phases.split(",")) if phases else None
    grader_for(suite).select_phases(selected)
    named = dict(zip(tree_names(trees), trees, strict=True))
    needs = grading_resources(suite, selected)
    rows: dict[str, TreeRow] = {}
    with (
        TemporaryDirectory(prefix="benchwright-phases-") as folder,
        ProgressDisplay(len(named), "trees") as shown,
        TreePhases(Path(folder), shown) as phases,
    ):
        jobs = [
            Job(name, TreeJob(suite, tree, name, seed, selected, confinement, json_dir,
                              thresholds, vendor_url, phases.feed(name)), needs)
            for name, tree in named.items()
        ]  # fmt: skip
        for done in tracked(executor, grade_tree, jobs, shown):
            row = done.result or TreeRow(done.key, str(named[done.key]), None, "-", EXIT_HARNESS,
                                         f"harness error: {done.error}")  # fmt: skip
            if json_dir is not None and row.scorecard is not None:
                json_dir.mkdir(parents=True, exist_ok=True)
                (json_dir / f"{row.name}.json").write_text(row.scorecard, encoding="utf-8")
            rows[done.key] = row
            phases.finished(done.key)
            shown.finished(done.key, row.exit_code == EXIT_PASSED, f"graded {row_line(row)}")
    yield from (rows[name] for name in named)


def row_line(row: TreeRow) -> str:
    score = "-" if row.score is None else f"{row.score:.4f}"
    return f"{row.name:<24} {score:>7}  {row.scorer_version:<14} exit {row.exit_code}  {row.note}"


def worst(rows: Sequence[TreeRow]) -> int:
    """The batch's exit code: the worst row's."""
    return max((row.exit_code for row in rows), default=EXIT_PASSED)
