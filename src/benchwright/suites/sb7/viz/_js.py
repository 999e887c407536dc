"""The page-side JavaScript of the sb-7 3D probe; each read returns data, never a verdict.

`INIT` runs before the app's scripts. It is the GL wrapper of §8.2: every draw entry
point (the core ones, their instanced forms, ``ANGLE_instanced_arrays``' and
``WEBGL_multi_draw``'s) is counted against the framebuffer bound when it is called
(default or offscreen), with readbacks from offscreen framebuffers and every buffer byte
uploaded (``bufferData`` over 4,096 bytes is also a reallocation). A frame is one
uninterrupted run of default-framebuffer draws (a microtask ends it), so a loop that
ticks without drawing is no frame. The context is created as asked, plus
``preserveDrawingBuffer`` so that the probe can read the pixels the page shows. The
probe's own GL calls run with ``probing`` set and are never counted. ``watch(fn)`` calls
``fn`` as each frame begins (its first visible draw: the pose the page is drawing).

Every ``EventSource`` is tapped: each message's receipt is stamped (page ms) with its parsed
records, before the app's own handlers run (the tap listens from the constructor). So is a
``fetch`` of ``/api/stream`` read with the page's own SSE parser (the spec says SSE, not
``EventSource``): its body passes through a stream that stamps each message before the
page's reader gets the chunk. A stream
watch (`STREAM_ARM`) names a record, a device pixel and the colour it must turn: at the end
of each frame after the record's message arrived, the wrapper reads that pixel (a read
waits for the GPU to finish the frame: drawn, not just submitted), and the end of that read
on the first frame showing the colour is the batch's ``applied`` instant (store, digest and
pixels).
"""

