"""Tier E's optimistic paint (§12 e_optimistic_paint), read from the flow probe's
``paint`` scenario: the edit's write held on the wire, the page read while it is held.

§12 says "the workflow UI"; the frozen spec (§7, §12) promises optimism for the note
edit only, so the note edit is what the probe exercises (docs/sb7.md)."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.scoring.rungs import Rung
from benchwright.suites.kit.browser.rows import shots, view
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.sb7.checks._common import CheckSettings
from benchwright.suites.sb7.observations import Observations

RUNGS = (Rung(100, 1.0), Rung(250, 0.6), Rung(800, 0.3))
"""§12's latency rungs as printed; the thresholds file's calibrated ones win when the
settings carry them."""


@app_check("e_optimistic_paint", needs=("browser",))
def e_optimistic_paint(obs: Observations, s: CheckSettings) -> CheckResult:
    """Painted while held (the causal gate, 0.5) + paint latency (0.25 at <=100 ms, 0.6x
    <=250, 0.3x <=800; none for a value already in the cell) + saved after the release
    (0.25). No Note cell, no editor, or a cell that waits for the network: 0."""
    seen, refused = view(obs, "e_optimistic_paint", "paint")
    if refused:
        return refused
    ev = {"screenshots": shots(seen), "paint_ms": seen.paint_ms, "saving_seen": seen.saving_seen}
    if not seen.cell_found:
        return result("e_optimistic_paint", 0.0, "0: no Note cell", **ev)
    if not seen.editor_opened:
        return result(
            "e_optimistic_paint", 0.0, "0: a click on the Note cell opened no editor", **ev
        )
    if not seen.painted_while_held:
        why = "the write was not held at +250 ms" if not seen.held_pending \
            else "the cell waited for the network"  # fmt: skip
        return result("e_optimistic_paint", 0.0, f"0: not painted while held ({why})", **ev)
    rungs = s.ladders.get("e_optimistic_paint", RUNGS)
    latency = 0.0
    if seen.paint_ms is not None and not seen.preexisting:
        latency = next((r.score for r in rungs if seen.paint_ms <= r.at_most), 0.0)
        ev["timing_score"] = latency
    score = 0.5 + 0.25 * latency + 0.25 * seen.saved
    paint = "value already in the cell" if seen.preexisting else f"paint {seen.paint_ms} ms"
    detail = (f"{g(score)}: painted while held (0.5); {paint} ({g(0.25 * latency)}/0.25); "
              f"{'saved' if seen.saved else f'not saved (state {seen.saved_state!r})'} after "
              f"the release ({g(0.25 * seen.saved)}/0.25); saving state "
              f"{'seen' if seen.saving_seen else 'not seen'} while held")  # fmt: skip
    return result("e_optimistic_paint", score, detail, **ev)
