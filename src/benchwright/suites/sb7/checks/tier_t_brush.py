"""Tier T's brush row (§12 t_brush_link): one brush set behind both doors, the table row
and the field's column, read in the set, the count, the dim in pixels and the table's
move to a field-clicked record, then emptied by a background click."""

from __future__ import annotations

from collections.abc import Sequence

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.sb7.browser.record import BROWSER
from benchwright.suites.sb7.checks._viz import TOPS, graded, near
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.viz.view import BrushLook, VizView

DIM = 0.30


def _tops(seen: VizView) -> list[tuple[int, int, int] | None]:
    """The full top colour of each height strip's record (None: unknown status)."""
    records = seen.records or {}
    where = {pid: n for n, pid in enumerate(records.get("id") or [])}
    statuses = records.get("status") or []
    out = []
    for strip in seen.heights.strips:  # type: ignore[union-attr]
        n = where.get(strip.id)
        out.append(TOPS.get(str(statuses[n])) if n is not None and n < len(statuses) else None)
    return out


def _members(look: BrushLook) -> set[str]:
    return {str(i) for i in look.brush} if isinstance(look.brush, list) else set()


def _pixels(seen: VizView, look: BrushLook, members: set[str], want_member: bool) -> bool:
    """Every anchor of the wanted kind shows its colour: full for a member, round(0.30 x)
    for a non-member; False when no anchor of that kind was read."""
    if look.pixels is None:
        return False
    checked = 0
    for strip, top, shown in zip(seen.heights.strips, _tops(seen), look.pixels, strict=False):  # type: ignore[union-attr]
        if top is None or (strip.id in members) != want_member:
            continue
        want: Sequence[int] = top if want_member else tuple(round(DIM * c) for c in top)
        if not near(shown, want):
            return False
        checked += 1
    return checked > 0


@app_check("t_brush_link", needs=(BROWSER,))
def t_brush_link(obs: Observations, _s) -> CheckResult:
    """1/9 each: row click toggles, non-members dimmed, members full, #brush-count shows
    the size, field click toggles, the table moved to the record with its row in view,
    the row marked, background click empties, pixels restored. Neither door: 0."""
    seen, row = graded(obs, "t_brush_link", "context", "heights", "brush", dead=True)
    if row is not None:
        return row
    run = seen.brush  # type: ignore[union-attr]
    if run is None:
        return result("t_brush_link", 0.0, "0: the brush was never exercised (no measured "
                      "column to click)")  # fmt: skip
    by_row, by_field = _members(run.after_row), _members(run.after_field)
    shown = run.shown or {}
    parts = {
        "row toggles": run.row is not None and run.row in by_row,
        "non-members dimmed": _pixels(seen, run.after_row, by_row, False),  # type: ignore[arg-type]
        "members full": _pixels(seen, run.after_field, by_field, True),  # type: ignore[arg-type]
        "brush count": run.after_row.count == str(len(by_row)) and bool(by_row),
        "field toggles": run.target in by_field and by_row <= by_field,
        "table moved": shown.get("inView") is True,
        "row marked": shown.get("brushed") == "true",
        "background empties": run.after_ground.brush == [],
        "pixels restored": _restored(seen, run.after_ground),  # type: ignore[arg-type]
    }
    if not parts["row toggles"] and not parts["field toggles"]:
        return result("t_brush_link", 0.0, "0: neither the row nor the field click toggled "
                      "the brush")  # fmt: skip
    failed = [k for k, ok in parts.items() if not ok]
    score = (len(parts) - len(failed)) / len(parts)
    return result("t_brush_link", score, f"{g(score)}: {len(parts) - len(failed)}/9 parts"
                  + (f"; failed: {', '.join(failed)}" if failed else ""))  # fmt: skip


def _restored(seen: VizView, look: BrushLook) -> bool:
    """Every anchor back at its full status colour."""
    if look.pixels is None:
        return False
    pairs = [(top, px) for top, px in zip(_tops(seen), look.pixels, strict=False) if top]
    return bool(pairs) and all(near(px, top) for top, px in pairs)
