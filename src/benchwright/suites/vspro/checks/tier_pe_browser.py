"""The browser's P and E rows: time to the first visible row and to the 3D panel's first
frame, the optimistic note paint, and frames drawn under a drag."""

from __future__ import annotations

from typing import Any

from benchwright.model import CheckResult
from benchwright.scoring import ladder_score
from benchwright.suites.kit.browser.rows import missing, shots, view
from benchwright.suites.kit.checks import app_check, g, result, unavailable
from benchwright.suites.vspro.checks import _viz_evidence as ev
from benchwright.suites.vspro.checks._common import CheckSettings
from benchwright.suites.vspro.observations import Observations

DRAG_RUNG_SCORES = (1.0, 0.75, 0.5, 0.25)


@app_check("p_page_interactive", needs=("browser",))
def p_page_interactive(obs: Observations, s: CheckSettings) -> CheckResult:
    """First visible data row: <=2000 (/k_P) / 3000 / 4500 / 8000 ms; none, or a failed
    load scenario, 0 (this row does not refuse on a probe error)."""
    found = obs["browser"]
    if found.unavailable is not None:
        return unavailable("p_page_interactive", f"browser unavailable: {found.unavailable}")
    load = found.retimed.get("load") or found.scenarios.get("load")
    if load is None:
        why = missing(found, "load", "the load scenario did not run")
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
        timing_score=rung.score,
    )


@app_check("e_optimistic_paint", needs=("browser",))
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
        lat = next((r.score for r in s.ladders["e_optimistic_paint"] if note.paint_ms <= r.at_most),
                   0.0)  # fmt: skip
    if note.paint_ms is not None and not note.preexisting:
        ev["timing_score"] = lat
    score = 0.5 + 0.15 * note.saving_seen + 0.15 * lat + 0.2 * note.saved
    paint = "pre-existing draft" if note.preexisting else f"paint {note.paint_ms} ms"
    detail = (f"{g(score)}: painted while held (0.5); saving state "
              f"{'seen' if note.saving_seen else 'missing'} ({g(0.15 * note.saving_seen)}/0.15); "
              f"{paint} (rungs <=100/250/800 ms: {g(0.15 * lat)}/0.15); "
              f"{'saved' if note.saved else 'not saved'} after release "
              f"({g(0.2 * note.saved)}/0.2)")  # fmt: skip
    return result("e_optimistic_paint", score, detail, **ev)


@app_check("p_first_frame", needs=("browser",))
def p_first_frame(obs: Observations, s: CheckSettings) -> CheckResult:
    """First instrumented draw call on #viz3d (page clock): <=3000/5000/8000/15000 ms."""
    v = ev.view(obs, "p_first_frame", "viz", (), timed=True)
    if isinstance(v, CheckResult):
        return v
    if v.context is None:
        return result("p_first_frame", 0.0, "0: no WebGL context on #viz3d ever drew")
    if v.first_draw_ms is None:
        return result("p_first_frame", 0.0, "0: the #viz3d context never issued a draw call")
    rung = ladder_score(round(v.first_draw_ms, 1), s.ladders["p_first_frame"], s.k_p)
    return result("p_first_frame", rung.score, rung.detail.replace("; top <=", "; top rung <="),
                  first_draw_ms=v.first_draw_ms, timing_score=rung.score)  # fmt: skip


@app_check("e_frames_under_drag", needs=("browser",))
def e_frames_under_drag(obs: Observations, s: CheckSettings) -> CheckResult:
    """vsdbg frames over the 60-move drag, counted only up to the #viz3d draw calls in it:
    >= 24/18/12/6 (calibration-owned) -> 1/.75/.5/.25; no draws or no counter: 0."""
    v = ev.view(obs, "e_frames_under_drag", "viz", ("context", "camera"), timed=True)
    if isinstance(v, CheckResult):
        return v
    c = v.camera
    if v.blocked or c is None:
        return result("e_frames_under_drag", 0.0, f"0: no drag: {v.blocked or 'no canvas'}")
    frames = _delta(c.frames_before, c.frames_after)
    draws = c.draws_after - c.draws_before
    if frames is None or frames < 0:
        return result("e_frames_under_drag", 0.0, f"0: frames unmeasurable (vsdbg.frames() "
                      f"{c.frames_before!r} -> {c.frames_after!r})")  # fmt: skip
    if draws <= 0:
        return result("e_frames_under_drag", 0.0, f"0: {frames} frames counted but no draw "
                      "call on #viz3d during the drag (an empty frame loop)")  # fmt: skip
    counted = min(frames, draws)
    rungs = tuple(s.drag_rungs)
    score = next((sc for at, sc in zip(rungs, DRAG_RUNG_SCORES, strict=False)
                  if counted >= at), 0.0)  # fmt: skip
    rung = next((f">={at}" for at in rungs if counted >= at), f"<{rungs[-1]}")
    return result("e_frames_under_drag", score, f"{g(score)}: {counted} frames over the "
                  f"{c.drag_ms:.0f} ms drag (vsdbg {frames}, draw calls {draws}; rung {rung}; "
                  f"top rung >={rungs[0]}; idle frames {c.idle_frames})",
                  frames=counted, timing_score=score)  # fmt: skip


def _delta(a: Any, b: Any) -> int | None:
    ok = all(isinstance(x, int | float) and not isinstance(x, bool) for x in (a, b))
    return int(b - a) if ok else None
