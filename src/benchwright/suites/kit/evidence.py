"""What a grading keeps before its work directory goes: the app's log, the vendor trace
and the screenshots rows rely on, copied beside the card, with the rows pointed at them."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from benchwright.model import CheckResult
from benchwright.suites.kit.record import PhaseLog
from benchwright.suites.kit.screenshots import CardShot, ShotOrder, keep_screenshots
from benchwright.suites.kit.workspace import BROWSER, Workspace


def keep_evidence(space: Workspace, into: Path | None, prefix: str) -> dict[str, str]:
    """Evidence file kind -> kept path: the non-empty app log and vendor trace, copied to
    ``<into>/<prefix>app.log`` and ``<into>/<prefix>vendor-trace.jsonl``; nothing when
    ``into`` is None."""
    if into is None:
        return {}
    into.mkdir(parents=True, exist_ok=True)
    kept = {}
    for kind, path in (("app_log", space.app_log), ("vendor_trace", space.vendor_trace)):
        if path.is_file() and path.stat().st_size:
            shutil.copyfile(path, into / f"{prefix}{path.name}")
            kept[kind] = str(into / f"{prefix}{path.name}")
    return kept


def kept_screenshots(
    space: Workspace,
    obs: PhaseLog,
    rows: Sequence[CheckResult],
    into: Path | None,
    prefix: str,
    order: ShotOrder,
) -> tuple[tuple[CardShot, ...], dict[str, str]]:
    """The browser phase's screenshots that rows rely on, copied to
    ``<into>/<prefix>browser/<scenario>/`` (`screenshots.keep_screenshots`), and old path
    -> kept path; nothing when nothing is kept."""
    seen = obs.phases.get(BROWSER)
    if into is None or seen is None or not seen.screenshots:
        return (), {}
    return keep_screenshots(seen.screenshots, rows, space.shots, into / f"{prefix}{BROWSER}", order)


def relocated(row: CheckResult, moved: dict[str, str]) -> CheckResult:
    """A row whose evidence names screenshots, pointed at the kept copies (dropped if none)."""
    if "screenshots" not in row.evidence:
        return row
    kept = [moved[p] for p in row.evidence["screenshots"] if p in moved]
    evidence = {k: v for k, v in row.evidence.items() if k != "screenshots"}
    return replace(row, evidence=evidence | ({"screenshots": kept} if kept else {}))
