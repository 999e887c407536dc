"""Which screenshots a scorecard publishes: a few, small, in a fixed preference order."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

MAX_SHOTS = 5
MAX_EACH = 1_500_000
MAX_TOTAL = 3_500_000
PREFERRED = ("load-1280", "load-375", "error", "empty", "note-conflict", "sync-after")


def publishable(shots: Iterable[Path], sizes: dict[Path, int] | None = None) -> tuple[Path, ...]:
    """At most 5 screenshots, each <= 1.5 MB and <= 3.5 MB together, preferred first.

    Args:
        shots: every screenshot taken.
        sizes: byte sizes by path (read from disk when None).
    """
    by_stem = {}
    for path in shots:
        by_stem.setdefault(path.stem, path)
    chosen: list[Path] = []
    total = 0
    ordered = [by_stem[s] for s in PREFERRED if s in by_stem]
    ordered += sorted(p for s, p in by_stem.items() if s not in PREFERRED)
    for path in ordered:
        size = (sizes or {}).get(path) if sizes is not None else path.stat().st_size
        if size is None or size > MAX_EACH or total + size > MAX_TOTAL:
            continue
        chosen.append(path)
        total += size
        if len(chosen) == MAX_SHOTS:
            break
    return tuple(chosen)
