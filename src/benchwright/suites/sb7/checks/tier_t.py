"""Tier T (the 3D field, §12), its foundation: a real drawing WebGL surface, the layout
basis, the scene's binding to the data, and the draw budget. Each reads the ``viz``
scenario (`suites/sb7/viz`), and the scene it grades against is recomputed from the
fixture (`viz.scene`), never taken from the app."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.browser.rows import shots
from benchwright.suites.kit.checks import app_check, g, is_int, result
from benchwright.suites.sb7.browser.record import BROWSER
from benchwright.suites.sb7.checks._viz import graded, truth_scene, vs7
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.viz import scene
from benchwright.suites.sb7.viz.view import BACKGROUND, ContextFacts, VizView

CHANNEL = 8
"""Pixels are read with ±8 per channel (spec §8.1)."""
PINNED = {"antialias": False, "alpha": False}
"""The context-creation attributes §8.2 pins."""
MOVES = 40
"""M: the budget drag's pointer moves."""
PER_FRAME = 8
"""At most 8 default-framebuffer draws per frame."""


@app_check("t_context_real", needs=(BROWSER,))
def t_context_real(obs: Observations, _s) -> CheckResult:
    """0.25 a WebGL context on canvas#viz3d + 0.15 created {antialias: false, alpha: false}
    + 0.20 backing store = CSS size x DPR + 0.15 at least one default-framebuffer draw +
    0.25 a blind grid with ≥ 3 non-background samples in ≥ 2 distinct colours."""
    seen, row = graded(obs, "t_context_real", "context")
    if row is not None:  # a div, an image, an unused canvas: no part can be earned
        return row
    c: ContextFacts = seen.context  # type: ignore[assignment,union-attr]
    parts = {
        "context": (0.25, True),
        "attributes": (0.15, all(c.asked.get(k) is v for k, v in PINNED.items())),
        "backing store": (0.20, _backing_ok(c)),
        "draws": (0.15, c.draws >= 1),
        "coverage": (0.25, _covered(c.samples)),
    }
    score = sum(w for w, ok in parts.values() if ok)
    failed = [name for name, (_w, ok) in parts.items() if not ok]
    return result("t_context_real", score, f"{g(score)}: {c.kind} context asked "
                  f"{dict(c.asked)}, backing {c.backing[0]}x{c.backing[1]} for CSS "
                  f"{c.css[0]:g}x{c.css[1]:g} at DPR {c.dpr:g}, {c.draws} draws"
                  + (f"; failed: {', '.join(failed)}" if failed else ""))  # fmt: skip


def _backing_ok(c: ContextFacts) -> bool:
    want = (round(c.css[0] * c.dpr), round(c.css[1] * c.dpr))
    return all(abs(have - w) <= 1 for have, w in zip(c.backing, want, strict=True))


def _near(a: Sequence[int], b: Sequence[int]) -> bool:
    return all(abs(x - y) <= CHANNEL for x, y in zip(a, b, strict=True))


def _covered(samples: Sequence[tuple[int, int, int]]) -> bool:
    """≥ 3 samples off the background, in ≥ 2 colours that differ beyond ±8."""
    drawn = [s for s in samples if not _near(s, BACKGROUND)]
    colours: list[tuple[int, int, int]] = []
    for s in drawn:
        if not any(_near(s, c) for c in colours):
            colours.append(s)
    return len(drawn) >= 3 and len(colours) >= 2


@app_check("t_layout_basis", needs=(BROWSER,))
def t_layout_basis(obs: Observations, _s) -> CheckResult:
    """1/3 per exact cell of vs7dbg.layout() against the fixture's basis (d0, D0 = 96, R0
    the fullest day at load); a basis that moved after the stream section's vendor-side
    create caps the row at 0.25."""
    seen, row = graded(obs, "t_layout_basis", "vs7dbg", truth=True, field=False)
    if row is not None:
        return row
    found, row = vs7("t_layout_basis", seen, "layout")  # type: ignore[arg-type]
    if row is not None:
        return row
    want, _columns = truth_scene(obs, seen)  # type: ignore[arg-type]
    found = found if isinstance(found, dict) else {}
    cells = {"d0": want.d0, "D0": want.D0, "R0": want.R0}
    hits = [k for k, v in cells.items() if found.get(k) == v and (k == "d0" or is_int(found[k]))]
    score = len(hits) / len(cells)
    leg, moved = _after_create(seen.stream, tuple(cells))  # type: ignore[union-attr]
    score = min(score, MOVED_CAP) if moved else score
    return result("t_layout_basis", score, f"{g(score)}: layout() {found!r}, the fixture's "
                  f"basis {cells}; {leg}", basis_moved=moved)  # fmt: skip


