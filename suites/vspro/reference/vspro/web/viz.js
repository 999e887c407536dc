// viz.js: payments per Berlin day and status as 3D bars, drawn with raw WebGL.
// No libraries: the shaders, the vertex buffer and the view/projection matrices are below.
// Scene and camera follow the vspro contract (C7); window.vsdbg exposes the same math.
'use strict';
(function () {
  const STATUS_ORDER = ['settled', 'pending', 'refunded', 'failed'];
  const STATUS_RGB = {
    settled: [22, 163, 74], pending: [245, 158, 11],
    refunded: [139, 92, 246], failed: [220, 38, 38],
  };
  const OTHER_RGB = [100, 116, 139]; // a status outside the contract's four
  const BG = [15, 23, 42]; // #0F172A
  const CELL = 1.5, HALF = 0.5, H_PER_COUNT = 0.25, SIDE = 0.62;
  const TARGET = [0, 3, 0];
  const K = 1 / Math.tan((25 * Math.PI) / 180); // vertical FOV 50 degrees
  const NEAR = 0.1, FAR = 200;
  const DEFAULTS = { yaw: 35, pitch: 27, distance: 30 };
  const DRAG_DEG_PER_PX = 0.35, WHEEL_K = 0.0012, CLICK_SLOP_PX = 4;

  const rad = (d) => (d * Math.PI) / 180;
  const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const norm = (a) => { const l = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / l, a[1] / l, a[2] / l]; };

  const cam = { yaw: DEFAULTS.yaw, pitch: DEFAULTS.pitch, distance: DEFAULTS.distance };
  let scene = { days: [], statuses: [], bars: [] };
  let canvas = null, gl = null, prog = null, vbo = null, vertexCount = 0;
  let frames = 0, cssW = 0, cssH = 0;
  let hooks = { onPick: null, onNoGL: null, tooltip: null, dayLabel: (d) => d };

  // ---- camera math (shared by drawing, project() and pick()) ----
  function eye() {
    const t = rad(cam.yaw), p = rad(cam.pitch), d = cam.distance;
    return [TARGET[0] + d * Math.cos(p) * Math.sin(t), TARGET[1] + d * Math.sin(p),
      TARGET[2] + d * Math.cos(p) * Math.cos(t)];
  }
  function basis(e) {
    const f = norm(sub(TARGET, e));
    const r = norm(cross(f, [0, 1, 0]));
    return { f, r, u: cross(r, f) };
  }
  function size() {
    if (canvas) {
      const rect = canvas.getBoundingClientRect();
      if (rect.width > 0 && rect.height > 0) { cssW = rect.width; cssH = rect.height; }
    }
    return [cssW || 1, cssH || 1];
  }
  function project(x, y, z) {
    const [W, H] = size();
    const e = eye(), b = basis(e), q = sub([x, y, z], e);
    const xc = dot(q, b.r), yc = dot(q, b.u), zc = dot(q, b.f);
    if (!(zc > NEAR)) return null;
    return [(((K / (W / H)) * xc) / zc + 1) / 2 * W, (1 - (K * yc) / zc) / 2 * H];
  }
  function rayBox(o, d, mn, mx) {
    let t0 = -Infinity, t1 = Infinity;
    for (let k = 0; k < 3; k++) {
      if (Math.abs(d[k]) < 1e-12) {
        if (o[k] < mn[k] || o[k] > mx[k]) return null;
        continue;
      }
      let a = (mn[k] - o[k]) / d[k], c = (mx[k] - o[k]) / d[k];
      if (a > c) { const s = a; a = c; c = s; }
      t0 = Math.max(t0, a); t1 = Math.min(t1, c);
    }
    return t0 <= t1 && t1 > 0 ? Math.max(t0, 0) : null;
  }
  // The bar whose surface is nearest along the ray through CSS pixel (sx, sy), or null.
  function pickBar(sx, sy) {
    const [W, H] = size();
    const e = eye(), b = basis(e);
    const cx = ((sx / W) * 2 - 1) / (K / (W / H)), cy = (1 - (sy / H) * 2) / K;
    const d = norm([b.f[0] + cx * b.r[0] + cy * b.u[0], b.f[1] + cx * b.r[1] + cy * b.u[1],
      b.f[2] + cx * b.r[2] + cy * b.u[2]]);
    let best = null, bestT = Infinity;
    for (const bar of scene.bars) {
      const t = rayBox(e, d, [bar.x - HALF, 0, bar.z - HALF], [bar.x + HALF, bar.h, bar.z + HALF]);
      if (t != null && t < bestT) { bestT = t; best = bar; }
    }
    return best;
  }
  function mvp() {
    const [W, H] = size();
    const e = eye(), { f, r, u } = basis(e), a = W / H;
    const A = (FAR + NEAR) / (NEAR - FAR), B = (2 * FAR * NEAR) / (NEAR - FAR);
    const row0 = [r[0], r[1], r[2], -dot(r, e)].map((v) => (K / a) * v);
    const row1 = [u[0], u[1], u[2], -dot(u, e)].map((v) => K * v);
    const vz = [-f[0], -f[1], -f[2], dot(f, e)]; // view-space z row
    const row2 = [A * vz[0], A * vz[1], A * vz[2], A * vz[3] + B];
    const row3 = [-vz[0], -vz[1], -vz[2], -vz[3]];
    const m = new Float32Array(16); // column-major
    for (let c = 0; c < 4; c++) { m[c * 4] = row0[c]; m[c * 4 + 1] = row1[c]; m[c * 4 + 2] = row2[c]; m[c * 4 + 3] = row3[c]; }
    return m;
  }

  // ---- scene from /api/buckets ----
  function buildScene(buckets) {
    const days = Array.isArray(buckets && buckets.days) ? buckets.days.slice() : [];
    const given = Array.isArray(buckets && buckets.statuses) ? buckets.statuses : [];
    const statuses = STATUS_ORDER.filter((s) => given.includes(s))
      .concat(given.filter((s) => !STATUS_ORDER.includes(s)));
    const D = days.length, bars = [];
    for (const cell of (buckets && buckets.cells) || []) {
      const count = Number(cell.count) || 0;
      const i = days.indexOf(cell.day);
      let j = STATUS_ORDER.indexOf(cell.status);
      if (j < 0) j = statuses.indexOf(cell.status);
      if (count <= 0 || i < 0 || j < 0) continue;
      bars.push({ key: cell.day + '|' + cell.status, day: cell.day, status: cell.status, i, j, count,
        x: (i - (D - 1) / 2) * CELL, z: (j - 1.5) * CELL, h: count * H_PER_COUNT });
    }
    return { days, statuses, bars };
  }
  function geometry() {
    const per = 30, pos = new Float32Array(scene.bars.length * per * 3);
    const col = new Uint8Array(scene.bars.length * per * 4);
    let n = 0;
    const quad = (p, c) => { // two triangles from four corners, flat colour
      for (const k of [0, 1, 2, 0, 2, 3]) {
        pos.set(p[k], n * 3); col.set([c[0], c[1], c[2], 255], n * 4); n++;
      }
    };
    for (const b of scene.bars) {
      const top = STATUS_RGB[b.status] || OTHER_RGB, side = top.map((v) => Math.round(v * SIDE));
      const x0 = b.x - HALF, x1 = b.x + HALF, z0 = b.z - HALF, z1 = b.z + HALF, h = b.h;
      quad([[x0, h, z0], [x1, h, z0], [x1, h, z1], [x0, h, z1]], top);
      quad([[x0, 0, z1], [x1, 0, z1], [x1, h, z1], [x0, h, z1]], side);
      quad([[x1, 0, z0], [x0, 0, z0], [x0, h, z0], [x1, h, z0]], side);
      quad([[x1, 0, z1], [x1, 0, z0], [x1, h, z0], [x1, h, z1]], side);
      quad([[x0, 0, z0], [x0, 0, z1], [x0, h, z1], [x0, h, z0]], side);
    }
    return { pos, col, n };
  }

  // ---- WebGL ----
  const VS = 'attribute vec3 aPos;attribute vec4 aCol;uniform mat4 uMVP;varying vec4 vCol;' +
    'void main(){vCol=aCol;gl_Position=uMVP*vec4(aPos,1.0);}';
  const FS = '#ifdef GL_FRAGMENT_PRECISION_HIGH\nprecision highp float;\n#else\nprecision mediump float;\n#endif\n' +
    'varying vec4 vCol;void main(){gl_FragColor=vec4(vCol.rgb,1.0);}';
  function shader(type, src) {
    const s = gl.createShader(type);
    gl.shaderSource(s, src); gl.compileShader(s);
    return gl.getShaderParameter(s, gl.COMPILE_STATUS) ? s : null;
  }
  function setupGL() {
    const attrs = { antialias: false, alpha: false };
    gl = canvas.getContext('webgl', attrs) || canvas.getContext('experimental-webgl', attrs);
    if (!gl) return false;
    const vs = shader(gl.VERTEX_SHADER, VS), fs = shader(gl.FRAGMENT_SHADER, FS);
    if (!vs || !fs) { gl = null; return false; }
    prog = gl.createProgram();
    gl.attachShader(prog, vs); gl.attachShader(prog, fs);
    gl.bindAttribLocation(prog, 0, 'aPos'); gl.bindAttribLocation(prog, 1, 'aCol');
    gl.linkProgram(prog);
    if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) { gl = null; return false; }
    vbo = { pos: gl.createBuffer(), col: gl.createBuffer() };
    upload();
    return true;
  }
  function upload() {
    if (!gl) return;
    const g = geometry();
    gl.bindBuffer(gl.ARRAY_BUFFER, vbo.pos); gl.bufferData(gl.ARRAY_BUFFER, g.pos, gl.STATIC_DRAW);
    gl.bindBuffer(gl.ARRAY_BUFFER, vbo.col); gl.bufferData(gl.ARRAY_BUFFER, g.col, gl.STATIC_DRAW);
    vertexCount = g.n;
  }
  function fitBackingStore() {
    const [W, H] = size(), dpr = window.devicePixelRatio || 1;
    const bw = Math.max(1, Math.round(W * dpr)), bh = Math.max(1, Math.round(H * dpr));
    if (canvas.width !== bw) canvas.width = bw;
    if (canvas.height !== bh) canvas.height = bh;
  }
  // Event-driven: one frame per input or data change, no idle animation.
  function render() {
    if (!gl || gl.isContextLost()) return;
    fitBackingStore();
    gl.viewport(0, 0, canvas.width, canvas.height);
    gl.clearColor(BG[0] / 255, BG[1] / 255, BG[2] / 255, 1);
    gl.enable(gl.DEPTH_TEST); gl.depthFunc(gl.LESS);
    gl.disable(gl.BLEND); gl.disable(gl.CULL_FACE);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    if (vertexCount > 0) {
      gl.useProgram(prog);
      gl.uniformMatrix4fv(gl.getUniformLocation(prog, 'uMVP'), false, mvp());
      gl.bindBuffer(gl.ARRAY_BUFFER, vbo.pos);
      gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 0, 0);
      gl.bindBuffer(gl.ARRAY_BUFFER, vbo.col);
      gl.enableVertexAttribArray(1); gl.vertexAttribPointer(1, 4, gl.UNSIGNED_BYTE, true, 0, 0);
      gl.drawArrays(gl.TRIANGLES, 0, vertexCount);
    }
    frames++;
  }

  function setCamera(c) {
    c = c || {};
    if (Number.isFinite(c.yaw)) cam.yaw = c.yaw;
    if (Number.isFinite(c.pitch)) cam.pitch = clamp(c.pitch, 5, 85);
    if (Number.isFinite(c.distance)) cam.distance = clamp(c.distance, 10, 90);
    render();
  }

  // ---- tooltip and input ----
  function tip(bar, sx, sy) {
    const el = hooks.tooltip;
    if (!el) return;
    if (!bar) { if (!el.hidden) el.hidden = true; return; }
    el.textContent = bar.count + ' ' + bar.status + ' \u00b7 ' + hooks.dayLabel(bar.day);
    el.hidden = false;
    const [W, H] = size();
    const w = el.offsetWidth, h = el.offsetHeight;
    el.style.left = clamp(sx + 14, 0, Math.max(0, W - w)) + 'px';
    el.style.top = clamp(sy - h - 10, 0, Math.max(0, H - h)) + 'px';
  }
  function local(ev) {
    const r = canvas.getBoundingClientRect();
    return [ev.clientX - r.left, ev.clientY - r.top];
  }
  function bindInput() {
    let drag = null, dragged = false;
    canvas.addEventListener('pointerdown', (ev) => {
      if (ev.button !== 0) return;
      dragged = false;
      drag = { id: ev.pointerId, x: ev.clientX, y: ev.clientY, moved: 0 };
      try { canvas.setPointerCapture(ev.pointerId); } catch (e) { /* synthetic pointer */ }
      tip(null);
    });
    canvas.addEventListener('pointermove', (ev) => {
      if (drag && drag.id === ev.pointerId) {
        const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
        drag.x = ev.clientX; drag.y = ev.clientY; drag.moved += Math.abs(dx) + Math.abs(dy);
        if (dx || dy) {
          cam.yaw -= DRAG_DEG_PER_PX * dx;
          cam.pitch = clamp(cam.pitch + DRAG_DEG_PER_PX * dy, 5, 85);
          render();
        }
        return;
      }
      const [sx, sy] = local(ev);
      tip(pickBar(sx, sy), sx, sy);
    });
    const end = (ev) => {
      if (!drag || drag.id !== ev.pointerId) return;
      dragged = drag.moved > CLICK_SLOP_PX;
      drag = null;
    };
    canvas.addEventListener('pointerup', end);
    canvas.addEventListener('pointercancel', end);
    canvas.addEventListener('pointerleave', () => { if (!drag) tip(null); });
    canvas.addEventListener('click', (ev) => {
      if (dragged) { dragged = false; return; }
      const [sx, sy] = local(ev);
      const bar = pickBar(sx, sy);
      if (bar && hooks.onPick) hooks.onPick(bar.status, bar);
    });
    canvas.addEventListener('dblclick', (ev) => {
      ev.preventDefault();
      setCamera(DEFAULTS);
    });
    canvas.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      const unit = ev.deltaMode === 1 ? 16 : ev.deltaMode === 2 ? size()[1] : 1;
      cam.distance = clamp(cam.distance * Math.exp(WHEEL_K * ev.deltaY * unit), 10, 90);
      tip(null);
      render();
    }, { passive: false });
    canvas.addEventListener('webglcontextlost', (ev) => ev.preventDefault());
    canvas.addEventListener('webglcontextrestored', () => { if (setupGL()) render(); });
    if (typeof ResizeObserver === 'function') new ResizeObserver(() => render()).observe(canvas);
    else window.addEventListener('resize', render);
  }

  // 2D companion: one row per day, one cell per status, each keyed by data-day/data-status.
  function fillTable(table, dayLabel) {
    const doc = table.ownerDocument;
    table.replaceChildren();
    const cap = doc.createElement('caption');
    cap.textContent = 'Payments per day and status (Europe/Berlin days)';
    const head = doc.createElement('tr');
    for (const t of ['Day'].concat(scene.statuses)) {
      const th = doc.createElement('th');
      th.scope = 'col'; th.textContent = t;
      head.appendChild(th);
    }
    const thead = doc.createElement('thead');
    thead.appendChild(head);
    table.append(cap, thead);
    const counts = new Map(scene.bars.map((b) => [b.key, b.count]));
    for (const day of scene.days) {
      const tr = doc.createElement('tr');
      const th = doc.createElement('th');
      th.scope = 'row'; th.textContent = dayLabel(day);
      tr.appendChild(th);
      for (const s of scene.statuses) {
        const td = doc.createElement('td');
        td.dataset.day = day; td.dataset.status = s;
        td.textContent = String(counts.get(day + '|' + s) || 0);
        tr.appendChild(td);
      }
      table.appendChild(tr); // rows sit directly in the table: they are not payment rows
    }
  }

  const api = {
    // init(canvas, hooks) → true when WebGL is running, false when the 2D table must stand in.
    init(el, h) {
      canvas = el;
      hooks = Object.assign(hooks, h || {});
      bindInput();
      let ok = false;
      try { ok = setupGL(); } catch (e) { ok = false; }
      if (!ok) { gl = null; if (hooks.onNoGL) hooks.onNoGL(); }
      return ok;
    },
    setData(buckets) {
      scene = buildScene(buckets);
      upload();
      render();
      return scene;
    },
    render,
    fillTable,
  };
  window.VsViz = api;

  window.vsdbg = {
    version: 3,
    scene: () => ({
      days: scene.days.slice(), statuses: scene.statuses.slice(),
      bars: scene.bars.map((b) => ({ key: b.key, i: b.i, j: b.j, count: b.count, x: b.x, z: b.z, h: b.h })),
    }),
    camera: () => ({ yaw: cam.yaw, pitch: cam.pitch, distance: cam.distance }),
    setCamera: (c) => { setCamera(c); return { yaw: cam.yaw, pitch: cam.pitch, distance: cam.distance }; },
    project: (x, y, z) => project(x, y, z),
    pick: (sx, sy) => { const b = pickBar(sx, sy); return b ? b.key : null; },
    frames: () => frames,
  };
})();
