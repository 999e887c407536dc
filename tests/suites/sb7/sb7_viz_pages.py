"""Small pages for the 3D probe's tests, served on 127.0.0.1: one honest field (a raw
WebGL canvas that draws on demand, one draw per frame, with a vs7dbg that computes the
digest from the records it downloaded as §8.1 says) and the hostile variants of it the
rows must catch. Each page is served at ``/<name>/`` with its records at
``/<name>/api/viz/records``; the records' truth is `TRUTH`."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from benchwright.suites.sb7.observations import LoadRow, Truth

D0 = date(2026, 3, 1)
BERLIN = ZoneInfo("Europe/Berlin")
CURRENCIES = ("EUR", "JPY", "KWD", "USD")


def _records() -> list[dict]:
    """30 payments over 5 days, ordered by instant then id; two of them just after a Berlin
    midnight, so that their UTC date is the day before their Berlin day."""
    out = []
    for i in range(30):
        at = datetime(2026, 3, 1 + i % 5, 8 + i % 7, i, tzinfo=BERLIN)
        if i in (3, 17):
            at = datetime(2026, 3, 1 + i % 5, 0, 30 + i, tzinfo=BERLIN)
        out.append({"id": f"pay_{i:05d}", "amount_minor": 1000 * (i + 1) ** 2,
                    "currency": CURRENCIES[i % 4], "status": "settled", "version": 1,
                    "created_at": at.astimezone(ZoneInfo("UTC")).isoformat().replace(
                        "+00:00", "Z"), "day": at.date().isoformat()})  # fmt: skip
    out.sort(key=lambda r: (r["created_at"], r["id"]))
    return out


RECORDS = _records()
TRUTH = Truth(
    {r["id"]: LoadRow(1, r["amount_minor"], r["currency"], "settled", r["created_at"], r["day"])
     for r in RECORDS},
    tuple((D0 + timedelta(days=i)).isoformat() for i in range(96)), "2026-03-29",
)  # fmt: skip
COLUMNS = {"count": len(RECORDS), **{k: [r[k] for r in RECORDS] for k in RECORDS[0]}}

FLAT = r"""const cv = document.getElementById("viz3d");
cv.width = cv.clientWidth * devicePixelRatio; cv.height = cv.clientHeight * devicePixelRatio;
const gl = cv.getContext("webgl", { antialias: false, alpha: false });
const shader = (type, src) => { const s = gl.createShader(type); gl.shaderSource(s, src);
  gl.compileShader(s); return s; };
const pr = gl.createProgram();
gl.attachShader(pr, shader(gl.VERTEX_SHADER,
  "attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"));
gl.attachShader(pr, shader(gl.FRAGMENT_SHADER,
  "precision mediump float; uniform vec3 c; void main() { gl_FragColor = vec4(c, 1.0); }"));
gl.linkProgram(pr); gl.useProgram(pr);
"""
"""A WebGL context on ``canvas#viz3d`` (its CSS box x DPR, antialias and alpha off) with
a program drawing 2D triangles (attribute 0) in one uniform colour ``c``."""

FIELD = r"""<!doctype html><html><head><meta charset="utf-8"></head>
<body style="margin:0;background:#fff"><h1>Field</h1>
<canvas id="viz3d" style="width:600px;height:300px;display:block"></canvas>
<script>
const F = __FLAGS__;
const EXP = { EUR: 2, USD: 2, JPY: 0, KWD: 3 };
__FLAT__
gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-0.9, -0.9, 0.0, -0.9, -0.9, 0.8,
  0.1, -0.8, 0.9, -0.8, 0.1, 0.9]), gl.STATIC_DRAW);
gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
const colour = gl.getUniformLocation(pr, "c");
let frames = 0, queued = false, layout = null, digest = null, cols = [];
function draw() {
  queued = false; frames += 1;
  gl.clearColor(16 / 255, 24 / 255, 40 / 255, 1); gl.clear(gl.COLOR_BUFFER_BIT);
  gl.uniform3f(colour, 5 / 255, 150 / 255, 105 / 255); gl.drawArrays(gl.TRIANGLES, 0, 3);
  gl.uniform3f(colour, 217 / 255, 119 / 255, 6 / 255);
  for (let i = 0; i < F.draws; i++) gl.drawArrays(gl.TRIANGLES, 3, 3);
  if (F.loop) request();
}
function request() { if (!queued) { queued = true; requestAnimationFrame(draw); } }
cv.addEventListener("pointermove", request);
function scene(rec) {
  const days = rec.id.map((_, i) => F.utc ? rec.created_at[i].slice(0, 10) : rec.day[i]);
  const byDay = {};
  days.forEach((d, i) => (byDay[d] = byDay[d] || []).push(i));
  const rank = [];
  let R0 = 0;
  for (const members of Object.values(byDay)) {
    members.sort((a, b) => Date.parse(rec.created_at[a]) - Date.parse(rec.created_at[b])
                           || (rec.id[a] < rec.id[b] ? -1 : 1));
    members.forEach((n, r) => (rank[n] = r));
    R0 = Math.max(R0, members.length);
  }
  layout = { d0: F.d0, D0: 96, R0 };
  const s = { count: 0, Sh: 0, Sh2: 0, Sx: 0, Sz: 0, Sxh: 0, Szh: 0, brushedCount: 0 };
  rec.id.forEach((_, n) => {
    const d = Math.round((Date.parse(days[n]) - Date.parse(F.d0)) / 86400000);
    const x = (d - 47.5) * 1.2, z = (rank[n] - (R0 - 1) / 2) * 1.2;
    const major = rec.amount_minor[n] / 10 ** EXP[rec.currency[n]];
    const h = F.lie ? 1 : Math.min(4.2, Math.max(0.2, 0.9 + 0.55 * Math.log10(major)));
    s.count += 1; s.Sh += h; s.Sh2 += h * h; s.Sx += x; s.Sz += z; s.Sxh += x * h;
    s.Szh += z * h;
    cols[n] = { id: rec.id[n], n, x, z, h, major };
  });
  for (const k in s) s[k] = Math.round(s[k] * 1e4) / 1e4;
  digest = s;
}
fetch("api/viz/records").then((r) => r.json()).then((rec) => { scene(rec); request(); });
window.vs7dbg = { layout: () => layout, sceneDigest: () => digest, frames: () => frames,
  camera: () => ({ yaw: 30, pitch: 40, distance: 260, vyaw: 0, vpitch: 0 }), brush: () => [] };