MOVED_CAP = 0.25
"""§12: a basis that moved after a streamed create caps t_layout_basis (the spec pins it at
load because the vendor value-dates creates into the span)."""


def _after_create(stream: Any, cells: tuple[str, ...]) -> tuple[str, bool]:
    """(what the streamed-create leg saw, whether the basis moved across it)."""
    leg = getattr(stream, "create", None)
    if leg is None or not leg.received:
        why = "no create was committed" if leg is None else f"{leg.id} never reached the page"
        return f"the streamed-create leg unmeasured ({why})", False
    before, after = _cells(leg.before, cells), _cells(leg.after, cells)
    if before == after:
        return f"unchanged after the streamed create of {leg.id}", False
    return f"moved after the streamed create of {leg.id}: {before} -> {after} (capped)", True


def _cells(layout: Any, cells: tuple[str, ...]) -> Any:
    """The basis cells of a ``layout()`` answer (anything else as it is)."""
    return {k: layout.get(k) for k in cells} if isinstance(layout, dict) else layout


@app_check("t_scene_binding", needs=(BROWSER,))
def t_scene_binding(obs: Observations, _s) -> CheckResult:
    """All 7 moments of vs7dbg.sceneDigest() within max(0.5, 1e-4·|expected|) of the
    recomputation: 1; otherwise 0.5 x the matching fraction. A dead sync is vacuous."""
    seen, row = graded(obs, "t_scene_binding", "vs7dbg", truth=True, dead=True, field=False)
    if row is not None:
        return row
    _found, row = vs7("t_scene_binding", seen, "sceneDigest")  # type: ignore[arg-type]
    if row is not None:
        return row
    want, off = digest_off(obs, seen)  # type: ignore[arg-type]
    matched = len(want) - len(off)
    score = 1.0 if not off else 0.5 * matched / len(want)
    return result("t_scene_binding", score, f"{g(score)}: {matched}/{len(want)} digest "
                  f"moments match" + (f"; off: {off} against {want}" if off else ""),
                  screenshots=shots(seen, "viz-field"))  # fmt: skip


def digest_off(obs: Observations, seen: VizView) -> tuple[dict[str, float], dict[str, Any]]:
    """(the recomputed moments, moment -> what sceneDigest() said for each one out of
    tolerance); every moment is off when there is no digest to read."""
    _basis, columns = truth_scene(obs, seen)
    want = scene.digest(columns)
    got = (seen.vs7dbg or {}).get("sceneDigest")
    found = got.value if got is not None and isinstance(got.value, dict) else {}
    return want, {k: found.get(k) for k, v in want.items() if not _within(found.get(k), v)}


def _within(value: object, expected: float) -> bool:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return number and abs(value - expected) <= scene.tolerance(expected)  # type: ignore[operator]


@app_check("t_draw_budget", needs=(BROWSER,))
def t_draw_budget(obs: Observations, _s) -> CheckResult:
    """Over the 40-move drag (first move -> pointerup + one frame): at least one draw and
    default-framebuffer draws ≤ 8·max(frames, 1) and ≤ 8·(40 + 8): 1; over: 0.25; none: 0."""
    seen, row = graded(obs, "t_draw_budget", "context", "drag")
    if row is not None:
        return row
    drag = seen.drag  # type: ignore[union-attr]
    if drag is None:
        return result("t_draw_budget", 0.0, "0: the canvas could not be dragged")
    draws, frames = drag.window.draws, drag.window.frames
    limit = min(PER_FRAME * max(frames, 1), PER_FRAME * (MOVES + 8))
    score = 0.0 if draws <= 0 else 1.0 if draws <= limit else 0.25
    return result("t_draw_budget", score, f"{g(score)}: {draws} default-framebuffer draws "
                  f"over {frames} frames of the {drag.moves}-move drag, limit {limit}")  # fmt: skip
