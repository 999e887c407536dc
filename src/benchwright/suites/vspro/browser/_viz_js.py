"""The page-side JavaScript the 3D probes evaluate; each returns data, never a verdict."""

INIT = r"""(() => {
  if (window.__bwviz__) return;
  const rec = { byCanvas: new WeakMap() };
  const WEBGL = /^(experimental-)?webgl2?$/i;
  const original = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (type, attrs, ...rest) {
    if (!WEBGL.test(String(type))) return original.call(this, type, attrs, ...rest);
    const asked = attrs && typeof attrs === "object" ? Object.assign({}, attrs) : {};
    const ctx = original.call(this, type, Object.assign({}, asked, { preserveDrawingBuffer: true }),
                              ...rest);
    if (ctx && !rec.byCanvas.has(this)) rec.byCanvas.set(this, { gl: ctx, asked, type });
    return ctx;
  };
  // Helpers for the probe's reads (each read starts with "const { ... } = window.__bwviz__").
  const draws = () => {
    const s = window.__benchwright__ ? window.__benchwright__.snapshot() : {};
    let n = 0;
    for (const c of s.contexts || []) {
      if (c.canvas === "viz3d") for (const k in c.calls) n += c.calls[k];
    }
    return n;
  };
  const vis = (el) => !!el && (typeof el.checkVisibility !== "function"
    || el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }))
    && el.getClientRects().length > 0 && el.getBoundingClientRect().width > 0;
  const tryit = (f) => {
    try { const v = f(); JSON.stringify(v); return v === undefined ? null : v; }
    catch (e) { return { error: String(e && e.message || e) }; }
  };
  Object.assign(rec, { draws, vis, tryit });
  Object.defineProperty(window, "__bwviz__", { value: rec, enumerable: false });
})();"""

SETTLE = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const s = window.__bwsettle__ || (window.__bwsettle__ = { n: -1, t: performance.now() });
  const n = draws();
  if (n !== s.n) { s.n = n; s.t = performance.now(); return false; }
  return n > 0 && performance.now() - s.t > 500;
}"""

READ = r"""(wantPixels) => {
  const { draws, vis, tryit } = window.__bwviz__;
  const cv = document.getElementById("viz3d");
  const out = { found: !!cv && cv instanceof HTMLCanvasElement, draws: draws(),
                scrollY: window.scrollY, innerW: innerWidth, innerH: innerHeight };
  if (!out.found) return JSON.stringify(out);
  const r = cv.getBoundingClientRect();
  Object.assign(out, { left: r.left, top: r.top, w: r.width, h: r.height,
                       bw: cv.width, bh: cv.height, dpr: devicePixelRatio });
  const rec = window.__bwviz__ && window.__bwviz__.byCanvas.get(cv);
  if (rec) { out.kind = /2/.test(rec.type) ? "webgl2" : "webgl"; out.asked = rec.asked; }
  const g = rec && rec.gl;
  if (wantPixels && g && !g.isContextLost()) {
    const W = g.drawingBufferWidth, H = g.drawingBufferHeight, px = new Uint8Array(W * H * 4);
    const prev = g.getParameter(g.FRAMEBUFFER_BINDING);
    g.bindFramebuffer(g.FRAMEBUFFER, null);
    g.readPixels(0, 0, W, H, g.RGBA, g.UNSIGNED_BYTE, px);
    g.bindFramebuffer(g.FRAMEBUFFER, prev);
    const rgb = new Uint8Array(W * H * 3);
    for (let y = 0; y < H; y++) {
      const src = (H - 1 - y) * W * 4, dst = y * W * 3;
      for (let x = 0; x < W; x++) {
        rgb[dst + 3 * x] = px[src + 4 * x]; rgb[dst + 3 * x + 1] = px[src + 4 * x + 1];
        rgb[dst + 3 * x + 2] = px[src + 4 * x + 2];
      }
    }
    let s = "";
    for (let i = 0; i < rgb.length; i += 0x8000)
      s += String.fromCharCode.apply(null, rgb.subarray(i, i + 0x8000));
    out.fb = { w: W, h: H, b64: btoa(s) };
  }
  return JSON.stringify(out);
}"""

VSDBG = r"""(a) => {
  const { draws, vis, tryit } = window.__bwviz__;
  const d = window.vsdbg;
  if (!d || (typeof d !== "object" && typeof d !== "function"))
    return JSON.stringify({ present: false });
  const call = (name, ...args) => tryit(() => d[name](...args));
  return JSON.stringify({ present: true, version: tryit(() => d.version), scene: call("scene"),
    camera: call("camera"), frames: call("frames"),
    projections: a.points.map((p) => call("project", p[0], p[1], p[2])),
    picks: a.picks.map((p) => call("pick", p[0], p[1])) });
}"""

VSDBG_NOW = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const d = window.vsdbg;
  return JSON.stringify({ camera: d ? tryit(() => d.camera()) : null,
                          frames: d ? tryit(() => d.frames()) : null, draws: draws() });
}"""

