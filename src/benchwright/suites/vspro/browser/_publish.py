"""Which screenshots a scorecard publishes to the board: the one rule.

The board takes at most five PNGs, each at most 1.5 MB and 3.5 MB together (methodology
§06; `benchwright.board._png`). A card keeps up to nine, one per view a row relies on.
The five a reader of the board should see are the product as its user meets it, in this
order: the page at 1280 px, the 3D chart, the page at a 375 px phone, the error state
and the empty state. The others (after a sync, the note conflict, the chart after a
drag, the no-WebGL fallback) fill in, in that order, for one that was not taken or does
not fit the limits; any other name comes last, by name. A screenshot over 1.5 MB, or one
that would bring the total past 3.5 MB, is passed over, never cut.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from benchwright.board._png import MAX_COUNT, MAX_EACH, MAX_TOTAL

PREFERRED = (
    "load-1280",
    "viz-before-drag",
    "load-375",
    "error",
    "empty",
    "sync-after",
    "note-conflict",
    "viz-after-drag",
    "viz-fallback",
)
"""Screenshot names (file stems) in the order the board receives them."""


def ranked(shots: Iterable[Path]) -> list[Path]:
    """``shots`` in `PREFERRED` order, then any other by name; one per name (the first)."""
    by_stem: dict[str, Path] = {}
    for path in shots:
        by_stem.setdefault(path.stem, path)
    order = {name: i for i, name in enumerate(PREFERRED)}
    return sorted(by_stem.values(), key=lambda p: (order.get(p.stem, len(order)), p.stem))


def publishable(shots: Iterable[Path], sizes: dict[Path, int] | None = None) -> tuple[Path, ...]:
    """The screenshots the board receives: `ranked`, skipping any over the board's size
    limits, at most `MAX_COUNT`.

    Args:
        shots: the screenshots a card keeps.
        sizes: byte sizes by path (read from disk when None).
    """
    chosen: list[Path] = []
    total = 0
    for path in ranked(shots):
        size = sizes.get(path) if sizes is not None else path.stat().st_size
        if size is None or size > MAX_EACH or total + size > MAX_TOTAL:
            continue
        chosen.append(path)
        total += size
        if len(chosen) == MAX_COUNT:
            break
    return tuple(chosen)
