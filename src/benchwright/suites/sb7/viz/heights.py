"""Where t_height_pixels measures column tops (methodology §12): at a close pose, a few
columns per currency (JPY and KWD first: their exponents 0 and 3 are what a forgotten
exponent gets wrong) whose silhouette's upper edge is clean, i.e. the screen column
through the top face's centre runs from that face straight into background. The probe
reads a strip of visible pixels there; the check finds the rendered top in it and
compares it with the analytic one. Both sides use `top_edge`, so the probe's aim and the
check's truth agree by construction whenever the page drew what it downloaded."""

from __future__ import annotations

from collections.abc import Mapping

from benchwright.suites.sb7.viz.camera import Column, Screen

CURRENCIES = ("JPY", "KWD", "EUR", "USD")
PER_CURRENCY = 2
CLEAR_PX = 8
"""Background the analytic edge must have above it: the rendered top is then the first
background pixel up the strip, never a column behind."""
ABOVE_PX = 40
"""How far above the analytic edge the strip reaches (a column drawn too tall shows)."""
MARGIN_PX = 4


def _is(screen: Screen, sx: float, sy: float, n: int | None) -> bool:
    found = screen.hits(sx + 0.5, sy + 0.5)
    return (found[0].column.n if found else None) == n


def top_edge(screen: Screen, column: Column) -> tuple[int, int, int] | None:
    """(sx, anchor sy, the topmost sy the column shows at sx) through its top face's
    centre, or None when the anchor is off the canvas or not on that column's top."""
    anchor = screen.view.project((column.x, column.h, column.z))
    if anchor is None:
        return None
    sx, sy = int(anchor[0]), int(anchor[1])
    if not (MARGIN_PX <= sx < screen.view.w - MARGIN_PX and ABOVE_PX <= sy < screen.view.h):
        return None
    found = screen.hits(sx + 0.5, sy + 0.5)
    if not found or found[0].column.n != column.n or found[0].face != "top":
        return None
    top = sy
    while top > 0 and _is(screen, sx, top - 1, column.n):
        top -= 1
    return sx, sy, top


def clean(screen: Screen, column: Column) -> tuple[int, int, int] | None:
    """`top_edge` when the edge has `CLEAR_PX` of background above it."""
    edge = top_edge(screen, column)
    if edge is None or edge[2] < ABOVE_PX:
        return None
    sx, _sy, top = edge
    return edge if all(_is(screen, sx, top - k, None) for k in range(1, CLEAR_PX + 1)) else None


def _off_centre(screen: Screen, column: Column) -> float:
    at = screen.view.project((column.x, column.h, column.z))
    if at is None:
        return float("inf")
    return abs(at[0] - screen.view.w / 2) + abs(at[1] - screen.view.h / 2)


def cases(screen: Screen, currency: Mapping[int, str]) -> list[tuple[int, int, int, int]]:
    """Up to `PER_CURRENCY` clean columns per currency: (n, sx, anchor sy, strip top sy),
    nearest the canvas centre first (the largest on screen)."""
    seen: dict[int, Column] = {}
    for boxes in screen.cells.values():
        for box in boxes:
            seen[box[0].n] = box[0]
    chosen: list[tuple[int, int, int, int]] = []
    for code in CURRENCIES:
        pool = [c for c in seen.values() if currency.get(c.n) == code]
        pool.sort(key=lambda c: _off_centre(screen, c))
        got = 0
        for c in pool:
            edge = clean(screen, c)
            if edge is not None:
                chosen.append((c.n, edge[0], edge[1], edge[2] - ABOVE_PX))
                got += 1
            if got == PER_CURRENCY:
                break
    return chosen
