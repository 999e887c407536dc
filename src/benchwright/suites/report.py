"""A suite grading as a scorecard: composed, stamped with provenance, written, gated.

The scorecard JSON is `reports.scorecard.scorecard_dict` plus a ``grading``
object: per-phase timings, the tree's sha256, the fixture seed, the staged
(UNAVAILABLE-by-design) checks, why the app never booted (``boot_failure``, or null),
the screenshots kept with the rows that rely on each (``screenshots``), every row with
its evidence, and the evidence files written next to the JSON.
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchwright.model import GateResult, RunResult, Scorecard, Status
from benchwright.scoring import FreezeDecision, compose, freeze_check, freeze_marker
from benchwright.scoring.scorer import Scorer

MARKER = "{scorer}-reference-pass.json"


def scorecard_for(grading: Any, scorer: Scorer, suite: str) -> Scorecard:
    """Compose the rows and stamp the provenance a reader needs to reproduce them."""
    card = compose(grading.rows, scorer)
    stamp = {
        "suite": suite,
        "tree": str(grading.root),
        "tree_sha256": grading.tree_sha256,
        "fixture_seed": str(grading.seed),
        "isolation": grading.isolation,
        "phases": ", ".join(f"{p.name} {p.seconds:.1f}s" for p in grading.phases),
        "staged": f"{len(grading.staged)} browser checks UNAVAILABLE (browser check not "
        "implemented)",
        **{f"evidence_{k}": v for k, v in grading.evidence.items()},
    }
    return replace(card, provenance={**card.provenance, **stamp})


def grading_dict(grading: Any) -> dict[str, Any]:
    return {
        "tree": str(grading.root),
        "tree_sha256": grading.tree_sha256,
        "fixture_seed": grading.seed,
        "isolation": grading.isolation,
        "phases": [asdict(p) for p in grading.phases],
        "staged": {"reason": "browser check not implemented", "checks": list(grading.staged)},
        "evidence": dict(grading.evidence),
        "boot_failure": asdict(grading.boot_failure) if grading.boot_failure else None,
        "screenshots": [asdict(s) for s in grading.screenshots],
        "results": [r.to_dict() for r in grading.rows],
    }


def scorecard_json(card: Scorecard, grading: Any) -> str:
    """The scorecard file's text: the card and the grading that produced it."""
    from benchwright.reports.scorecard import scorecard_dict

    doc = scorecard_dict(card) | {"grading": grading_dict(grading)}
    return json.dumps(doc, indent=2, default=str) + "\n"


def write_json(card: Scorecard, grading: Any, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(scorecard_json(card, grading), encoding="utf-8")


def write_junit(grading: Any, suite: str, path: Path) -> None:
    from benchwright.reports import write_junit as junit

    seconds = sum(p.seconds for p in grading.phases)
    run = RunResult(suite, grading.rows, trajectory=str(grading.root), duration_s=seconds)
    junit(GateResult((run,), duration_s=seconds), path)


def reference_gate(grading: Any, scorer: Scorer) -> tuple[FreezeDecision, Path | None]:
    """The freeze gate over this grading; on pass the marker is written into the tree."""
    decision = freeze_check(grading.rows, scorer)
    if not decision.passed:
        return decision, None
    path = Path(grading.root) / MARKER.format(scorer=scorer.name.replace("-", ""))
    marker = freeze_marker(decision, scorer, datetime.now(UTC).date().isoformat())
    marker |= {
        "reference_pass": True,
        "thresholds_calibrated": not scorer.uncalibrated,
        "tree_sha256": grading.tree_sha256,
    }
    path.write_text(json.dumps(marker, indent=2) + "\n", encoding="utf-8")
    return decision, path


def boot_lines(grading: Any) -> list[str]:
    """An app that never became healthy: its headline, then its output once (the rows it
    failed say "see the boot failure above" instead of repeating it)."""
    failure = grading.boot_failure
    if failure is None:
        return []
    return [failure.headline, *(f"  | {line}" for line in failure.output.splitlines())]


def screenshot_lines(grading: Any) -> list[str]:
    """Each kept screenshot, whether the board receives it, and the rows that rely on it."""
    shots = grading.screenshots
    if not shots:
        return []
    posted = sum(s.published for s in shots)
    lines = [f"screenshots ({len(shots)} kept, {posted} for the board):"]
    width = max(len(s.path) for s in shots)
    for s in shots:
        mark = "board" if s.published else "-"
        lines.append(f"  {s.path:<{width}}  {mark:<5}  {', '.join(s.rows)}")
    return lines


def phase_lines(grading: Any) -> list[str]:
    lines = ["phases:"]
    for p in grading.phases:
        lines.append(f"  {p.name:<12} {p.seconds:7.2f} s  {p.outcome}")
        if p.parts:  # concurrent parts (the browser's lanes): each one's own wall time
            lines.append(" " * 16 + ", ".join(f"{k} {v:.1f}" for k, v in p.parts.items()))
    lines.append(
        f"tree {grading.root} sha256 {grading.tree_sha256[:16]}…  fixture seed {grading.seed}"
    )
    skipped = [r.check_id for r in grading.rows if r.status is Status.NOT_ATTEMPTED]
    if skipped:
        lines.append(
            f"SUBSET: {len(skipped)} checks NOT_ATTEMPTED (their phases were not selected)"
        )
    if grading.staged:
        lines.append(
            f"STAGED: {len(grading.staged)} browser checks report UNAVAILABLE (browser check "
            "not implemented): " + ", ".join(grading.staged)
        )
    return lines + host_lines(grading.rows)


def host_lines(rows: Any) -> list[str]:
    """The host across each timing row's measurement: the share of the CPU other
    processes took, and the attempts (docs/scoring.md, "Timing on a busy host")."""
    timed = [r for r in rows if isinstance(r.evidence.get("host"), dict)]
    if not timed:
        return []
    contended = sum(bool(r.evidence["host"].get("contended")) for r in timed)
    lines = [f"host across {len(timed)} timing rows ({contended} contended; bound: other "
             f"processes > {timed[0].evidence['host']['bound']:.0%} of the CPU):"]  # fmt: skip
    for r in timed:
        h = r.evidence["host"]
        share = h.get("foreign_share")
        seen = "not observed" if share is None else f"others {share:.0%} of {h['cpus']} CPUs"
        flag = "  CONTENDED" if h.get("contended") else ""
        tries = f", {h['attempts']} attempts" if h.get("attempts", 1) > 1 else ""
        lines.append(f"  {r.check_id:<22} {r.status.value:<11} {seen} over "
                     f"{h['wall_s']:.2f} s{tries}{flag}")  # fmt: skip
    return lines
