"""Canned ``viz`` views: what the sb-7 3D probe sees on a field that follows spec §8 over
the canned run's collection (`sb7_observations`), built from the truth's own scene (the
digest, the basis, the picks' analytic answers and pixels). `viz_view` is the truthful
view; tests derive each defect from it with ``replace``. `with_viz` puts a view in a run.
"""

from __future__ import annotations

import functools
import math
from dataclasses import replace
from typing import Any

from sb7_observations import app_state, commits, perfect, truth, viz

from benchwright.probes.browser import ScenarioObservation, ScenarioTimings
from benchwright.suites.kit.browser import BrowserRecord
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.viz import aim, heights, labels, scene
from benchwright.suites.sb7.viz import camera as C
from benchwright.suites.sb7.viz.view import (
    BrushLook,
    BrushRun,
    CameraRun,
    ClickRun,
    CoastFrame,
    CoastRun,
    ContextFacts,
    Counters,
    CreateLeg,
    Drag,
    HeightRun,
    HeightStrip,
    LabelBox,
    LabelRun,
    PickProbe,
    PickRun,
    Release,
    Spot,
    StreamBatch,
    StreamRun,
    VizView,
    Vs7Answer,
    Window,
)

RECORDS = viz(app_state())
SETTLED, PENDING, BG = (5, 150, 105), (217, 119, 6), (16, 24, 40)
TOPS = {"settled": SETTLED, "pending": PENDING, "refunded": (124, 58, 237),
        "failed": (185, 28, 28)}  # fmt: skip
POSE, CANVAS = (30.0, 15.0, 35.0), (1166.0, 440.0)
HEIGHT_POSE = (30.0, 40.0, 35.0)
HOME = {"yaw": 30.0, "pitch": 40.0, "distance": 260.0, "vyaw": 0.0, "vpitch": 0.0}


def scenario() -> ScenarioObservation:
    return ScenarioObservation("viz", "http://127.0.0.1/", 200, None, None, (), (), (), (), 0,
                               (), (), ScenarioTimings(0.1, 0.2, 0.3))  # fmt: skip


def at(t: float, draws: int = 0, frames: int = 0, sse: int = 0) -> Counters:
    """Counters at page time ``t`` (vs7dbg.frames() telling the wrapper's frames)."""
    return Counters(t, draws, 0, 0, 0, 0, frames, sse, float(frames))


def window(t: float, draws: int = 0, frames: int = 0, sse: int = 0, ms: float = 502) -> Window:
    return Window(at(t, 100, 10), at(t + ms, 100 + draws, 10 + frames, sse))


@functools.cache
def records() -> tuple[scene.Record, ...]:
    """The canned collection placed by the truth (the fixture's rows, the run's creates)."""
    known: dict[str, Any] = {c.payment_id: c for c in commits() if c.created}
    known.update(truth().rows)
    return tuple(scene.truth_records(RECORDS, known))


def digest(placed: list[scene.Record] | tuple[scene.Record, ...]) -> dict[str, float]:
    return scene.digest(scene.place(placed, scene.basis(placed, truth().days[0])))


@functools.cache
def rest_digest() -> dict[str, float]:
    """The truthful page's digest at rest (before any streamed change)."""
    return digest(records())


@functools.cache
def screen(pose: tuple[float, float, float] = POSE) -> C.Screen:
    placed = records()
    columns = scene.place(placed, scene.basis(placed, truth().days[0]))
    return C.Screen(columns, C.View(C.Pose(*pose), *CANVAS))


@functools.cache
def points() -> tuple[tuple[int, int], ...]:
    return tuple(aim.aim(screen()))


def identity(n: int | None) -> tuple[int, int, int, int]:
    k = 0 if n is None else n + 1
    return (k & 255, (k >> 8) & 255, (k >> 16) & 255, 255)


def colour(hit: C.Hit | None) -> tuple[int, int, int]:
    if hit is None:
        return BG
    top = TOPS[RECORDS["status"][hit.column.n]]
    return top if hit.face == "top" else tuple(round(0.55 * c) for c in top)  # type: ignore[return-value]