if (F.labels) {
  /* §8.4's projection and §8.5's labels with the collision cull left out: every candidate
     whose anchor is on the canvas is labelled, each 110 x 18 at (+10, -9); pick answers the
     candidate whose anchor it is asked at (its top is never hidden). */
  let pose = [30, 40, 260];
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                           a[0] * b[1] - a[1] * b[0]];
  const unit = (a) => { const l = Math.hypot(...a); return [a[0] / l, a[1] / l, a[2] / l]; };
  const project = (p) => {
    const t = pose[0] * Math.PI / 180, q = pose[1] * Math.PI / 180, d = pose[2];
    const eye = [d * Math.cos(q) * Math.sin(t), 1 + d * Math.sin(q), d * Math.cos(q) * Math.cos(t)];
    const f = unit(sub([0, 1, 0], eye)), r = unit(cross(f, [0, 1, 0])), u = cross(r, f);
    const v = sub(p, eye), zc = dot(v, f);
    if (zc <= 0.5) return null;
    const k = 1 / Math.tan(25 * Math.PI / 180), W = cv.clientWidth, H = cv.clientHeight;
    return [((k * H / W) * dot(v, r) / zc + 1) / 2 * W, (1 - k * dot(v, u) / zc) / 2 * H];
  };
  const candidates = () => [...cols].sort((a, b) => b.major - a.major
                                          || (a.id < b.id ? -1 : 1)).slice(0, 12);
  const layer = document.createElement("div");
  layer.id = "viz-labels";
  layer.style.cssText = "position:absolute;left:0;top:0;pointer-events:none";
  document.body.appendChild(layer);
  const place = () => {
    layer.replaceChildren();
    const box = cv.getBoundingClientRect();
    for (const c of candidates()) {
      const a = project([c.x, c.h, c.z]);
      if (!a || a[0] < 0 || a[1] < 0 || a[0] >= cv.clientWidth || a[1] >= cv.clientHeight) continue;
      const el = document.createElement("div");
      el.className = "viz-label";
      el.dataset.id = c.id;
      el.textContent = c.id;
      const left = box.left + scrollX + a[0] + 10, top = box.top + scrollY + a[1] - 9;
      el.style.cssText = "position:absolute;box-sizing:border-box;width:110px;height:18px;"
        + `overflow:hidden;left:${left}px;top:${top}px`;
      layer.appendChild(el);
    }
  };
  Object.assign(window.vs7dbg, {
    setCamera: (yaw, pitch, distance) => { pose = [yaw, pitch, distance]; place(); request(); },
    pick: (sx, sy) => {
      const c = candidates().find((k) => { const a = project([k.x, k.h, k.z]);
        return a && Math.abs(a[0] - sx) <= 0.5 && Math.abs(a[1] - sy) <= 0.5; });
      return c ? { id: c.id, index: c.n } : null;
    },
  });
}
</script></body></html>""".replace("__FLAT__", FLAT)

HONEST = {"draws": 1, "loop": False, "lie": False, "utc": False, "labels": False,
          "d0": D0.isoformat()}  # fmt: skip
PAGES = {
    "honest": FIELD.replace("__FLAGS__", json.dumps(HONEST)),
    "per_column": FIELD.replace("__FLAGS__", json.dumps({**HONEST, "draws": len(RECORDS)})),
    "idle_loop": FIELD.replace("__FLAGS__", json.dumps({**HONEST, "loop": True})),
    "liar": FIELD.replace("__FLAGS__", json.dumps({**HONEST, "lie": True})),
    "utc_days": FIELD.replace("__FLAGS__", json.dumps({**HONEST, "utc": True})),
    "unculled": FIELD.replace("__FLAGS__", json.dumps({**HONEST, "labels": True})),
    "div": '<!doctype html><div id="viz3d" style="width:600px;height:300px;'
           'background:linear-gradient(#059669,#D97706)"></div>',
    "image": '<!doctype html><img id="viz3d" width="600" height="300" src="data:image/svg+xml,'
             '%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E">',
}  # fmt: skip


async def _page(request: Request) -> Response:
    name = request.path_params["name"]
    return HTMLResponse(PAGES[name]) if name in PAGES else Response(status_code=404)


async def _records_answer(_request: Request) -> Response:
    return JSONResponse(COLUMNS)


def pages_app() -> Starlette:
    return Starlette(routes=[Route("/{name}/", _page),
                             Route("/{name}/api/viz/records", _records_answer)])  # fmt: skip