INIT = r"""(() => {
  if (window.__sb7viz__) return;
  const now = () => performance.now();
  const byGl = new WeakMap(), byCanvas = new WeakMap(), owners = new WeakMap();
  const wrappedExt = new WeakSet();
  const S = { probing: false, sse: [], watch: null };
  const WEBGL = /^(experimental-)?webgl2?$/i;
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (type, attrs, ...rest) {
    if (!WEBGL.test(String(type))) return getContext.call(this, type, attrs, ...rest);
    const asked = attrs && typeof attrs === "object" ? Object.assign({}, attrs) : {};
    const wanted = Object.assign({}, asked, { preserveDrawingBuffer: true });
    const gl = getContext.call(this, type, wanted, ...rest);
    if (gl && !byGl.has(gl)) {
      const rec = { kind: /2/.test(String(type)) ? "webgl2" : "webgl", asked, draw: null,
        read: null, defaultDraws: 0, offDraws: 0, offReads: 0, bytes: 0, reallocs: 0,
        frames: 0, inFrame: false };
      byGl.set(gl, rec);
      byCanvas.set(this, { gl, rec });
    }
    return gl;
  };
  const count = (gl) => {
    const rec = byGl.get(gl);
    if (!rec || S.probing) return;
    if (rec.draw !== null) { rec.offDraws += 1; return; }
    rec.defaultDraws += 1;
    if (!rec.inFrame) {
      rec.inFrame = true;
      rec.frames += 1;
      if (S.onFrame) S.onFrame();
      queueMicrotask(() => { rec.inFrame = false; if (S.watch) watched(rec); });
    }
  };
  const wrap = (proto, name, before) => {
    const original = proto && proto[name];
    if (typeof original !== "function") return;
    Object.defineProperty(proto, name, { configurable: true, writable: true,
      value: function (...args) { before(this, args); return original.apply(this, args); } });
  };
  const DRAWS = ["drawArrays", "drawElements", "drawArraysInstanced", "drawElementsInstanced",
                 "drawRangeElements"];
  const FB = 0x8D40, READ_FB = 0x8CA8, DRAW_FB = 0x8CA9;
  const bytesOf = (data, srcOffset, length) => {
    if (typeof data === "number") return data;
    if (!data) return 0;
    const per = data.BYTES_PER_ELEMENT || 1;
    if (typeof length === "number" && length > 0) return length * per;
    return Math.max(0, (data.byteLength || 0) - (srcOffset || 0) * per);
  };
  for (const Ctx of [window.WebGLRenderingContext, window.WebGL2RenderingContext]) {
    if (!Ctx) continue;
    const proto = Ctx.prototype;
    for (const name of DRAWS) wrap(proto, name, (gl) => count(gl));
    wrap(proto, "bindFramebuffer", (gl, [target, fb]) => {
      const rec = byGl.get(gl);
      if (!rec) return;
      if (target === FB || target === DRAW_FB) rec.draw = fb || null;
      if (target === FB || target === READ_FB) rec.read = fb || null;
    });
    wrap(proto, "readPixels", (gl) => {
      const rec = byGl.get(gl);
      if (rec && !S.probing && rec.read !== null) rec.offReads += 1;
    });
    wrap(proto, "bufferData", (gl, [, data]) => {
      const rec = byGl.get(gl);
      if (!rec || S.probing) return;
      const n = bytesOf(data);
      rec.bytes += n;
      if (n > 4096) rec.reallocs += 1;
    });
    wrap(proto, "bufferSubData", (gl, [, , data, srcOffset, length]) => {
      const rec = byGl.get(gl);
      if (rec && !S.probing) rec.bytes += bytesOf(data, srcOffset, length);
    });
    const getExtension = proto.getExtension;
    proto.getExtension = function (name) {
      const ext = getExtension.call(this, name);
      if (ext && (name === "ANGLE_instanced_arrays" || name === "WEBGL_multi_draw")) {
        owners.set(ext, this);
        const xp = Object.getPrototypeOf(ext);
        if (!wrappedExt.has(xp)) {
          wrappedExt.add(xp);
          for (const m of Object.getOwnPropertyNames(xp))
            if (/^(multiD|d)raw/.test(m)) wrap(xp, m, (e) => count(owners.get(e)));
        }
      }
      return ext;
    };
  }
  const received = (data) => {
    const t = now();
    let records = [];
    try {
      const batch = JSON.parse(data);
      if (batch && Array.isArray(batch.records)) records = batch.records;
    } catch (err) { /* not a batch: still a message */ }
    S.sse.push({ t, records });
    const w = S.watch;
    if (w && w.received === null && records.some((r) => r && r.id === w.id)) w.received = t;
  };
  if (window.EventSource) {
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(...args) {
        super(...args);
        this.addEventListener("message", (event) => received(event.data));
      }
    };
  }
  if (window.fetch && window.TransformStream && window.TextDecoder) {
    const nativeFetch = window.fetch;
    const STREAM = /\/api\/stream$/;
    const messages = (block) => block.split(/\r?\n/).filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).replace(/^ /, "")).join("\n");
    window.fetch = function (input, init) {
      const asked = nativeFetch.call(window, input, init);
      const url = input instanceof Request ? input.url : String(input);
      let path = "";
      try { path = new URL(url, location.href).pathname; } catch (err) { return asked; }
      if (!STREAM.test(path)) return asked;
      return asked.then((res) => {
        if (!res.body) return res;
        const decoder = new TextDecoder();
        let buffer = "";
        const tap = new TransformStream({ transform(chunk, out) {
          buffer += decoder.decode(chunk, { stream: true });
          const END = /\r?\n\r?\n/;
          for (let cut = buffer.search(END); cut >= 0; cut = buffer.search(END)) {
            const data = messages(buffer.slice(0, cut));
            buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, "");
            if (data) received(data);
          }
          out.enqueue(chunk);
        } });
        return new Response(res.body.pipeThrough(tap),
          { status: res.status, statusText: res.statusText, headers: res.headers });
      });
    };
  }
  const field = () => {
    const cv = document.getElementById("viz3d");
    return cv ? byCanvas.get(cv) || null : null;
  };
  const snap = () => {
    const f = field();
    const r = f ? f.rec : {};
    let vsFrames = null;
    try { vsFrames = window.vs7dbg ? Number(window.vs7dbg.frames()) : null; } catch (e) {}
    return { t: now(), sse: S.sse.length, defaultDraws: r.defaultDraws || 0,
             offDraws: r.offDraws || 0, offReads: r.offReads || 0, bytes: r.bytes || 0,
             reallocs: r.reallocs || 0, frames: r.frames || 0,
             vsFrames: Number.isFinite(vsFrames) ? vsFrames : null };
  };
  const pixels = (points) => {
    const f = field();
    if (!f || f.gl.isContextLost()) return null;
    const gl = f.gl, px = new Uint8Array(4), out = [];
    S.probing = true;
    const prev = f.rec.read;
    try {
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      const H = gl.drawingBufferHeight;
      for (const [x, y] of points) {
        gl.readPixels(x, H - 1 - y, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
        out.push([px[0], px[1], px[2]]);
      }
      gl.bindFramebuffer(gl.FRAMEBUFFER, prev);
    } finally { S.probing = false; }
    return out;
  };
  const watched = (rec) => {
    const w = S.watch, f = field();
    if (!w || w.received === null || w.applied !== null || !f || f.rec !== rec) return;
    if (w.frame === null) w.frame = now();
    const px = pixels([w.at]);  // waits for the frame's pixels: shown, not just submitted
    if (px && px[0].every((c, i) => Math.abs(c - w.want[i]) <= 8)) w.applied = now();
  };
  const tryit = (f) => {
    try {
      const v = f();
      JSON.stringify(v);
      return { ok: true, value: v === undefined ? null : v };
    } catch (e) { return { ok: false, error: String(e && e.message || e) }; }
  };
  const watch = (fn) => { S.onFrame = fn; };
  Object.defineProperty(window, "__sb7viz__", { value: { field, snap, pixels, tryit, S, watch },
                                                enumerable: false });
})();"""

