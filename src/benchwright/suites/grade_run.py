"""What ``benchwright grade`` does, outside the CLI: grade, compose, write, gate."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import benchwright
from benchwright.errors import HarnessError, RefusedError, SpecError
from benchwright.model import Scorecard
from benchwright.sandbox import Confinement
from benchwright.scoring.scorer import Scorer
from benchwright.scoring.thresholds import ThresholdsPin
from benchwright.suites import grader_for
from benchwright.suites.report import (
    boot_lines,
    phase_lines,
    reference_gate,
    scorecard_for,
    scorecard_json,
    screenshot_lines,
    write_json,
    write_junit,
)


def scorer_path(suite: str, file_name: str) -> Path:
    """``scorers/<file>`` beside the suite's repository, the working directory, or this
    checkout (first found)."""
    suite_dir = Path(suite)
    roots = [suite_dir.resolve().parent.parent, Path.cwd(), Path(benchwright.__file__).parents[2]]
    for root in roots:
        if (root / "scorers" / file_name).is_file():
            return root / "scorers" / file_name
    raise SpecError.single(suite, f"cannot find scorers/{file_name} (looked under "
                           f"{', '.join(str(r) for r in roots)})")  # fmt: skip


@dataclass(frozen=True)
class Graded:
    """One grading of a built tree and the scorecard composed from it."""

    card: Scorecard
    grading: Any

    @property
    def broken(self) -> list[str]:
        """The phases that raised (``name (failed: why)``): a harness fault, their rows
        are INFRA and the score is not a verdict."""
        return [f"{p.name} ({p.outcome})" for p in self.grading.phases
                if p.outcome.startswith("failed")]  # fmt: skip

    def json(self) -> str:
        """The scorecard file's text, as ``grade --json`` writes it."""
        return scorecard_json(self.card, self.grading)


@dataclass(frozen=True)
class SuiteGrader:
    """A suite's grader module and its scorer, loaded once for one or more gradings: what
    ``grade``, ``grade --many`` and the ``executed_app`` check all grade with."""

    suite: str
    module: ModuleType
    scorer: Scorer

    @classmethod
    def load(cls, suite: str, thresholds: ThresholdsPin | None = None) -> SuiteGrader:
        """The grader of ``suite`` (a name or a suite directory) and its scorer config.

        Raises:
            SpecError: no grader for that suite, or its scorer config is not found.
        """
        from benchwright.scoring import load_scorer

        module = grader_for(suite)
        scorer = load_scorer(scorer_path(suite, module.SCORER), thresholds=thresholds)
        return cls(suite, module, scorer)

    def grade(
        self, tree: Path, *, seed: int, phases: Sequence[str] | None, confinement: Confinement,
        vendor_url: str | None = None, card: Path | None = None,
        on_phase: Callable[[str, Any], None] | None = None, build_trace: Path | None = None,
    ) -> Graded:  # fmt: skip
        """Grade ``tree`` and compose its scorecard. ``card`` is where the scorecard will
        be written: the grader's evidence files go beside it, named after it as ``grade
        --json`` names them (``<stem>.app.log``, ``<stem>.browser/…``); None keeps none.
        ``vendor_url`` None keeps the suite's. ``build_trace``: the build vendor's trace (a
        run's, or a `kit.build_phase.scripted_build`'s), given to a grader that takes one
        (`kit.build_phase.takes_build_trace`) and to no other."""
        from benchwright.suites.kit.build_phase import BUILD_TRACE, takes_build_trace

        where = {} if vendor_url is None else {"vendor_url": vendor_url}
        if build_trace is not None and takes_build_trace(self.module.grade):
            where[BUILD_TRACE] = build_trace
        grading = self.module.grade(
            tree, seed=seed, phases=None if phases is None else list(phases),
            check_settings=self.module.CheckSettings.from_scorer(self.scorer),
            evidence_dir=card.parent if card else None,
            evidence_prefix=f"{card.stem}." if card else "",
            confinement=confinement, on_phase=on_phase, **where,
        )  # fmt: skip
        return Graded(scorecard_for(grading, self.scorer, Path(self.suite).name), grading)


