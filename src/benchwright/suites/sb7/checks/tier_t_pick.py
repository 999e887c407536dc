"""Tier T's picking rows (§12): the pick buffer is GPU truth (pick(), the raw pickPixel()
bytes and the analytic nearest column agree, on points built to catch draw-order and
CPU-raycast shortcuts), and it is a real offscreen pass with the documented cost."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.sb7.browser.record import BROWSER
from benchwright.suites.sb7.checks._viz import agrees, graded, screen, vs7
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.viz.aim import KINDS, kinds
from benchwright.suites.sb7.viz.view import PickRun, VizView

REFRESH_DRAWS = 4
"""At most 4 offscreen draws per pick refresh."""


def _run(obs: Observations, check_id: str, **gates: bool) -> tuple[
        VizView | None, PickRun | None, CheckResult | None]:  # fmt: skip
    """(the view, its picks at the graded pose, None), or the row that says why none
    (``gates``: `graded`'s ``truth`` and ``dead``)."""
    seen, row = graded(obs, check_id, "context", "picks", **gates)
    if row is not None:
        return None, None, row
    _value, gone = vs7(check_id, seen, "layout")  # type: ignore[arg-type]
    if seen.vs7dbg is None:  # type: ignore[union-attr]
        return None, None, gone
    if not seen.picks or not seen.picks[0].points:  # type: ignore[union-attr]
        return None, None, result(check_id, 0.0, "0: no graded pick points (no pick pose "
                                  "reached, or no records downloaded)")  # fmt: skip
    return seen, seen.picks[0], None  # type: ignore[union-attr]


@app_check("t_pick_buffer", needs=(BROWSER,))
def t_pick_buffer(obs: Observations, _s) -> CheckResult:
    """0.6 x the fraction of points where pick(), pickPixel() and the analytic nearest
    column agree + 0.4 x the share of the four occlusion constructions with a passing
    point. A dead sync is vacuous."""
    seen, run, row = _run(obs, "t_pick_buffer", truth=True, dead=True)
    if row is not None:
        return row
    at = screen(obs, seen, run)  # type: ignore[arg-type]
    passed: set[str] = set()
    good = 0
    for p in run.points:  # type: ignore[union-attr]
        if agrees(seen, at, p):  # type: ignore[arg-type]
            good += 1
            passed |= kinds(at, p.sx, p.sy)
    n = len(run.points)  # type: ignore[union-attr]
    built = [k for k in KINDS if k in passed]
    score = 0.6 * good / n + 0.4 * len(built) / len(KINDS)
    return result("t_pick_buffer", score, f"{g(score)}: {good}/{n} picks agree three ways; "
                  f"constructions passed: {', '.join(built) or 'none'}")  # fmt: skip


@app_check("t_pick_real_pass", needs=(BROWSER,))
def t_pick_real_pass(obs: Observations, _s) -> CheckResult:
    """min of four binaries over the picks after setCamera (an invalidation): ≥ 1
    offscreen draw and ≥ 1 offscreen readPixels before the first pick answered, ≤ 4
    offscreen draws for the refresh, 0 visible-canvas draws during the picks."""
    _seen, run, row = _run(obs, "t_pick_real_pass")
    if row is not None:
        return row
    refresh = run.first_pick  # type: ignore[union-attr]
    since = run.at_invalidation  # type: ignore[union-attr]
    draws, reads = refresh.off_draws - since.off_draws, refresh.off_reads - since.off_reads
    visible = run.after_picks.default_draws - run.before_picks.default_draws  # type: ignore[union-attr]
    parts = {"an offscreen draw": draws >= 1, "an offscreen readback": reads >= 1,
             f"at most {REFRESH_DRAWS} offscreen draws": draws <= REFRESH_DRAWS,
             "no visible draw during picks": visible == 0}  # fmt: skip
    failed = [name for name, ok in parts.items() if not ok]
    score = 0.0 if failed else 1.0
    return result("t_pick_real_pass", score, f"{g(score)}: {draws} offscreen draws and "
                  f"{reads} offscreen reads before the first pick, {visible} visible draws "
                  f"during the picks" + (f"; failed: {', '.join(failed)}" if failed else ""),
                  )  # fmt: skip