def probe(sx: int, sy: int, answer=lambda hits: hits[0] if hits else None) -> PickProbe:
    """The page's answers at (sx, sy): ``answer`` picks among the ray's hits (the nearest
    for a truthful pick buffer); the visible pixel is always the truth's."""
    hit = answer(screen().hits(sx + 0.5, sy + 0.5))
    n = None if hit is None else hit.column.n
    pick = None if hit is None else {"id": hit.column.id, "index": n}
    return PickProbe(float(sx), float(sy), pick, identity(n), colour(aim.front(screen(), sx, sy)))


def off(off_draws: int = 0, off_reads: int = 0, draws: int = 50) -> Counters:
    return Counters(0.0, draws, off_draws, off_reads, 0, 0, 5, 0)


@functools.cache
def _probes() -> tuple[PickProbe, ...]:
    return tuple(probe(*p) for p in points())


def picks(**changes: Any) -> PickRun:
    run = PickRun(POSE, CANVAS, {**HOME, "pitch": 15.0, "distance": 35.0}, off(),
                  off(2, 1), off(2, 1), off(2, 1), _probes())  # fmt: skip
    return replace(run, **changes)


@functools.cache
def strips() -> tuple[HeightStrip, ...]:
    """The truthful page's strips: every pixel the truth's scene shows."""
    at, placed = screen(HEIGHT_POSE), records()
    found = []
    for n, sx, anchor, top in heights.cases(at, {i: r.currency for i, r in enumerate(placed)}):
        shown = tuple(colour(aim.front(at, sx, y)) for y in range(top, anchor + 1))
        found.append(HeightStrip(placed[n].id, sx, top, anchor, shown))
    return tuple(found)


def heights_run(**changes: Any) -> HeightRun:
    return replace(HeightRun(HEIGHT_POSE, CANVAS, strips()), **changes)


def _anchors(members: set[str]) -> tuple[tuple[int, int, int], ...]:
    """The strips' anchor pixels under a brush: members full, the rest at 0.30."""
    full = [TOPS[RECORDS["status"][RECORDS["id"].index(s.id)]] for s in strips()]
    return tuple(top if not members or s.id in members else tuple(round(0.3 * c) for c in top)
                 for s, top in zip(strips(), full, strict=True))  # type: ignore[misc]  # fmt: skip


def brush_run(**changes: Any) -> BrushRun:
    """A row clicked, a strip's column clicked, the background clicked: as §8.6 says."""
    row = next(i for i in RECORDS["id"] if i not in {s.id for s in strips()})
    target = strips()[0].id
    both = sorted([row, target])
    run = BrushRun(row, BrushLook([row], "1", _anchors({row})), target,
                   BrushLook(both, "2", _anchors(set(both))), {"brushed": "true", "inView": True},
                   BrushLook([], "0", _anchors(set())))  # fmt: skip
    return replace(run, **changes)


FLIP = {"settled": "pending", "pending": "failed", "failed": "settled", "refunded": "settled"}


def message(t: float, pid: str, **changes: Any) -> dict[str, Any]:
    """The stream message of record ``pid`` as served, ``changes`` applied, stamped at t."""
    n = RECORDS["id"].index(pid) if pid in RECORDS["id"] else None
    served = {k: RECORDS[k][n] for k in ("id", "amount_minor", "currency", "status",
                                         "created_at", "day", "version")} if n is not None \
        else {"id": pid}  # fmt: skip
    return {"t": t, "records": [{**served, **changes}]}


def batch(k: int, **changes: Any) -> StreamBatch:
    """Strip ``k``'s column flipped to its next status, as §8.6 says: one 64-byte record
    uploaded, nothing reallocated, the digest unmoved, the top in its new colour, shown
    40 ms after its message arrived."""
    strip = strips()[k]
    status = FLIP[RECORDS["status"][RECORDS["id"].index(strip.id)]]
    t = 10_000.0 + 2_000.0 * k
    same = {**rest_digest(), "brushedCount": 0}
    run = StreamBatch(strip.id, status, strip.sx, strip.anchor,
                      Window(Counters(t, 60, 0, 0, 10**6, 1, 20, 4),
                             Counters(t + 900, 61, 0, 0, 10**6 + 64, 1, 21, 5)),
                      same, same, t + 100, t + 130, t + 140, TOPS[status],
                      (message(t + 100, strip.id, status=status),))  # fmt: skip
    return replace(run, **changes)


