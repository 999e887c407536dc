"""The stream section in a real Chromium against a defective page: a field that answers
every stream message by uploading its whole instance array again (``bufferData``, 12,288
records x 64 bytes). Its changes show, fast, and its digest is right, yet t_stream_diff
loses the byte budget (0.35) and the no-reallocation part (0.15): 0.5, whether the page
reads the stream with ``EventSource`` or with ``fetch`` and its own parser; its basis,
recounted from what streamed in, moves across the section's streamed create. The golden's pass
is read from the session's one grading (test_sb7_perf_golden)."""

from __future__ import annotations

import asyncio
import json
import queue
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from sb7_observations import perfect, row
from sb7_viz_pages import COLUMNS, FLAT, TRUTH
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Route

from benchwright.probes.browser import BrowserSession, Instrumentation, browser_available
from benchwright.services._server import BackgroundServer
from benchwright.suites.kit.browser import BrowserRecord
from benchwright.suites.kit.browser.nav import open_page
from benchwright.suites.kit.browser.reads import PageReads
from benchwright.suites.sb7.viz import _js as JS
from benchwright.suites.sb7.viz.stream import observe_stream
from benchwright.suites.sb7.viz.view import ContextFacts, HeightRun, HeightStrip, VizView

NO_BROWSER = browser_available()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(NO_BROWSER is not None, reason="no Chromium")]

PAGE = r"""<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0">
<canvas id="viz3d" style="width:400px;height:200px;display:block"></canvas>
<script>
const TOP = { settled: [5, 150, 105], pending: [217, 119, 6], failed: [185, 28, 28] };
const N = 12288, STRIDE = 64;
__FLAT__
gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 3, -1, -1, 3]), gl.STATIC_DRAW);
gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
const instances = gl.createBuffer(), mirror = new Uint8Array(N * STRIDE);
const colour = gl.getUniformLocation(pr, "c");
const status = {};
let frames = 0, shown = null;
function draw() {
  frames += 1;
  const c = TOP[status[shown]] || [16, 24, 40];
  gl.uniform3f(colour, c[0] / 255, c[1] / 255, c[2] / 255);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
}
function onData(data) {
  for (const rec of JSON.parse(data).records) { status[rec.id] = rec.status; shown = rec.id; }
  gl.bindBuffer(gl.ARRAY_BUFFER, instances);
  gl.bufferData(gl.ARRAY_BUFFER, mirror, gl.DYNAMIC_DRAW);  // the whole array, every message
  draw();
}
__READER__
const digest = { count: 30, Sh: 1, Sh2: 1, Sx: 1, Sz: 1, Sxh: 1, Szh: 1, brushedCount: 0 };
window.vs7dbg = { setCamera: () => draw(), sceneDigest: () => digest, brush: () => [],
  frames: () => frames,  // and a basis recounted from what streamed in: it moves
  layout: () => ({ d0: "2026-01-05", D0: 96, R0: Object.keys(status).length }) };
draw();
</script></body></html>""".replace("__FLAT__", FLAT)
READERS = {
    "eventsource": """new EventSource("api/stream").onmessage = (event) => onData(event.data);""",
    # the spec says SSE, not EventSource: a page may read the stream with its own parser
    "fetch": r"""(async () => {
  const reader = (await fetch("api/stream")).body.getReader(), text = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += text.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut); buffer = buffer.slice(cut + 2);
      const data = block.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6));
      if (data.length) onData(data.join("\n"));
    }
  }
})();""",
}

IDS = COLUMNS["id"][:3]


class Vendor:
    """The mock's control plane as the stream section uses it: each commit is one stream
    message on the page's ``/api/stream``."""

    seed = 0
    schedule = SimpleNamespace(forged=SimpleNamespace(payment_id="pay_none"))

    def __init__(self) -> None:
        self.outbox: queue.Queue[str] = queue.Queue()
        self.batch = 0

    def commit_ledger(self) -> SimpleNamespace:
        return SimpleNamespace(commits=[], creates=[])

    def commit_create(self, key: str) -> str:
        """A payment the page has never seen, streamed as one more message."""
        made = {**{k: COLUMNS[k][0] for k in COLUMNS if k != "count"}, "id": "pay_new"}
        self.outbox.put(json.dumps({"batch": self.batch + 1, "records": [made]}))
        return "pay_new"

    def commit_mutation(self, payment_id: str, *, status: str) -> None:
        n = COLUMNS["id"].index(payment_id)
        served = {k: COLUMNS[k][n] for k in COLUMNS if k != "count"}
        self.batch += 1
        message = {"batch": self.batch, "records": [{**served, "status": status}]}
        self.outbox.put(json.dumps(message))


def _app(vendor: Vendor, reader: str) -> Starlette:
    async def page(_request: Request) -> Response:
        return HTMLResponse(PAGE.replace("__READER__", READERS[reader]))

    async def stream(request: Request) -> Response:
        async def events() -> AsyncIterator[str]:
            yield ": open\n\n"
            for _ in range(3000):  # bounded: 60 s
                if await request.is_disconnected():
                    return
                try:
                    yield f"data: {vendor.outbox.get_nowait()}\n\n"
                except queue.Empty:
                    await asyncio.sleep(0.02)

        return StreamingResponse(events(), media_type="text/event-stream")

    return Starlette(routes=[Route("/", page), Route("/api/stream", stream)])


def _no_ground(*_args: object) -> tuple[float, float]:
    raise AssertionError("the page's brush is empty: nothing to click away")


@pytest.mark.parametrize("reader", ["eventsource", "fetch"])
def test_a_page_that_reuploads_everything_per_message_loses_bytes_and_reallocs(
    tmp_path: Path, reader: str
) -> None:
    """With either reader the tap stamps each message before the page handles it (a
    ``fetch`` reader is no "the live stream never landed")."""
    vendor = Vendor()
    strips = tuple(HeightStrip(pid, 200, 0, 100, ()) for pid in IDS)
    parts = {"heights": HeightRun((30.0, 40.0, 35.0), (400.0, 200.0), strips), "records": COLUMNS}
    with (
        BackgroundServer(_app(vendor, reader)) as server,
        BrowserSession(artifacts=tmp_path) as browser,
        browser.lane() as lane,
        lane.scenario("viz", Instrumentation(), artifacts=tmp_path) as sc,
    ):
        sc.context.add_init_script(script=JS.INIT)
        open_page(sc, server.base_url + "/")
        run = PageReads(sc)
        run.poll(JS.SETTLE, timeout_s=10)
        observe_stream(run, sc, SimpleNamespace(mock=vendor), parts, _no_ground)
    assert run.lost == {}
    seen = VizView(sc.observation, COLUMNS, ContextFacts(True, True, "webgl"),
                   stream=parts["stream"])  # fmt: skip
    batches = seen.stream.batches  # type: ignore[union-attr]
    assert [b.id for b in batches] and all(b.apply_ms is not None for b in batches)
    obs = replace(perfect(), truth=TRUTH).with_phase("browser", BrowserRecord(None, {"viz": seen}))
    got = row(obs, "t_stream_diff")
    assert got.score == pytest.approx(0.5), got.detail
    assert all(n >= 12288 * 64 for n in got.evidence["bytes"])
    assert got.evidence["parts"] == {"bytes": 0.0, "reallocs": 0.0, "digest": 1.0, "pixel": 1.0}
    create = seen.stream.create  # type: ignore[union-attr]
    assert create is not None and create.received and create.id == "pay_new"
    assert (create.before["R0"], create.after["R0"]) == (3, 4)  # moved: t_layout_basis capped