SETTLE = r"""() => {
  const { snap } = window.__sb7viz__;
  const s = window.__sb7settle__ || (window.__sb7settle__ = { n: -1, t: performance.now() });
  const n = snap().defaultDraws;
  if (n !== s.n) { s.n = n; s.t = performance.now(); return false; }
  let scene = 1;
  try { scene = window.vs7dbg.sceneDigest().count; } catch (e) { /* no vs7dbg yet */ }
  return n > 0 && scene > 0 && performance.now() - s.t > 500;
}"""
"""Truthy once the field drew (its records, when vs7dbg says how many) and then drew
nothing for 500 ms (bounded by the caller)."""

CONTEXT = r"""(grid) => {
  const { field, snap, pixels } = window.__sb7viz__;
  const cv = document.getElementById("viz3d");
  const out = { found: !!cv, canvas: cv instanceof HTMLCanvasElement, draws: snap().defaultDraws };
  if (!out.canvas) return JSON.stringify(out);
  cv.scrollIntoView({ block: "center" });
  const r = cv.getBoundingClientRect();
  Object.assign(out, { cssW: cv.clientWidth, cssH: cv.clientHeight, left: r.left, top: r.top,
                       bw: cv.width, bh: cv.height, dpr: devicePixelRatio });
  const f = field();
  if (!f) return JSON.stringify(out);
  Object.assign(out, { kind: f.rec.kind, asked: f.rec.asked });
  const W = f.gl.drawingBufferWidth, H = f.gl.drawingBufferHeight, points = [];
  for (let j = 0; j < grid[1]; j++)
    for (let i = 0; i < grid[0]; i++)
      points.push([Math.floor((i + 0.5) * W / grid[0]), Math.floor((j + 0.5) * H / grid[1])]);
  out.samples = pixels(points);
  return JSON.stringify(out);
}"""
"""The canvas, its context as asked, its backing store, and a blind grid of pixels."""

VS7DBG = r"""(names) => {
  const { tryit } = window.__sb7viz__;
  const d = window.vs7dbg;
  if (!d || (typeof d !== "object" && typeof d !== "function"))
    return JSON.stringify({ present: false });
  const out = { present: true };
  for (const n of names) out[n] = typeof d[n] === "function" ? tryit(() => d[n]()) : null;
  return JSON.stringify(out);
}"""
"""``window.vs7dbg``'s named no-argument methods: each ``{ok, value}`` or ``{ok: false,
error}``, null when not a function; ``present: false`` when there is no vs7dbg."""

SNAP = r"""() => JSON.stringify(window.__sb7viz__.snap())"""
"""The wrapper's counters now."""

RAF_ARM = r"""() => {
  window.__sb7raf__ = null;
  requestAnimationFrame(() => { window.__sb7raf__ = window.__sb7viz__.snap(); });
  return true;
}"""
RAF_READ = r"""() => window.__sb7raf__ && JSON.stringify(window.__sb7raf__)"""
"""The counters one animation frame after `RAF_ARM` (the drag window's end)."""

CAMERA = r"""() => {
  const { tryit } = window.__sb7viz__;
  const d = window.vs7dbg;
  const cam = d && typeof d.camera === "function" ? tryit(() => d.camera()) : null;
  return JSON.stringify({ camera: cam && cam.ok ? cam.value : null, scrollY: window.scrollY });
}"""
"""``vs7dbg.camera()`` (None when absent or throwing) and the page's scroll offset."""

PICKS = r"""(points) => {
  const { snap, tryit } = window.__sb7viz__;
  const d = window.vs7dbg;
  if (!d) return JSON.stringify(null);
  const before = snap(), out = [];
  let firstAfter = null;
  for (const [sx, sy] of points) {
    const pick = typeof d.pick === "function" ? tryit(() => d.pick(sx, sy)) : null;
    if (firstAfter === null) firstAfter = snap();
    const raw = typeof d.pickPixel === "function" ? tryit(() => d.pickPixel(sx, sy)) : null;
    out.push({ pick: pick && pick.ok ? pick.value : null,
               pixel: raw && raw.ok && Array.isArray(raw.value) ? raw.value : null });
  }
  return JSON.stringify({ before, firstAfter, after: snap(), picks: out });
}"""
"""``pick`` and ``pickPixel`` at each point, with the wrapper's counters before the first
pick, after it, and after the last (the refresh's offscreen work, any visible draw)."""