def run_grade(
    suite: str,
    tree: Path,
    json_out: Path | None,
    junit_out: Path | None,
    reference: bool,
    seed: int,
    phases: str | None,
    no_sandbox: bool = False,
    thresholds: ThresholdsPin | None = None,
    vendor_url: str | None = None,
    on_phase: Callable[[str, Any], None] | None = None,
    every_row: bool = False,
) -> Iterator[str]:
    """Yield the verdict lines; the scorecard is written whatever the score (exit 0).

    The app under test runs sandboxed unless ``no_sandbox``; where bubblewrap cannot
    run, grading is refused before anything boots. ``thresholds`` replaces the scorer
    config's pinned thresholds for this grading (``--thresholds``/``--thresholds-sha256``).
    ``vendor_url`` is the vendor base URL rendered into the entrant's prompt (``--vendor-url``);
    None keeps the suite's. The freeze gate (``reference``) grades the golden through its
    scripted build phase (`kit.build_phase.golden_build`), as ``audit`` does; a plain
    grading has none. ``on_phase`` hears each phase start ``(name, None)`` and end
    ``(name, record)``, for a progress display. ``every_row`` lists every weighted row,
    not only those below 1.0 (``--all-rows``).

    Raises:
        HarnessError: a phase raised (a harness fault: its rows are INFRA), after the
            scorecard was printed and written: exit 3, the number is not a verdict.
        RefusedError: the reference gate refused on a grading and again on one more
            grading of the reference (a refusal must survive a repeat), or a thresholds
            file broke its pin (exit 3).
        HarnessError: no sandbox here and ``no_sandbox`` not given (exit 3).
    """
    from benchwright.sandbox import require
    from benchwright.suites.kit.build_phase import golden_build

    grader = SuiteGrader.load(suite, thresholds)
    selected = phases.split(",") if phases else None
    grader.module.select_phases(selected)  # refuse a bad --phases before booting anything
    confinement = require(no_sandbox)

    def graded() -> Graded:
        # The golden's build phase, for the gate only: a plain grading has none (a row
        # about the build is then not measured).
        build = golden_build(suite, grader.module.grade, seed) if reference else nullcontext({})
        with build as options:
            return grader.grade(tree, seed=seed, phases=selected, confinement=confinement,
                                vendor_url=vendor_url, card=json_out, on_phase=on_phase,
                                **options)  # fmt: skip

    grading = graded()
    yield from _report(grading, grader.scorer, json_out, junit_out, every_row)
    if not reference:
        return
    decision, marker = reference_gate(grading.grading, grader.scorer)
    if marker is None:
        first = decision.problems
        yield (f"reference gate: {len(first)} problem(s) on the first grading; grading the "
               "reference once more (a refusal must survive a repeat):")  # fmt: skip
        yield from (f"  {p}" for p in first)
        grading = graded()
        yield from _report(grading, grader.scorer, json_out, junit_out, every_row)
        decision, marker = reference_gate(grading.grading, grader.scorer)
        if marker is None:
            raise _refusal(first, decision.problems, grading.grading.staged)
        yield "reference gate: none of those problems came back on the repeat"
    yield f"reference gate passed: wrote {marker}"


def _report(
    graded: Graded,
    scorer: Scorer,
    json_out: Path | None,
    junit_out: Path | None,
    every_row: bool = False,
) -> Iterator[str]:
    """Print and write one grading's scorecard.

    Raises:
        HarnessError: a phase raised: its rows are INFRA, the number is not a verdict.
    """
    from benchwright.reports.scorecard import verdict_lines

    card, grading = graded.card, graded.grading
    yield from boot_lines(grading)
    yield from verdict_lines(card, every_row=every_row)
    yield from phase_lines(grading)
    yield f"scorer {card.scorer_version} ({scorer.source}), scorecard schema {card.schema_version}"
    if scorer.thresholds:
        yield f"thresholds {scorer.thresholds.source} sha256 {scorer.thresholds.sha256}"
    if json_out:
        write_json(card, grading, json_out)
        yield f"wrote {json_out} (evidence: {', '.join(grading.evidence.values()) or 'none'})"
        yield from screenshot_lines(grading)
    if junit_out:
        write_junit(grading, card.provenance.get("suite", ""), junit_out)
        yield f"wrote {junit_out}"
    if graded.broken:
        phases = "; ".join(graded.broken)
        raise HarnessError(f"the harness failed during phase(s) {phases}: their checks are "
                           "INFRA; the scorecard above is not a verdict")  # fmt: skip


def _subject(problem: str) -> str:
    """The check (or ``selftest:``, ``excellence``) a freeze problem is about."""
    return problem.split(" ", 1)[0]


def _refusal(first: Sequence[str], second: Sequence[str], staged: Sequence[str]) -> RefusedError:
    """The refusal after two refused gradings: which problems held in both (by check) and
    which came and went. A reference that fails twice is refused either way -- one clean
    grading is the bar -- but the reader learns which reasons are stable."""
    before = {_subject(p) for p in first}
    held = [p for p in second if _subject(p) in before]
    problems = [f"{p} (also on the first grading)" for p in held]
    problems += [f"{p} (only on the repeat)" for p in second if _subject(p) not in before]
    after = {_subject(p) for p in second}
    problems += [f"{p} (only on the first grading)" for p in first if _subject(p) not in after]
    note = f"{len(held)} of {len(second)} problem(s) held on a repeat"
    staged_hits = [p for p in second if _subject(p) in staged]
    if staged_hits:
        note += (f"; {len(staged_hits)} are staged browser checks (UNAVAILABLE: browser "
                 "check not implemented)")  # fmt: skip
    return RefusedError(f"reference gate refused twice, no marker written ({note})", problems)
