"""Tier T's click row (§12, spec §8.3): a real click on a record toggles it into the
brush, the same click toggles it out, and a click on the background empties the brush."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.sb7.browser.record import BROWSER
from benchwright.suites.sb7.checks._viz import graded, screen
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.viz.aim import front


@app_check("t_click_semantics", needs=(BROWSER,))
def t_click_semantics(obs: Observations, _s) -> CheckResult:
    """1/3 each: the click toggled the clicked record in, the same click toggled it out,
    a background click emptied the brush. Never exercised: 0; a dead sync is vacuous."""
    seen, row = graded(obs, "t_click_semantics", "context", "picks", "clicks", truth=True,
                       dead=True)  # fmt: skip
    if row is not None:
        return row
    clicks = seen.clicks  # type: ignore[union-attr]
    if clicks is None or not seen.picks:  # type: ignore[union-attr]
        return result("t_click_semantics", 0.0, "0: click semantics never exercised (no "
                      "record answered a pick)")  # fmt: skip
    hit = front(screen(obs, seen, seen.picks[0]), *clicks.target)  # type: ignore[arg-type,union-attr]
    want = None if hit is None else hit.column.id
    b = list(clicks.brush) + [None] * (5 - len(clicks.brush))
    parts = {
        "toggle in": want is not None and b[1] == [want],
        "toggle out": want is not None and b[1] == [want] and b[2] == [],
        "background clears": clicks.background is not None and b[3] == [want] and b[4] == [],
    }
    failed = [k for k, ok in parts.items() if not ok]
    score = (3 - len(failed)) / 3
    return result("t_click_semantics", score, f"{g(score)}: clicked {want} at "
                  f"{clicks.target}; brush() read {list(clicks.brush)}"
                  + (f"; failed: {', '.join(failed)}" if failed else ""))  # fmt: skip
