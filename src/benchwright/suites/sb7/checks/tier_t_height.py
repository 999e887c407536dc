"""Tier T's height row (§12 t_height_pixels): column tops are where the printed height law
puts them, in rendered pixels, with the status colour on top, measured on JPY and KWD
columns among others (a forgotten currency exponent moves their tops by several pixels)."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.sb7.browser.record import BROWSER
from benchwright.suites.sb7.checks._viz import TOPS, graded, near, truth_scene
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.viz import camera as C
from benchwright.suites.sb7.viz import heights
from benchwright.suites.sb7.viz.scene import Column
from benchwright.suites.sb7.viz.view import BACKGROUND, HeightStrip, VizView

TOP_TOL_PX = 3
TRAPS = frozenset({"JPY", "KWD"})
"""Both must be among the measured currencies, or the score is multiplied by 0.7."""
UNTRAPPED = 0.7


def rendered_top(strip: HeightStrip) -> int:
    """The topmost row of the unbroken run of non-background pixels ending at the anchor
    (the strip's first row when the run fills the strip: a column taller than it)."""
    y = len(strip.pixels) - 1
    while y > 0 and not near(strip.pixels[y - 1], BACKGROUND):
        y -= 1
    return strip.top + y


def _case(screen: C.Screen, seen: VizView, column: Column, strip: HeightStrip) -> bool:
    """The rendered top within `TOP_TOL_PX` of the analytic one and the top face's
    centre in its status colour."""
    n = column.n
    edge = heights.top_edge(screen, column)
    statuses = (seen.records or {}).get("status") or []
    top = TOPS.get(str(statuses[n])) if n < len(statuses) else None
    if edge is None or top is None or edge[0] != strip.sx:
        return False
    row = edge[1] - strip.top
    shown = strip.pixels[row] if 0 <= row < len(strip.pixels) else None
    return (
        abs(rendered_top(strip) - edge[2]) <= TOP_TOL_PX and shown is not None and near(shown, top)
    )


@app_check("t_height_pixels", needs=(BROWSER,))
def t_height_pixels(obs: Observations, _s) -> CheckResult:
    """Passing share of the measured columns (top within ±3 px and the top colour),
    x 0.7 unless JPY and KWD columns were both measured; none measured: 0."""
    seen, row = graded(obs, "t_height_pixels", "context", "heights", truth=True, dead=True)
    if row is not None:
        return row
    run = seen.heights  # type: ignore[union-attr]
    if run is None or not run.strips:
        return result("t_height_pixels", 0.0, "0: no column top measured (no clean top at "
                      "the close pose)")  # fmt: skip
    _basis, columns = truth_scene(obs, seen)  # type: ignore[arg-type]
    screen = C.Screen(columns, C.View(C.Pose(*run.pose), *run.canvas))
    index = {c.id: c.n for c in columns}
    currency = (seen.records or {}).get("currency") or []  # type: ignore[union-attr]
    passed, codes, failed = 0, set(), []
    for strip in run.strips:
        n = index.get(strip.id)
        if n is None:
            failed.append(strip.id)
            continue
        codes.add(currency[n] if n < len(currency) else None)
        if _case(screen, seen, columns[n], strip):  # type: ignore[arg-type]
            passed += 1
        else:
            failed.append(f"{strip.id} (top {rendered_top(strip)})")
    trapped = codes >= TRAPS
    score = passed / len(run.strips) * (1.0 if trapped else UNTRAPPED)
    return result("t_height_pixels", score, f"{g(score)}: {passed}/{len(run.strips)} tops "
                  f"within {TOP_TOL_PX} px in their colour over {sorted(map(str, codes))}"
                  + ("" if trapped else "; JPY and KWD not both measured (x0.7)")
                  + (f"; off: {', '.join(failed[:4])}" if failed else ""))  # fmt: skip
