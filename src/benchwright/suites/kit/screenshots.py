"""The screenshots a scorecard keeps: each one a row relies on, with those rows.

A suite's browser phase takes a PNG wherever a scenario leaves something to see; a row
that judges what is on one names it in its evidence (``screenshots``). The card keeps
exactly those (a PNG no row names is evidence of nothing and is not copied), lists each
with the rows that rely on it, and marks the few the board receives: which, and in what
order, is the suite's rule (`ShotOrder`).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchwright.board._png import MAX_COUNT, MAX_EACH, MAX_TOTAL
from benchwright.model import CheckResult


@dataclass(frozen=True)
class ShotOrder:
    """A suite's rule for its screenshots: the order a card lists them in, and the few
    the board receives."""

    ranked: Callable[[Iterable[Path]], list[Path]]
    """The screenshots in the order the card lists them (the board's first), one per name."""
    publishable: Callable[[Iterable[Path]], tuple[Path, ...]]
    """Those the board receives."""


@dataclass(frozen=True)
class PreferredShots:
    """The usual `ShotOrder`: the screenshots a suite prefers (file stems), in the order
    the board should receive them, then any other by name. The board takes at most
    `MAX_COUNT` PNGs within its size limits (`benchwright.board._png`); one over a limit,
    or one that would bring the total past it, is passed over, never cut."""

    preferred: tuple[str, ...]

    def ranked(self, shots: Iterable[Path]) -> list[Path]:
        """``shots`` in `preferred` order, then any other by name; one per name (the first)."""
        by_stem: dict[str, Path] = {}
        for path in shots:
            by_stem.setdefault(path.stem, path)
        order = {name: i for i, name in enumerate(self.preferred)}
        return sorted(by_stem.values(), key=lambda p: (order.get(p.stem, len(order)), p.stem))

    def publishable(
        self, shots: Iterable[Path], sizes: dict[Path, int] | None = None
    ) -> tuple[Path, ...]:
        """The screenshots the board receives: `ranked`, skipping any over the board's
        size limits, at most `MAX_COUNT` (``sizes``: byte sizes by path, read from disk
        when None)."""
        chosen: list[Path] = []
        total = 0
        for path in self.ranked(shots):
            size = sizes.get(path) if sizes is not None else path.stat().st_size
            if size is None or size > MAX_EACH or total + size > MAX_TOTAL:
                continue
            chosen.append(path)
            total += size
            if len(chosen) == MAX_COUNT:
                break
        return tuple(chosen)

    @property
    def order(self) -> ShotOrder:
        return ShotOrder(self.ranked, self.publishable)


@dataclass(frozen=True)
class CardShot:
    """One kept screenshot: where it is, which rows rely on it, whether it is posted."""

    name: str
    """The file's stem (``load-1280``); unique on a card."""
    scenario: str
    """The browser scenario that took it (its folder: ``load``, ``viz``, ...)."""
    path: str
    """The kept copy, beside the scorecard."""
    rows: tuple[str, ...]
    """The check ids whose evidence names it, in row order."""
    published: bool
    """Among those `ShotOrder.publishable` chose for the board."""


def relied_on(rows: Iterable[CheckResult]) -> dict[str, tuple[str, ...]]:
    """Screenshot path -> the rows whose evidence names it, first named first."""
    found: dict[str, list[str]] = {}
    for row in rows:
        for path in row.evidence.get("screenshots", ()):
            found.setdefault(str(path), []).append(row.check_id)
    return {path: tuple(ids) for path, ids in found.items()}


def keep_screenshots(
    taken: Sequence[Path],
    rows: Sequence[CheckResult],
    shots_dir: Path,
    into: Path,
    order: ShotOrder,
) -> tuple[tuple[CardShot, ...], dict[str, str]]:
    """Copy the screenshots in ``taken`` that some row relies on from ``shots_dir`` to
    ``into`` (keeping their ``<scenario>/<name>.png`` layout); returns them as the card
    lists them (in the suite's order, `ShotOrder.ranked`), and taken path -> kept path for
    pointing the rows at the copies.

    One screenshot per name: a second PNG of the same name (from another scenario) is
    dropped, so ``screenshot_<name>`` is one file.
    """
    relying = relied_on(rows)
    kept: dict[str, Path] = {}
    for shot in taken:
        if str(shot) in relying and shot.stem not in kept and shot.is_file():
            kept[shot.stem] = shot
    published = {p.stem for p in order.publishable(kept.values())}
    cards, moved = [], {}
    for shot in order.ranked(kept.values()):
        name = shot.stem
        target = into / shot.relative_to(shots_dir)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, target)
        moved[str(shot)] = str(target)
        cards.append(CardShot(name, shot.parent.name, str(target), relying[str(shot)],
                              name in published))  # fmt: skip
    return tuple(cards), moved