def stream_run(*batches: StreamBatch) -> StreamRun:
    """Three changes as §8.6 says (``batches`` instead, when given), then a streamed
    create across which the basis stays put."""
    basis = scene.basis(records(), truth().days[0])
    locked = {"d0": basis.d0, "D0": basis.D0, "R0": basis.R0}
    return StreamRun(HEIGHT_POSE, batches or tuple(batch(k) for k in range(3)),
                     create=CreateLeg("pay_12290", True, locked, dict(locked)))  # fmt: skip


def camera_run(**changes: Any) -> CameraRun:
    grow = 1.1274968515793757  # exp(0.0012 * 100)
    wheel = (HOME, {**HOME, "distance": 260 * grow}, {**HOME, "distance": 260 * grow**2})
    run = CameraRun(CANVAS, 80.0, HOME, {**HOME, "yaw": 6.0}, 100.0, wheel, (0.0, 0.0),
                    {**HOME, "pitch": 85.0}, {**HOME, "distance": 340.0}, (HOME, HOME))  # fmt: skip
    return replace(run, **changes)


def clicks(**changes: Any) -> ClickRun:
    """A target clicked in, out, in again, then the background clicked: as §8.3 says."""
    target = next(p for p in _probes() if p.pick is not None)
    ground = next(p for p in _probes() if p.pick is None)
    pid = target.pick["id"]  # type: ignore[index]
    run = ClickRun((target.sx, target.sy), (ground.sx, ground.sy), ([], [pid], [], [pid], []))
    return replace(run, **changes)


@functools.cache
def columns() -> tuple[scene.Column, ...]:
    placed = records()
    return scene.place(placed, scene.basis(placed, truth().days[0]))


@functools.cache
def label_view() -> C.View:
    """The decisive pose the probe would choose for the canned collection."""
    return C.View(labels.decisive(columns(), *CANVAS), *CANVAS)


def shown_at(cull: labels.Cull, hidden: tuple[str, ...] = ()) -> tuple[LabelBox, ...]:
    """The label elements of a page that shows ``cull``: a 110 x 18 box at each shown
    anchor's offset, and a hidden element for each id of ``hidden``."""
    boxes = tuple(LabelBox(i, x, y, *labels.SIZE, True) for i, (x, y) in cull.shown.items())
    return boxes + tuple(LabelBox(i, 0.0, 0.0, *labels.SIZE, False) for i in hidden)


def label_run(**changes: Any) -> LabelRun:
    """A page that labels as §8.5 says at `label_view`, its pick buffer the truth's ray."""
    view, cols = label_view(), columns()
    index = {c.id: c.n for c in cols}
    picks = {}
    for c in labels.candidates(cols):
        at = labels.anchor(view, c)
        front = labels.picked(view, cols, at) if labels.on_canvas(view, at) else None
        picks[c.id] = (at, None if front is None else {"id": front, "index": index[front]})
    cull = labels.analytic(view, cols)
    hidden = tuple(c.id for c in labels.candidates(cols) if c.id not in cull.shown)
    p = view.pose
    run = LabelRun((p.yaw, p.pitch, p.distance), CANVAS, picks, shown_at(cull, hidden), True)
    return replace(run, **changes)


TAU, V0, UP, FRAME_MS = 0.4, -240.0, 10_000.0, 400.0
"""The canned coast (spec §8.4): a flick to the right (yaw falls) at 800 px/s, frames
0.4 s apart (the host's)."""
START = (100.0, 40.0, 80.0)
GRID = tuple((round((i + 0.5) * CANVAS[0] / 20), round((j + 0.5) * CANVAS[1] / 8))
             for j in range(8) for i in range(20))  # fmt: skip