INVALIDATE = r"""(pose) => {
  const d = window.vs7dbg;
  if (!d || typeof d.setCamera !== "function") return JSON.stringify(null);
  const before = window.__sb7viz__.snap();
  window.__sb7viz__.tryit(() => d.setCamera(pose[0], pose[1], pose[2]));
  return JSON.stringify(before);
}"""
"""``setCamera`` (a scene invalidation); the counters just before it."""

PIXELS = r"""(points) => {
  const { field, pixels } = window.__sb7viz__;
  const f = field();
  if (!f) return JSON.stringify(null);
  const r = window.devicePixelRatio;
  return JSON.stringify(pixels(points.map(([x, y]) => [Math.round(x * r), Math.round(y * r)])));
}"""
"""The visible canvas's RGB at CSS points (the device pixel ``pick`` reads)."""

BRUSH = r"""() => {
  const { tryit } = window.__sb7viz__;
  const d = window.vs7dbg;
  const got = d && typeof d.brush === "function" ? tryit(() => d.brush()) : null;
  return JSON.stringify({ brush: got && got.ok ? got.value : null });
}"""
"""``vs7dbg.brush()`` (None when absent or throwing)."""

FREE = r"""([points]) => {
  const cv = document.getElementById("viz3d");
  const r = cv.getBoundingClientRect();
  for (const [x, y] of points) {
    const at = document.elementFromPoint(r.left + x, r.top + y);
    if (at === cv) return JSON.stringify([x, y]);
  }
  return JSON.stringify(null);
}"""
"""The first canvas point (CSS, from its top left) where the canvas itself is the element
under the pointer (a label or another overlay there would take the input)."""

GROUND = r"""([points]) => {
  const cv = document.getElementById("viz3d");
  const r = cv.getBoundingClientRect();
  const d = window.vs7dbg;
  const ask = d && typeof d.pick === "function" ? d.pick.bind(d) : null;
  for (const [x, y] of points) {
    if (document.elementFromPoint(r.left + x, r.top + y) !== cv) continue;
    let hit = null;
    try { hit = ask ? ask(x, y) : null; } catch (err) { hit = null; }
    if (hit === null || hit === undefined) return JSON.stringify([x, y]);
  }
  return JSON.stringify(null);
}"""
"""The first canvas point the canvas itself receives and ``vs7dbg.pick`` calls background
(any such point when the page has no pick): a double-click there empties the brush
instead of toggling a record, so no field click moves the table (and scrolls the page)
while the next camera input is on its way."""

AT_HOME = r"""([yaw, pitch, distance, tol]) => {
  const d = window.vs7dbg;
  let c = null;
  try { c = d && typeof d.camera === "function" ? d.camera() : null; } catch (err) { c = null; }
  if (!c) return false;
  const dyaw = Math.abs((((c.yaw - yaw) % 360) + 540) % 360 - 180);
  return dyaw <= tol && Math.abs(c.pitch - pitch) <= tol && Math.abs(c.distance - distance) <= tol;
}"""
"""True once ``vs7dbg.camera()`` reads the pose: Chromium may dispatch a ``dblclick``
hundreds of milliseconds after its second mouseup while the page is busy, so a reset is
awaited (bounded) rather than assumed after a fixed pause."""

ROW = r"""() => {
  const tr = document.querySelector("#rows tr[data-id]");
  const cell = tr && tr.querySelector("td");
  if (!cell) return JSON.stringify({ id: null });
  cell.scrollIntoView({ block: "center" });
  const r = cell.getBoundingClientRect();
  return JSON.stringify({ id: tr.dataset.id, x: r.left + r.width / 2, y: r.top + r.height / 2 });
}"""
"""The table's first row: its id and the viewport centre of its first cell (scrolled into
view; a row click there toggles the row's record)."""

COUNT = r"""() => {
  const el = document.getElementById("brush-count");
  return JSON.stringify({ count: el ? el.textContent.trim() : null });
}"""
"""``#brush-count``'s text (None: no such element)."""

SHOWN = r"""(id) => {
  const tr = [...document.querySelectorAll("#rows tr[data-id]")].find((t) => t.dataset.id === id);
  if (!tr || tr.dataset.brushed !== "true") return false;
  const r = tr.getBoundingClientRect();
  return JSON.stringify({ brushed: tr.dataset.brushed,
                          inView: r.bottom > 0 && r.top < window.innerHeight && r.height > 0 });
}"""
"""The table row of record ``id`` once it is marked brushed: the mark and whether it is in
the viewport (awaited, bounded: the table moves to the record's page asynchronously)."""

