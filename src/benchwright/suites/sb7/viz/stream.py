"""The ``viz`` scenario's stream section (§8.6 "The stream"): vendor changes committed one at
a time while the page rests at the heights' pose, each read from the page's side.

The targets are columns the heights section measured (clean tops at a close pose, so the
top-face centre is a known pixel), drawn by the run's seed among payments no earlier commit
touched. A last batch changes a record the probe brushed first (a click on its top), and
the brush read after it is what DECISIONS D1 is held to. Each change is a status flip
committed through the vendor mock's control plane,
whose signed webhook ledgerd applies and streams to the page over ``/api/stream``; the
wrapper (`_js.INIT`) stamps the message's receipt and the first frame that shows the new top
colour, and accounts every buffer byte uploaded between the commit and the page's next rest.
The vendor's ledgers are cut at the final mark, so nothing committed here reaches part one's
rows. It observes; the checks judge.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from benchwright.suites.kit.browser.reads import Lost, PageReads, Stop
from benchwright.suites.sb7.viz import _js as JS
from benchwright.suites.sb7.viz.view import (
    TOPS,
    Counters,
    CreateLeg,
    HeightRun,
    HeightStrip,
    StreamBatch,
    StreamRun,
    Window,
)

if TYPE_CHECKING:
    from benchwright.probes.browser import Scenario

SECTION = "stream"
BATCHES = 3
"""Changes committed, one at a time, before the D1 batch (a fourth, on a brushed record)."""
BRUSH_S = 3.0
"""Bound on a field click's toggle showing in ``vs7dbg.brush()``."""
STATUSES = {k: v for k, v in TOPS.items() if k != "refunded"}
"""The statuses a change flips between, with their frozen top hexes (never ``refunded``:
a refund is a reversal too, not a status flip)."""
APPLY_S = 8.0
"""Bound on one change reaching the page and showing (delivery, ledgerd, the stream, the
frame): past it the batch never applied."""
REST_S = 4.0
"""Bound on the page resting again after a batch (the window's end)."""

Ground = Callable[[PageReads, "Scenario"], tuple[float, float]]


def observe_stream(
    run: PageReads, sc: Scenario, ctx: Any, parts: dict[str, Any], ground: Ground
) -> None:
    """The stream section: ``parts["stream"]`` (a `StreamRun`), or nothing when there is
    no vendor to commit through (a page probed outside a grading) or no measured column to
    watch: its rows are then UNAVAILABLE (the probe could not construct the measurement,
    never the app's 0)."""
    with run.section(SECTION):
        mock = getattr(ctx, "mock", None)
        at: HeightRun | None = parts.get("heights")
        chosen = targets(mock, at, parts.get("records")) if mock is not None else []
        if at is None or not chosen:
            raise Stop
        parts["stream"] = _stream(run, sc, mock, at, chosen, ground)


def targets(
    mock: Any, at: HeightRun | None, records: Mapping[str, Any] | None
) -> list[tuple[HeightStrip, str]]:
    """Up to `BATCHES` + 1 measured columns drawn by the seed, payments no commit touched first
    (a re-timed scenario finds its first run's flips touched and takes others while there
    are), never the forged event's; each with a new status unlike its served one."""
    if at is None or not records:
        return []
    served = dict(zip(records.get("id") or [], records.get("status") or [], strict=False))
    touched = {c.payment_id for c in mock.commit_ledger().commits}
    pool = [s for s in at.strips if s.id != mock.schedule.forged.payment_id
            and served.get(s.id) in STATUSES]  # fmt: skip
    rng = random.Random(mock.seed)
    rng.shuffle(pool)
    pool.sort(key=lambda s: s.id in touched)  # stable: the seed's order within each group
    pool = pool[: BATCHES + 1]
    return [(s, rng.choice([k for k in STATUSES if k != served[s.id]])) for s in pool]


