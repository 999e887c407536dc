"""The browser's P and E rows: time to first visible row, and the optimistic note paint."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.scoring import ladder_score
from benchwright.suites.vspro.checks._browser import shots, view
from benchwright.suites.vspro.checks._common import CheckSettings, g, result, unavailable
from benchwright.suites.vspro.checks._registry import vspro_check
from benchwright.suites.vspro.observations import Observations

PAINT_RUNGS = ((100, 1.0), (250, 0.6), (800, 0.3))


@vspro_check("p_page_interactive", needs=("browser",))
def p_page_interactive(obs: Observations, s: CheckSettings) -> CheckResult:
    """First visible data row: <=2000 (/k_P) / 3000 / 4500 / 8000 ms; none, or a failed
    load scenario, 0 (this row does not refuse on a probe error)."""
    found = obs["browser"]
    if found.unavailable is not None:
        return unavailable("p_page_interactive", f"browser unavailable: {found.unavailable}")
    load = found.scenarios.get("load")
    if load is None:
        why = found.scenario_errors.get("load", "the load scenario did not run")
        return result("p_page_interactive", 0.0, f"0: no first-row stamp ({why})")
    ms = load.first_row_ms
    if ms is None:
        return result("p_page_interactive", 0.0, "0: no visible data row within the poll window")
    rung = ladder_score(round(ms, 1), s.ladders["p_page_interactive"], s.k_p)
    detail = f"{g(rung.score)}: first visible row {rung.detail.split(': ', 1)[1]}"
    return result(
        "p_page_interactive",
        rung.score,
        detail.replace("; top <=", "; top rung <="),
        first_row_ms=ms,
        screenshots=shots(load),
    )


@vspro_check("e_optimistic_paint", needs=("browser",))
def e_optimistic_paint(obs: Observations, s: CheckSettings) -> CheckResult:
    """Note POST held 800 ms: painted while held (gate, 0.5) + a saving indicator (0.15) +
    paint <=100 ms (0.15; 0.6x <=250, 0.3x <=800) + saved after release (0.2)."""
    note, refused = view(obs, "e_optimistic_paint", "note")
    if refused:
        return refused
    ev = {
        "screenshots": shots(note),
        "paint_ms": note.paint_ms,
        "conflict_reverted": note.conflict_reverted,
        "conflict_notice": note.conflict_notice,
    }
    if not note.cell_found:
        return result("e_optimistic_paint", 0.0, "0: no Note cell", **ev)
    if not (note.editor_opened and note.committed):
        return result("e_optimistic_paint", 0.0, "0: the Note cell opened no editor", **ev)
    if not note.painted_while_held:
        why = "the write was not held at +250 ms" if not note.held_pending else \
            "the cell waited for the network"  # fmt: skip
        return result("e_optimistic_paint", 0.0, f"0: not painted while held ({why})", **ev)
    lat = 0.0
    if note.paint_ms is not None and not note.preexisting:
        lat = next((sc for at, sc in PAINT_RUNGS if note.paint_ms <= at), 0.0)
    score = 0.5 + 0.15 * note.saving_seen + 0.15 * lat + 0.2 * note.saved
    paint = "pre-existing draft" if note.preexisting else f"paint {note.paint_ms} ms"
    detail = (f"{g(score)}: painted while held (0.5); saving state "
              f"{'seen' if note.saving_seen else 'missing'} ({g(0.15 * note.saving_seen)}/0.15); "
              f"{paint} (rungs <=100/250/800 ms: {g(0.15 * lat)}/0.15); "
              f"{'saved' if note.saved else 'not saved'} after release "
              f"({g(0.2 * note.saved)}/0.2)")  # fmt: skip
    return result("e_optimistic_paint", score, detail, **ev)