LABELS = r"""([anchors]) => {
  const { tryit } = window.__sb7viz__;
  const cv = document.getElementById("viz3d");
  const layer = document.getElementById("viz-labels");
  const r = cv.getBoundingClientRect();
  const ox = r.left + cv.clientLeft, oy = r.top + cv.clientTop;
  const shown = (e, b) => {
    const s = getComputedStyle(e);
    const seen = typeof e.checkVisibility !== "function"
      || e.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    return !e.hidden && seen && s.display !== "none" && s.visibility === "visible"
      && Number(s.opacity) > 0 && b.width > 0 && b.height > 0;
  };
  const labels = layer ? [...layer.querySelectorAll(".viz-label")].map((e) => {
    const b = e.getBoundingClientRect();
    return { id: e.getAttribute("data-id"), x: b.left - ox, y: b.top - oy, w: b.width,
             h: b.height, shown: shown(e, b) };
  }) : [];
  const d = window.vs7dbg;
  const picks = anchors.map((a) => {
    if (a === null || !d || typeof d.pick !== "function") return null;
    const got = tryit(() => d.pick(a[0], a[1]));
    return got.ok ? got.value : null;
  });
  return JSON.stringify({ layer: !!layer, labels, picks });
}"""
"""Every ``#viz-labels .viz-label`` (its ``data-id``, border box from the canvas's top
left, shown or not), read first, then ``vs7dbg.pick`` at each anchor (null for none)."""

STREAM_ARM = r"""([id, x, y, want, since]) => {
  const { S, snap, tryit } = window.__sb7viz__;
  const r = window.devicePixelRatio;
  const start = snap();
  S.watch = { id, at: [Math.round(x * r), Math.round(y * r)], want, received: null,
              frame: null, applied: null };
  const d = window.vs7dbg;
  const digest = d && typeof d.sceneDigest === "function" ? tryit(() => d.sceneDigest()) : null;
  return JSON.stringify({ start, digest: digest && digest.ok ? digest.value : null,
                          earlier: S.sse.filter((m) => m.t >= since && m.t < start.t) });
}"""
"""Open a batch's window: the counters and ``vs7dbg.sceneDigest()`` now, the stream
messages since ``since`` (page ms) that came before it, and a watch on record ``id``'s top
at CSS point (x, y) turning colour ``want``."""

STREAM_APPLIED = r"""() => {
  const w = window.__sb7viz__.S.watch;
  return !!w && w.applied !== null;
}"""
"""Truthy once the watched pixel showed its colour at the end of a frame after the
record's message arrived."""

STREAM_CLOSE = r"""(since) => {
  const { S, snap, tryit, pixels } = window.__sb7viz__;
  const end = snap(), w = S.watch;
  S.watch = null;
  const d = window.vs7dbg;
  const digest = d && typeof d.sceneDigest === "function" ? tryit(() => d.sceneDigest()) : null;
  const px = w ? pixels([w.at]) : null;
  return JSON.stringify({ end, digest: digest && digest.ok ? digest.value : null,
                          received: w && w.received, frame: w && w.frame,
                          applied: w && w.applied, pixel: px && px[0],
                          messages: S.sse.filter((m) => m.t >= since && m.t < end.t) });
}"""
"""Close the window: the counters, the digest, the watch's instants (receipt, the first
frame after it, the frame that showed the colour), the pixel now, and the stream messages
received inside the window (from ``since``, its start)."""


CARRIED = r"""(id) => window.__sb7viz__.S.sse.some(
  (m) => m.records.some((r) => r && r.id === id))"""
"""Truthy once a stream message carried record ``id`` (awaited, bounded)."""

AT = r"""([x, y]) => {
  const cv = document.getElementById("viz3d");
  cv.scrollIntoView({ block: "center" });
  const r = cv.getBoundingClientRect();
  return JSON.stringify([r.left + x, r.top + y]);
}"""
"""The viewport point of canvas point (x, y) (CSS, from its top left), the canvas
scrolled into the middle of the viewport first."""

BRUSHED = r"""(id) => {
  const d = window.vs7dbg;
  let got = null;
  try { got = d && typeof d.brush === "function" ? d.brush() : null; } catch (err) { got = null; }
  return Array.isArray(got) && got.includes(id);
}"""
"""Truthy once ``vs7dbg.brush()`` holds record ``id`` (awaited, bounded)."""
