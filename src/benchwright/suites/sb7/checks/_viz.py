"""Shared by the 3D field's rows (tiers T, P and E): the ``viz`` scenario's view or the
row that says why there is none, a section the probe lost, ``vs7dbg``'s answers, and the
scene the grader recomputes from the fixture for the records the page downloaded."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.browser.rows import view
from benchwright.suites.kit.checks import result, unavailable
from benchwright.suites.sb7.checks._common import (
    PROBE,
    commits,
    missing_fixture,
    sync_dead,
    vacuous,
)
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.viz import camera, scene
from benchwright.suites.sb7.viz.aim import front
from benchwright.suites.sb7.viz.view import (
    BACKGROUND,
    SCENARIO,
    TOPS,
    PickProbe,
    PickRun,
    VizView,
)

ROOT = "t_vs7dbg_truth"
"""The root a missing ``window.vs7dbg`` is attributed to (scorers/sb7.yaml roots)."""


def viz(
    obs: Observations, check_id: str, *sections: str, timed: bool = False
) -> tuple[VizView | None, CheckResult | None]:
    """(the view, None), or (None, the row): UNAVAILABLE when there was no browser, the
    scenario failed, or the probe lost one of ``sections``; 0 when ``/`` was no page."""
    seen, row = view(obs, check_id, SCENARIO, timed)
    if row is not None:
        return None, row
    for name in sections:
        if name in seen.lost:
            return None, unavailable(check_id, f"{PROBE}the {name} section was lost: "
                                     f"{seen.lost[name]}")  # fmt: skip
    return seen, None


def graded(
    obs: Observations, check_id: str, *sections: str, timed: bool = False,
    truth: bool = False, dead: bool = False, field: bool = True,
) -> tuple[VizView | None, CheckResult | None]:  # fmt: skip
    """(the view, None), or (None, the row that grades it instead): the fixture's truth
    missing when the row needs it (``truth``), a dead sync when the row is vacuous then
    (``dead``), the view missing or a section lost (`viz`), no WebGL field when the row
    needs one (``field``)."""
    if truth and obs.truth is None:
        return None, missing_fixture(check_id)
    if dead and sync_dead(obs):
        return None, vacuous(check_id)
    seen, row = viz(obs, check_id, *sections, timed=timed)
    if row is None and field:
        row = no_field(check_id, seen)  # type: ignore[arg-type]
    return (None, row) if row is not None else (seen, None)


def no_field(check_id: str, seen: VizView) -> CheckResult | None:
    """The app's 0 when there is no WebGL field to grade (no ``canvas#viz3d`` with a
    context); None when there is one."""
    c = seen.context
    if c is None or not c.found:
        return result(check_id, 0.0, "0: no element #viz3d on the page")
    if not c.canvas:
        return result(check_id, 0.0, "0: #viz3d is not a <canvas>")
    if c.kind is None:
        return result(check_id, 0.0, "0: canvas#viz3d has no WebGL context")
    return None


def vs7(check_id: str, seen: VizView, name: str) -> tuple[Any, CheckResult | None]:
    """(``vs7dbg.<name>()``'s value, None), or (None, the app's 0): vs7dbg absent (a
    required surface, attributed to the root), the method missing or throwing."""
    if seen.vs7dbg is None:
        return None, result(check_id, 0.0, "0: window.vs7dbg is absent (a required surface)",
                            blocked_by=ROOT)  # fmt: skip
    got = seen.vs7dbg.get(name)
    if got is None or got.error is not None:
        why = "is not a function" if got is None or got.error == "missing" else \
            f"threw {got.error!r}"  # fmt: skip
        return None, result(check_id, 0.0, f"0: vs7dbg.{name}() {why}")
    return got.value, None


def known(obs: Observations) -> dict[str, scene.Known]:
    """Payment id -> what the truth knows of it: the fixture's rows, and the payments the
    vendor created during the run (their value day)."""
    found: dict[str, scene.Known] = {c.payment_id: c for c in commits(obs) if c.created}
    found.update(obs.truth.rows if obs.truth is not None else {})
    return found


def truth_scene(obs: Observations, seen: VizView) -> tuple[scene.Basis, tuple[scene.Column, ...]]:
    """The basis and the columns the page should draw: its downloaded records placed by
    the truth (the fixture's rows when it downloaded none)."""
    basis, records = truth_records(obs, seen)
    return basis, scene.place(records, basis)


def truth_records(obs: Observations, seen: VizView) -> tuple[scene.Basis, list[scene.Record]]:
    """The basis and the records `truth_scene` places, in the page's arrival order."""
    assert obs.truth is not None
    served = seen.records
    if served is None:
        rows = obs.truth.rows
        served = {"id": list(rows), **{k: [getattr(r, k) for r in rows.values()]
                                       for k in ("amount_minor", "currency", "created_at",
                                                 "day")}}  # fmt: skip
    records = scene.truth_records(served, known(obs))
    return scene.basis(records, obs.truth.days[0]), records


SIDE = 0.55
CHANNEL = 8
"""Pixels are read with ±8 per channel (spec §8.1)."""


def near(a: Sequence[int], b: Sequence[int]) -> bool:
    return all(abs(x - y) <= CHANNEL for x, y in zip(a, b, strict=True))


_SCREENS: dict[tuple[Any, ...], camera.Screen] = {}
"""The last screens built (one grading's rows share them: building one takes seconds)."""


def screen(obs: Observations, seen: VizView, run: PickRun) -> camera.Screen:
    """The truth's scene under the picks' pose, on the canvas they were taken on."""
    return screen_at(obs, seen, run.pose, run.canvas)


def screen_at(
    obs: Observations, seen: VizView, pose: tuple[float, float, float],
    canvas: tuple[float, float],
) -> camera.Screen:  # fmt: skip
    """The truth's scene under ``pose`` on a canvas of ``canvas`` CSS px."""
    key = (id(obs.truth), id(seen.records), pose, canvas)
    if key not in _SCREENS:
        _basis, columns = truth_scene(obs, seen)
        if len(_SCREENS) >= 8:
            _SCREENS.clear()
        _SCREENS[key] = camera.Screen(columns, camera.View(camera.Pose(*pose), *canvas))
    return _SCREENS[key]


def expected_colour(seen: VizView, hit: camera.Hit | None) -> tuple[int, int, int] | None:
    """The colour the pixel must show (no brush): the status hex on a top, 0.55 of it on a
    side, the background where nothing is hit; None for a status outside the four."""
    if hit is None:
        return BACKGROUND
    statuses = (seen.records or {}).get("status") or []
    status = statuses[hit.column.n] if hit.column.n < len(statuses) else None
    top = TOPS.get(str(status))
    if top is None:
        return None
    return top if hit.face == "top" else tuple(round(SIDE * c) for c in top)  # type: ignore[return-value]


def pixels_agree(obs: Observations, seen: VizView, run: PickRun) -> tuple[int, int]:
    """(points whose visible pixel shows the analytic colour, points read)."""
    read = [(p.sx, p.sy, p.shown) for p in run.points if p.shown is not None]
    return shown_as_projected(seen, screen(obs, seen, run), read)  # type: ignore[arg-type]


def shown_as_projected(
    seen: VizView, at: camera.Screen, read: Sequence[tuple[float, float, Sequence[int]]]
) -> tuple[int, int]:
    """(points whose visible pixel shows the colour ``at`` projects there, points read)."""
    hits = sum(
        (want := expected_colour(seen, front(at, sx, sy))) is not None and near(shown, want)
        for sx, sy, shown in read
    )
    return hits, len(read)


def decoded(pixel: Sequence[int] | None) -> int | str | None:
    """The record index the raw pick bytes name: None for background, ``"bad"`` when
    unreadable."""
    if pixel is None or len(pixel) < 3:
        return "bad"
    id_num = int(pixel[0]) + 256 * int(pixel[1]) + 65536 * int(pixel[2])
    return None if id_num == 0 else id_num - 1


def pick_index(answer: Any) -> int | str | None:
    """The index ``pick()`` answered: None for null, ``"bad"`` when malformed."""
    if answer is None:
        return None
    if isinstance(answer, dict) and isinstance(answer.get("index"), int):
        return answer["index"]
    return "bad"


def agrees(seen: VizView, at: camera.Screen, p: PickProbe) -> bool:
    """pick(), the decoded pickPixel() bytes and the analytic nearest record agree (and
    pick's id is that record's)."""
    hit = front(at, p.sx, p.sy)
    want = None if hit is None else hit.column.n
    index = pick_index(p.pick)
    if index != want or decoded(p.pixel) != want:
        return False
    return want is None or p.pick.get("id") == hit.column.id  # type: ignore[union-attr]