TIP_ARM = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const w = window.__bwtip__ = { moved: null, shown: null };
  const el = () => document.getElementById("viz-tooltip");
  const shownNow = () => { const t = el(); return vis(t) && t.textContent.trim().length > 0; };
  addEventListener("pointermove", () => {
    if (w.moved === null) w.moved = performance.now();
  }, true);
  const stamp = () => {
    if (w.moved !== null && w.shown === null && shownNow()) w.shown = performance.now();
  };
  new MutationObserver(stamp).observe(document.documentElement,
    { subtree: true, childList: true, attributes: true, characterData: true });
  const frame = () => { stamp(); if (w.shown === null) requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  return JSON.stringify(!shownNow());
}"""

TIP_SHOWN = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const t = document.getElementById("viz-tooltip");
  return vis(t) && t.textContent.trim().length > 0;
}"""

TIP_READ = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const t = document.getElementById("viz-tooltip"), w = window.__bwtip__ || {};
  return JSON.stringify({ shown: vis(t) && t.textContent.trim().length > 0,
    text: t ? t.textContent.trim() : null,
    latency: w.moved != null && w.shown != null ? w.shown - w.moved : null });
}"""

TIP_HIDDEN = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const t = document.getElementById("viz-tooltip");
  return !(vis(t) && t.textContent.trim().length > 0);
}"""

TABLE = r"""(want) => {
  const { draws, vis, tryit } = window.__bwviz__;
  const f = document.getElementById("status-filter");
  const fb = document.getElementById("viz-fallback");
  const rows = [...document.querySelectorAll("tbody tr")]
    .filter((r) => vis(r) && !(fb && fb.contains(r)) && r.cells.length >= 2);
  const n = "[\\d,.\\s\\u202f]+";
  const m = new RegExp("showing\\s+" + n + "\\s*(?:[-\\u2013\\u2014]|to)\\s*" + n
                       + "\\s+of\\s+([\\d,.\\u202f]+)", "i").exec(document.body.innerText);
  const out = { value: f ? f.getAttribute("data-value") : null,
    statuses: rows.map((r) => (r.cells[2] ? r.cells[2].innerText : "").trim().toLowerCase()),
    total: m ? Number(m[1].replace(/[^\d]/g, "")) : null };
  if (want === null) return JSON.stringify(out);
  const settled = out.value === want && out.statuses.length > 0
    && out.statuses.every((s) => s === want) && out.total !== null;
  return settled ? JSON.stringify(out) : false;
}"""

NOTICE = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const re = /2d|fallback|unavailable|not\s+supported|webgl/i;
  const ids = ["viz3d", "viz-fallback", "viz-toggle"].map((i) => document.getElementById(i))
    .filter(Boolean);
  if (!ids.length) return JSON.stringify(null);
  let panel = ids[0].parentElement;
  while (panel && !ids.every((e) => panel.contains(e))) panel = panel.parentElement;
  panel = panel || document.body;
  const skip = (el) => el.closest("#viz-fallback, #viz-toggle, script, style");
  for (const el of panel.querySelectorAll("*")) {
    if (skip(el) || !vis(el)) continue;
    const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent)
      .join(" ").trim();
    if (own && own.length <= 300 && re.test(own)) return JSON.stringify(el.innerText.trim());
  }
  return JSON.stringify(null);
}"""

TOGGLE_AT = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const t = document.getElementById("viz-toggle");
  if (!vis(t)) return JSON.stringify(null);
  t.scrollIntoView({ block: "center" });
  const r = t.getBoundingClientRect();
  return JSON.stringify([r.left + r.width / 2, r.top + r.height / 2]);
}"""

FALLBACK = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const t = document.getElementById("viz-fallback"), cells = {};
  if (t) for (const c of t.querySelectorAll("[data-day][data-status]"))
    cells[c.getAttribute("data-day") + "|" + c.getAttribute("data-status")] = c.textContent.trim();
  const toggle = document.getElementById("viz-toggle");
  return JSON.stringify({ shown: vis(t) && Object.keys(cells).length > 0, cells,
                          pressed: toggle ? toggle.getAttribute("aria-pressed") : null });
}"""

FALLBACK_READY = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const t = document.getElementById("viz-fallback");
  return vis(t) && t.querySelectorAll("[data-day][data-status]").length > 0;
}"""

ROWS = r"""() => {
  const { draws, vis, tryit } = window.__bwviz__;
  const fb = document.getElementById("viz-fallback");
  return String([...document.querySelectorAll("tbody tr")]
    .filter((r) => vis(r) && !(fb && fb.contains(r)) && r.cells.length >= 2).length);
}"""
