"""Where the graded picks go, and what each one is built to catch (methodology §12
t_pick_buffer): a column hidden behind a LOWER-index column (last-drawn-wins shows the
hidden one), behind a HIGHER-index one (first-drawn-wins does), a partial occlusion (the
hidden column shows a few pixels away: a CPU ray cast that ignores depth order misses
it), and background inside the field's hull. The probe aims with the records the page
downloaded; the check classifies again with the truth's scene.

Points are whole CSS pixels; the answer at (sx, sy) is the ray through the pixel's centre
(sx + 0.5, sy + 0.5), and a graded point's answer is the same one pixel either way, so that
rounding never decides a pick."""

from __future__ import annotations

from benchwright.suites.sb7.viz.camera import Hit, Screen

KINDS = ("lower", "higher", "partial", "background")
KINDS_SET = frozenset(KINDS)
STEP_PX = 12
"""The scan grid's pitch in CSS pixels."""
PER_KIND, PLAIN = 2, 4
NEAR_PX = 4
"""How near the hidden column must show for a partial occlusion."""
HULL_PX = 24
"""How far each way a background point must see columns to be inside the hull."""


def front(screen: Screen, sx: float, sy: float) -> Hit | None:
    found = screen.hits(sx + 0.5, sy + 0.5)
    return found[0] if found else None


def _n(hit: Hit | None) -> int | None:
    return None if hit is None else hit.column.n


def stable(screen: Screen, sx: float, sy: float) -> bool:
    """The same answer one pixel either way."""
    here = _n(front(screen, sx, sy))
    return all(_n(front(screen, sx + dx, sy + dy)) == here
               for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))  # fmt: skip


def kinds(screen: Screen, sx: float, sy: float, wanted: frozenset[str] = KINDS_SET) -> set[str]:
    """The constructions among ``wanted`` that point (sx, sy) is an instance of (the
    costly partial and hull tests run only when wanted)."""
    hits = screen.hits(sx + 0.5, sy + 0.5)
    if not hits:
        if "background" not in wanted:
            return set()
        around = ((HULL_PX, 0), (-HULL_PX, 0), (0, HULL_PX), (0, -HULL_PX))
        inside = all(front(screen, sx + dx, sy + dy) is not None for dx, dy in around)
        return {"background"} if inside else set()
    top, hidden = hits[0].column.n, {h.column.n for h in hits[1:]}
    found = set()
    if any(n > top for n in hidden):
        found.add("lower")
    if any(n < top for n in hidden):
        found.add("higher")
    if hidden and "partial" in wanted:
        near = {_n(front(screen, sx + dx, sy + dy)) for dx in range(-NEAR_PX, NEAR_PX + 1)
                for dy in (-NEAR_PX, 0, NEAR_PX)}  # fmt: skip
        if near & hidden:
            found.add("partial")
    return found & wanted


def aim(screen: Screen) -> list[tuple[int, int]]:
    """Up to `PER_KIND` stable points of each construction and `PLAIN` plain hits; the
    scan ends once every quota is met."""
    w, h = int(screen.view.w), int(screen.view.h)
    quota = {**dict.fromkeys(KINDS, PER_KIND), "plain": PLAIN}
    chosen: dict[str, list[tuple[int, int]]] = {k: [] for k in quota}
    for sy in range(STEP_PX // 2, h - 1, STEP_PX):
        for sx in range(STEP_PX // 2, w - 1, STEP_PX):
            wanted = frozenset(k for k in KINDS if len(chosen[k]) < quota[k])
            found = kinds(screen, sx, sy, wanted)
            if not found and len(chosen["plain"]) < PLAIN and front(screen, sx, sy):
                found = {"plain"}
            if found and stable(screen, sx, sy):
                chosen[min(found, key=lambda k: len(chosen[k]))].append((sx, sy))
            if all(len(chosen[k]) >= quota[k] for k in quota):
                return [p for points in chosen.values() for p in points]
    return [p for points in chosen.values() for p in points]