def _stream(
    run: PageReads,
    sc: Scenario,
    mock: Any,
    at: HeightRun,
    chosen: list[tuple[HeightStrip, str]],
    ground: Ground,
) -> StreamRun:
    """Empty the brush (its dim is not the stream's colour), set the pose, then commit and
    await each change; the last on a record brushed first, when there is one left; then a
    vendor-side create, the layout basis read around it."""
    if run.js(JS.BRUSH).get("brush"):
        sc.page.mouse.click(*ground(run, sc))
        run.wait(200)
    if run.js(JS.INVALIDATE, list(at.pose)) is None:
        raise Lost("vs7dbg.setCamera is missing: no pose to watch a column at")
    run.poll(JS.SETTLE, timeout_s=REST_S)
    batches: list[StreamBatch] = []
    for strip, status in chosen[:BATCHES]:
        batches.append(_batch(run, mock, strip, status, batches))
    brushed, kept = None, None
    if len(chosen) > BATCHES and _brush(run, sc, chosen[BATCHES][0]):
        strip, status = chosen[BATCHES]
        batches.append(_batch(run, mock, strip, status, batches))
        brushed, kept = strip.id, bool(run.js(JS.BRUSHED, strip.id) or False)
    return StreamRun(at.pose, tuple(batches), brushed, kept, _create(run, mock))


def _create(run: PageReads, mock: Any) -> CreateLeg:
    """Create a payment at the vendor and read ``vs7dbg.layout()`` before, and once a stream
    message carried it and the field rested (bounded). The key counts the vendor's creates
    so far: a re-timed scenario creates a payment of its own."""
    before = _layout(run)
    made = mock.commit_create(f"sb7-viz-probe-{len(mock.commit_ledger().creates)}")
    received = run.poll(JS.CARRIED, made, timeout_s=APPLY_S) is not None
    run.poll(JS.SETTLE, timeout_s=REST_S)
    return CreateLeg(made, received, before, _layout(run))


def _layout(run: PageReads) -> Any:
    """``vs7dbg.layout()``'s value (None: no answer)."""
    answer = (run.js(JS.VS7DBG, ["layout"]) or {}).get("layout") or {}
    return answer.get("value") if answer.get("ok") else None


def _brush(run: PageReads, sc: Scenario, strip: HeightStrip) -> bool:
    """Click ``strip``'s top in the field and await its record in the brush (bounded; the
    table's move to it may scroll the page: the pixel reads are the canvas's own)."""
    sc.page.mouse.click(*run.js(JS.AT, [strip.sx, strip.anchor]))
    if run.poll(JS.BRUSHED, strip.id, timeout_s=BRUSH_S) is None:
        return False
    run.poll(JS.SETTLE, timeout_s=REST_S)
    return True


def _batch(
    run: PageReads, mock: Any, strip: HeightStrip, status: str, before: list[StreamBatch]
) -> StreamBatch:
    """Commit ``strip``'s record's flip to ``status`` and read the page until it rests again
    (the window opens where the previous batch's closed)."""
    since = before[-1].window.end.t if before else 0.0
    opened = run.js(JS.STREAM_ARM, [strip.id, strip.sx, strip.anchor, STATUSES[status], since])
    start = Counters.of(opened["start"])
    mock.commit_mutation(strip.id, status=status)
    run.poll(JS.STREAM_APPLIED, timeout_s=APPLY_S)
    run.poll(JS.SETTLE, timeout_s=REST_S)
    closed = run.js(JS.STREAM_CLOSE, start.t)
    pixel = closed.get("pixel")
    return StreamBatch(strip.id, status, strip.sx, strip.anchor,
                       Window(start, Counters.of(closed["end"])), opened.get("digest"),
                       closed.get("digest"), closed.get("received"), closed.get("frame"),
                       closed.get("applied"),
                       tuple(int(c) for c in pixel[:3]) if pixel else None,  # type: ignore[arg-type]
                       tuple(closed.get("messages") or ()),
                       tuple(opened.get("earlier") or ()))  # fmt: skip
