"""What ``benchwright grade`` does, outside the CLI: grade, compose, write, gate."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import benchwright
from benchwright.errors import HarnessError, RefusedError, SpecError
from benchwright.scoring.thresholds import ThresholdsPin
from benchwright.suites import grader_for
from benchwright.suites.report import (
    phase_lines,
    reference_gate,
    scorecard_for,
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
) -> Iterator[str]:
    """Yield the verdict lines; the scorecard is written whatever the score (exit 0).

    The app under test runs sandboxed unless ``no_sandbox``; where bubblewrap cannot
    run, grading is refused before anything boots. ``thresholds`` replaces the scorer
    config's pinned thresholds for this grading (``--thresholds``/``--thresholds-sha256``).

    Raises:
        HarnessError: a phase raised (a harness fault: its rows are INFRA), after the
            scorecard was printed and written: exit 3, the number is not a verdict.
        RefusedError: the reference gate refused, or a thresholds file broke its pin (exit 3).
        HarnessError: no sandbox here and ``no_sandbox`` not given (exit 3).
    """
    from benchwright.reports.scorecard import verdict_lines
    from benchwright.sandbox import require
    from benchwright.scoring import load_scorer

    grader = grader_for(suite)
    scorer = load_scorer(scorer_path(suite, grader.SCORER), thresholds=thresholds)
    selected = phases.split(",") if phases else None
    grader.select_phases(selected)  # refuse a bad --phases before booting anything
    confinement = require(no_sandbox)
    name = Path(suite).name
    evidence = (json_out.parent, f"{json_out.stem}.") if json_out else (None, "")
    grading = grader.grade(
        tree,
        seed=seed,
        phases=selected,
        check_settings=grader.CheckSettings.from_scorer(scorer),
        evidence_dir=evidence[0],
        evidence_prefix=evidence[1],
        confinement=confinement,
    )
    card = scorecard_for(grading, scorer, name)
    yield from verdict_lines(card)
    yield from phase_lines(grading)
    yield f"scorer {card.scorer_version} ({scorer.source}), scorecard schema {card.schema_version}"
    if scorer.thresholds:
        yield f"thresholds {scorer.thresholds.source} sha256 {scorer.thresholds.sha256}"
    if json_out:
        write_json(card, grading, json_out)
        yield f"wrote {json_out} (evidence: {', '.join(grading.evidence.values()) or 'none'})"
    if junit_out:
        write_junit(grading, name, junit_out)
        yield f"wrote {junit_out}"
    broken = [f"{p.name} ({p.outcome})" for p in grading.phases if p.outcome.startswith("failed")]
    if broken:
        raise HarnessError(f"the harness failed during phase(s) {'; '.join(broken)}: their "
                           "checks are INFRA; the scorecard above is not a verdict")  # fmt: skip
    if reference:
        decision, marker = reference_gate(grading, scorer)
        if marker is None:
            problems = list(decision.problems)
            staged = [p for p in problems if p.split(" ", 1)[0] in grading.staged]
            note = ""
            if staged:
                note = (
                    f"; {len(staged)} of the {len(problems)} problems are staged browser "
                    "checks (UNAVAILABLE: browser check not implemented)"
                )
            raise RefusedError(f"reference gate refused, no marker written{note}", problems)
        yield f"reference gate passed: wrote {marker}"