def cam(yaw: float, vyaw: float = 0.0) -> dict[str, float]:
    return {"yaw": yaw, "pitch": START[1], "distance": START[2], "vyaw": vyaw, "vpitch": 0.0}


@functools.cache
def pixels(yaw: float) -> tuple[tuple[int, int, int], ...]:
    """What a truthful canvas shows at yaw (the canned scene at the coast's pose)."""
    at = screen((yaw, START[1], START[2]))
    return tuple(colour(aim.front(at, sx, sy)) for sx, sy in GRID)


def closed_form(cap_s: float = 2.5) -> tuple[list[CoastFrame], float]:
    """§8.4's coast drawn every `FRAME_MS`: the frames and the rest (the asymptote, reached
    at the first frame whose speed is under 2 deg/s, or at ``cap_s``)."""
    frames, rest = [CoastFrame(UP + 5, cam(START[0], V0))], START[0] + V0 * TAU
    for k in range(1, 20):
        t = k * FRAME_MS / 1000
        v = V0 * math.exp(-t / TAU)
        if abs(v) < 2 or t >= cap_s:
            frames.append(CoastFrame(UP + k * FRAME_MS, cam(rest)))
            break
        yaw = START[0] + V0 * TAU * (1 - math.exp(-t / TAU))
        frames.append(CoastFrame(UP + k * FRAME_MS, cam(yaw, v)))
    return frames, rest


def spots(frames: list[CoastFrame], still: bool = False) -> tuple[Spot, ...]:
    """A spot read after each frame (pixels of that frame, or the release's if ``still``)."""
    return tuple(Spot(f.t + 30, f.camera, pixels(START[0] if still else f.camera["yaw"]))
                 for f in frames)  # fmt: skip


def flick(**changes) -> Release:
    frames, rest = closed_form()
    base = Release(320.0, 400.0, UP, cam(START[0], V0), tuple(frames), True, cam(rest),
                   spots(frames))  # fmt: skip
    return replace(base, **changes)


def slow(drift: float = 0.0) -> Release:
    return Release(1.0, 700.0, UP + 9000, cam(4.0), (), True, cam(4.0 - drift))


def coast_run() -> CoastRun:
    """The closed-form flick and a slow release that does not coast."""
    return CoastRun(CANVAS, GRID, flick(), slow())


def viz_view(**changes: Any) -> VizView:
    """The truthful field's view; ``changes`` replace fields."""
    placed = records()
    basis = scene.basis(placed, truth().days[0])
    grid = (BG,) * 150 + (SETTLED,) * 6 + (PENDING,) * 4
    context = ContextFacts(True, True, "webgl2", {"antialias": False, "alpha": False},
                           CANVAS, (1166, 440), 1.0, 12, grid)  # fmt: skip
    vs7 = {"layout": Vs7Answer({"d0": basis.d0, "D0": basis.D0, "R0": basis.R0}),
           "sceneDigest": Vs7Answer({**rest_digest(), "brushedCount": 0}),
           "camera": Vs7Answer(dict(HOME))}  # fmt: skip
    drag = Drag(40, Window(at(0.0, 12, 3), at(1700.0, 12 + 42, 3 + 42)))
    base = VizView(scenario(), RECORDS, context, vs7, (window(2000), window(2600)), drag,
                   camera_run(), (picks(),), clicks(), heights_run(),
                   brush_run(), label_run(), stream_run(), coast=coast_run())  # fmt: skip
    return replace(base, **changes)


def with_viz(seen: VizView | None = None, obs: Observations | None = None, **record: Any
             ) -> Observations:  # fmt: skip
    """``obs`` (the canned correct run) with the ``viz`` view ``seen`` (the truthful one);
    ``record`` builds the whole browser record instead."""
    found = BrowserRecord(**record) if record else BrowserRecord(None, {"viz": seen or viz_view()})
    return (obs or perfect()).with_phase("browser", found)
