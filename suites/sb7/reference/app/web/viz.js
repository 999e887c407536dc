// The payments field (spec section 8): every payment one column on a Berlin day x rank grid,
// drawn with raw WebGL. One instanced draw per frame, drawn only on demand; a GPU pick
// buffer (identity colours + depth) answers clicks, labels and vs7dbg; the orbit camera
// coasts by the closed form over real elapsed time; the brush is a per-record byte plus a
// uniform; stream batches upload only the records they change. Nothing here computes a
// day: the server's `day` is the only calendar.
"use strict";
(function () {
  const PITCH = 1.2;
  const SPAN_DAYS = 96;
  const EXPONENT = { EUR: 2, USD: 2, JPY: 0, KWD: 3 };
  const TOP = { settled: [5, 150, 105], pending: [217, 119, 6], refunded: [124, 58, 237], failed: [185, 28, 28] };
  const BACKGROUND = [16, 24, 40];
  const HOME = { yaw: 30, pitch: 40, distance: 260 };
  const PITCH_LIMITS = [5, 85];
  const DISTANCE_LIMITS = [15, 340];
  const DEG_PER_PX = 0.3;
  const TAU = 0.4;
  const REST_SPEED = 2;
  const COAST_CAP_S = 2.3;
  const K = 1 / Math.tan((25 * Math.PI) / 180);
  const NEAR = 0.5;
  const FAR = 1000;
  const LABELS = 12;
  const LABEL_W = 110;
  const LABEL_H = 18;
  const CLICK_PX = 5;
  const CLICK_MS = 300;
  const STRIDE = 20; // bytes per record: x, z, h (float32); top r, g, b, brush; identity r, g, b, 0
  const BRUSH_BYTE = 15;
  const HEADROOM = 4096; // records the stream may append before any reallocation

  const $ = (id) => document.getElementById(id);
  const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

  // ---- data: records in arrival order (n), the layout basis, the brush --------------
  const records = []; // {id, amount_minor, currency, status, created_at, day, version, x, z, h}
  const indexOf = new Map(); // id -> n
  const dayCounts = new Map(); // day -> records on it
  const brush = new Set();
  let basis = null; // {d0, D0, R0}, fixed by the first non-empty answer
  let candidates = []; // the label candidates' n, in label priority

  function major(rec) {
    return rec.amount_minor / 10 ** (EXPONENT[rec.currency] ?? 2);
  }

  function dayNumber(day) {
    const [y, m, d] = day.split("-").map(Number);
    return Date.UTC(y, m - 1, d) / 86400000;
  }

  function place(rec, rank) {
    rec.x = (dayNumber(rec.day) - dayNumber(basis.d0) - (SPAN_DAYS - 1) / 2) * PITCH;
    rec.z = (rank - (basis.R0 - 1) / 2) * PITCH;
    rec.h = clamp(0.9 + 0.55 * Math.log10(major(rec)), 0.2, 4.2);
  }

  function fixBasis(answer) {
    const counts = new Map();
    for (const day of answer.day) counts.set(day, (counts.get(day) || 0) + 1);
    const days = [...counts.keys()].sort();
    basis = { d0: days[0], D0: SPAN_DAYS, R0: Math.max(...counts.values()) };
  }

  function row(answer, i) {
    const rec = {};
    for (const key of ["id", "amount_minor", "currency", "status", "created_at", "day", "version"]) {
      rec[key] = answer[key][i];
    }
    return rec;
  }

  /** Appends a record at n = count, ranked after everything its day holds now. */
  function append(rec) {
    const rank = dayCounts.get(rec.day) || 0;
    dayCounts.set(rec.day, rank + 1);
    place(rec, rank);
    indexOf.set(rec.id, records.length);
    records.push(rec);
    return records.length - 1;
  }

  function rankCandidates() {
    candidates = records.map((_, n) => n).sort((a, b) => {
      const diff = major(records[b]) - major(records[a]);
      if (diff !== 0) return diff;
      return records[a].id < records[b].id ? -1 : records[a].id > records[b].id ? 1 : 0;
    }).slice(0, LABELS);
  }

  function digest() {
    const sums = { Sh: 0, Sh2: 0, Sx: 0, Sz: 0, Sxh: 0, Szh: 0 };
    let brushedCount = 0;
    for (const rec of records) {
      sums.Sh += rec.h;
      sums.Sh2 += rec.h * rec.h;
      sums.Sx += rec.x;
      sums.Sz += rec.z;
      sums.Sxh += rec.x * rec.h;
      sums.Szh += rec.z * rec.h;
      if (brush.has(rec.id)) brushedCount += 1;
    }
    const out = { count: records.length };
    for (const [key, value] of Object.entries(sums)) out[key] = Math.round(value * 1e4) / 1e4;
    out.brushedCount = brushedCount;
    return out;
  }

  // ---- camera: the printed projection ------------------------------------------------
  const camera = { yaw: HOME.yaw, pitch: HOME.pitch, distance: HOME.distance, vyaw: 0, vpitch: 0 };
  let coast = null; // {t0, yaw0, pitch0, vyaw0, vpitch0, pitchHeld}

  function view() {
    const th = (camera.yaw * Math.PI) / 180;
    const ph = (camera.pitch * Math.PI) / 180;
    const d = camera.distance;
    const eye = [d * Math.cos(ph) * Math.sin(th), 1 + d * Math.sin(ph), d * Math.cos(ph) * Math.cos(th)];
    const f = norm([-eye[0], 1 - eye[1], -eye[2]]);
    const r = norm([-f[2], 0, f[0]]);
    const u = [r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]];
    return { eye, f, r, u };
  }

  function norm(v) {
    const l = Math.hypot(v[0], v[1], v[2]);
    return [v[0] / l, v[1] / l, v[2] / l];
  }

  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

  function cssSize() {
    return { w: canvas.clientWidth || 1, h: canvas.clientHeight || 1 };
  }

  function project(x, y, z) {
    const { eye, f, r, u } = view();
    const q = [x - eye[0], y - eye[1], z - eye[2]];
    const zc = dot(q, f);
    if (zc <= NEAR) return null;
    const { w, h } = cssSize();
    const ndcx = ((K / (w / h)) * dot(q, r)) / zc;
    const ndcy = (K * dot(q, u)) / zc;
    return { sx: ((ndcx + 1) / 2) * w, sy: ((1 - ndcy) / 2) * h };
  }

  /** The clip matrix (column-major) of exactly the projection above. */
  function clipMatrix() {
    const { eye, f, r, u } = view();
    const { w, h } = cssSize();
    const a = K / (w / h);
    const A = (FAR + NEAR) / (FAR - NEAR);
    const B = (2 * FAR * NEAR) / (FAR - NEAR);
    const rows = [
      [a * r[0], a * r[1], a * r[2], -a * dot(r, eye)],
      [K * u[0], K * u[1], K * u[2], -K * dot(u, eye)],
      [A * f[0], A * f[1], A * f[2], -A * dot(f, eye) - B],
      [f[0], f[1], f[2], -dot(f, eye)],
    ];
    const m = new Float32Array(16);
    for (let c = 0; c < 4; c += 1) for (let k = 0; k < 4; k += 1) m[c * 4 + k] = rows[k][c];
    return m;
  }

  function moveCamera(yaw, pitch, distance) {
    camera.yaw = yaw;
    camera.pitch = clamp(pitch, PITCH_LIMITS[0], PITCH_LIMITS[1]);
    camera.distance = clamp(distance, DISTANCE_LIMITS[0], DISTANCE_LIMITS[1]);
    invalidate();
  }

  function stopCoast() {
    coast = null;
    camera.vyaw = 0;
    camera.vpitch = 0;
  }

  /** Advances the coast to `now` by the closed form; ends it (at its asymptote) once both
   * speeds fall under 2 deg/s, so the pose at rest is exactly yaw0 + v0 tau. */
  function stepCoast(now) {
    if (!coast) return;
    const t = Math.max(0, (now - coast.t0) / 1000);
    const decay = Math.exp(-t / TAU);
    const travelled = TAU * (1 - decay);
    let pitch = coast.pitch0 + coast.vpitch0 * travelled;
    let vpitch = coast.vpitch0 * decay;
    if (coast.pitchHeld !== null || pitch <= PITCH_LIMITS[0] || pitch >= PITCH_LIMITS[1]) {
      if (coast.pitchHeld === null) coast.pitchHeld = clamp(pitch, PITCH_LIMITS[0], PITCH_LIMITS[1]);
      pitch = coast.pitchHeld;
      vpitch = 0;
    }
    const vyaw = coast.vyaw0 * decay;
    if ((Math.abs(vyaw) < REST_SPEED && Math.abs(vpitch) < REST_SPEED) || t >= COAST_CAP_S) {
      const restPitch = coast.pitchHeld ?? coast.pitch0 + coast.vpitch0 * TAU;
      moveCamera(coast.yaw0 + coast.vyaw0 * TAU, restPitch, camera.distance);
      stopCoast();
      return;
    }
    moveCamera(coast.yaw0 + coast.vyaw0 * travelled, pitch, camera.distance);
    camera.vyaw = vyaw;
    camera.vpitch = vpitch;
  }

  // ---- WebGL ---------------------------------------------------------------------------
  // One vertex shader for both GLSL versions: IN/OUT are its qualifiers. It mirrors each
  // column so that its +x and +z sides face the eye, and passes both the visible colour
  // (top, side = 0.55, dim = 0.30, rounded per channel as the spec prints) and the identity.
  const VERTEX = `
    IN vec4 a_pos;
    IN vec3 a_inst;
    IN vec4 a_colour;
    IN vec4 a_ident;
    uniform mat4 u_clip;
    uniform vec2 u_eye;
    uniform float u_dim;
    OUT vec4 v_colour;
    OUT vec4 v_ident;
    vec3 scaled(vec3 c, float by) { return floor(c * 255.0 * by + 0.5) / 255.0; }
    void main() {
      vec2 toward = step(a_inst.xy, u_eye) * 2.0 - 1.0;
      vec3 p = vec3(a_inst.x + a_pos.x * toward.x * 0.9, a_pos.y * a_inst.z, a_inst.y + a_pos.z * toward.y * 0.9);
      gl_Position = u_clip * vec4(p, 1.0);
      vec3 base = a_colour.a > 0.5 || u_dim < 0.5 ? a_colour.rgb : scaled(a_colour.rgb, 0.3);
      v_colour = vec4(a_pos.w > 0.5 ? scaled(base, 0.55) : base, 1.0);
      v_ident = vec4(a_ident.rgb, 1.0);
    }`;
  const GLSL1 = {
    vertex: `#define IN attribute\n#define OUT varying\n${VERTEX}`,
    fragment: `precision highp float;
      varying vec4 v_colour;
      varying vec4 v_ident;
      uniform float u_pick;
      void main() { gl_FragColor = u_pick > 0.5 ? v_ident : v_colour; }`,
  };
  // WebGL2 draws the columns once per frame into two attachments at the same time (the
  // visible colours and the identities, sharing one depth buffer): the identity attachment
  // IS the pick buffer, refreshed by the frame's own draw, and a full-screen triangle copies
  // the colours to the canvas texel for texel.
  const GLSL3 = {
    vertex: `#version 300 es\n#define IN in\n#define OUT out\n${VERTEX}`,
    fragment: `#version 300 es
      precision highp float;
      in vec4 v_colour;
      in vec4 v_ident;
      layout(location = 0) out vec4 o_colour;
      layout(location = 1) out vec4 o_ident;
      void main() { o_colour = v_colour; o_ident = v_ident; }`,
  };
  const COPY = {
    vertex: `#version 300 es
      void main() {
        gl_Position = vec4(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0, 0.0, 1.0);
      }`,
    fragment: `#version 300 es
      precision highp float;
      uniform sampler2D u_colour;
      out vec4 o_colour;
      void main() { o_colour = texelFetch(u_colour, ivec2(gl_FragCoord.xy), 0); }`,
  };

  let canvas = null;
  let labelLayer = null;
  let gl = null;
  let glx = null; // {drawInstanced, divisor, gl2}
  let prog = null;
  let copyProg = null;
  let sceneVao = null;
  let loc = null;
  let meshIndices = 0;
  let instanceBuffer = null;
  let instanceBytes = null; // ArrayBuffer mirror of the GPU buffer
  let capacity = 0;
  let pickTarget = null;
  let labelPixels = null; // WebGL2: the pixel-pack buffer the labels' reads land in
  let labelRead = null; // {fence, spots, stamp}: reads the GPU has not finished yet
  let labelPolling = false; // {fb, tex, depth, w, h}
  let sceneStamp = 1;
  let pickStamp = 0;
  let dirty = false;
  let drawable = false; // the first answer is in: no frame before it (it would show nothing)
  let framePending = false;
  let frames = 0;
  const pixel = new Uint8Array(4);

  function openContext() {
    const attrs = { antialias: false, alpha: false };
    const gl2 = canvas.getContext("webgl2", attrs);
    if (gl2) {
      glx = {
        gl2: true,
        drawInstanced: (count, n) => gl2.drawElementsInstanced(gl2.TRIANGLES, count, gl2.UNSIGNED_BYTE, 0, n),
        divisor: (l, d) => gl2.vertexAttribDivisor(l, d),
      };
      return gl2;
    }
    const gl1 = canvas.getContext("webgl", attrs);
    const ext = gl1 && gl1.getExtension("ANGLE_instanced_arrays");
    if (!ext) return null;
    glx = {
      gl2: false,
      drawInstanced: (count, n) => ext.drawElementsInstancedANGLE(gl1.TRIANGLES, count, gl1.UNSIGNED_BYTE, 0, n),
      divisor: (l, d) => ext.vertexAttribDivisorANGLE(l, d),
    };
    return gl1;
  }

  function link(sources) {
    const program = gl.createProgram();
    for (const [type, source] of [[gl.VERTEX_SHADER, sources.vertex], [gl.FRAGMENT_SHADER, sources.fragment]]) {
      const shader = gl.createShader(type);
      gl.shaderSource(shader, source);
      gl.compileShader(shader);
      gl.attachShader(program, shader);
    }
    gl.linkProgram(program);
    return gl.getProgramParameter(program, gl.LINK_STATUS) ? program : null;
  }

  /** A column of footprint 1 x 1 and height 1 standing on y = 0, as the three faces that
   * can face the eye: the top and the +x and +z sides. The vertex shader mirrors each
   * column so that its sides face the eye (the eye is always above y = 0, so the other
   * three faces are never seen): 6 triangles per column instead of 10 or 12. Each corner is
   * (x, y, z, side). */
  function columnMesh() {
    const corners = [];
    const triangles = [];
    const face = (quad, side) => {
      const at = corners.length / 4;
      for (const p of quad) corners.push(p[0], p[1], p[2], side);
      triangles.push(at, at + 1, at + 2, at, at + 2, at + 3);
    };
    const s = 0.5;
    face([[-s, 1, -s], [-s, 1, s], [s, 1, s], [s, 1, -s]], 0);
    face([[-s, 0, s], [s, 0, s], [s, 1, s], [-s, 1, s]], 1);
    face([[s, 0, s], [s, 0, -s], [s, 1, -s], [s, 1, s]], 1);
    return { corners: new Float32Array(corners), triangles: new Uint8Array(triangles) };
  }

  function initGL() {
    gl = openContext();
    if (!gl) return false;
    gl.disable(gl.DITHER);
    gl.enable(gl.DEPTH_TEST);
    prog = link(glx.gl2 ? GLSL3 : GLSL1);
    copyProg = glx.gl2 ? link(COPY) : null;
    if (!prog || (glx.gl2 && !copyProg)) return false;
    gl.useProgram(prog);
    loc = {};
    for (const name of ["a_pos", "a_inst", "a_colour", "a_ident"]) loc[name] = gl.getAttribLocation(prog, name);
    for (const name of ["u_clip", "u_eye", "u_pick", "u_dim"]) loc[name] = gl.getUniformLocation(prog, name);
    if (glx.gl2) {
      labelPixels = gl.createBuffer();
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, labelPixels);
      gl.bufferData(gl.PIXEL_PACK_BUFFER, LABELS * 4, gl.STREAM_READ);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
      sceneVao = gl.createVertexArray();
      gl.bindVertexArray(sceneVao);
    }

    const mesh = columnMesh();
    gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
    gl.bufferData(gl.ARRAY_BUFFER, mesh.corners, gl.STATIC_DRAW);
    gl.enableVertexAttribArray(loc.a_pos);
    gl.vertexAttribPointer(loc.a_pos, 4, gl.FLOAT, false, 16, 0);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, gl.createBuffer());
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, mesh.triangles, gl.STATIC_DRAW);
    meshIndices = mesh.triangles.length;

    instanceBuffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, instanceBuffer);
    const perInstance = [["a_inst", 3, gl.FLOAT, false, 0], ["a_colour", 4, gl.UNSIGNED_BYTE, true, 12],
      ["a_ident", 4, gl.UNSIGNED_BYTE, true, 16]];
    for (const [name, size, type, normalized, offset] of perInstance) {
      gl.enableVertexAttribArray(loc[name]);
      gl.vertexAttribPointer(loc[name], size, type, normalized, STRIDE, offset);
      glx.divisor(loc[name], 1);
    }
    return true;
  }

  /** Writes record n's bytes into the CPU mirror (position, height, status, identity,
   * brush flag), identity = n + 1 in r, g, b. */
  function encode(n) {
    const rec = records[n];
    const f = new Float32Array(instanceBytes, n * STRIDE, 3);
    f[0] = rec.x;
    f[1] = rec.z;
    f[2] = rec.h;
    const b = new Uint8Array(instanceBytes, n * STRIDE + 12, 8);
    const top = TOP[rec.status] || TOP.failed;
    const idNum = n + 1;
    b.set([top[0], top[1], top[2], brush.has(rec.id) ? 255 : 0, idNum & 255, (idNum >> 8) & 255, (idNum >> 16) & 255, 0]);
  }

  /** Allocates the instance buffer with room for HEADROOM streamed creates and uploads
   * everything: on load, and only again if the stream ever outgrows the room. */
  function uploadAll() {
    capacity = records.length + HEADROOM;
    instanceBytes = new ArrayBuffer(capacity * STRIDE);
    for (let n = 0; n < records.length; n += 1) encode(n);
    if (!gl) return;
    gl.bindBuffer(gl.ARRAY_BUFFER, instanceBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, new Uint8Array(instanceBytes), gl.DYNAMIC_DRAW);
  }

  /** Uploads bytes [from, to) of the mirror: a record, or its brush byte. */
  function uploadRange(from, to) {
    if (!gl) return;
    gl.bindBuffer(gl.ARRAY_BUFFER, instanceBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, from, new Uint8Array(instanceBytes, from, to - from));
  }

  function uploadRecord(n) {
    if (n >= capacity) {
      uploadAll();
      return;
    }
    encode(n);
    uploadRange(n * STRIDE, (n + 1) * STRIDE);
  }

  function uploadBrushFlag(n) {
    const at = n * STRIDE + BRUSH_BYTE;
    new Uint8Array(instanceBytes)[at] = brush.has(records[n].id) ? 255 : 0;
    uploadRange(at, at + 1);
  }

  function deviceSize() {
    const dpr = window.devicePixelRatio || 1;
    return { w: Math.max(1, Math.round(canvas.clientWidth * dpr)), h: Math.max(1, Math.round(canvas.clientHeight * dpr)), dpr };
  }

  function fitCanvas() {
    const { w, h } = deviceSize();
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
      invalidate();
    }
  }

  function attachTexture(texture, attachment, w, h) {
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, w, h, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, attachment, gl.TEXTURE_2D, texture, 0);
  }

  /** The offscreen target, sized to the drawing buffer: identities (the pick buffer, RGBA8)
   * and 24-bit depth, plus the visible colours on WebGL2. No multisampling. */
  function ensureTarget() {
    const w = canvas.width;
    const h = canvas.height;
    if (pickTarget && pickTarget.w === w && pickTarget.h === h) return;
    if (!pickTarget) {
      pickTarget = { fb: gl.createFramebuffer(), ident: gl.createTexture(), colour: gl.createTexture(), depth: gl.createRenderbuffer() };
    }
    pickTarget.w = w;
    pickTarget.h = h;
    gl.bindFramebuffer(gl.FRAMEBUFFER, pickTarget.fb);
    if (glx.gl2) {
      attachTexture(pickTarget.colour, gl.COLOR_ATTACHMENT0, w, h);
      attachTexture(pickTarget.ident, gl.COLOR_ATTACHMENT1, w, h);
      gl.drawBuffers([gl.COLOR_ATTACHMENT0, gl.COLOR_ATTACHMENT1]);
      gl.readBuffer(gl.COLOR_ATTACHMENT1);
    } else {
      attachTexture(pickTarget.ident, gl.COLOR_ATTACHMENT0, w, h);
    }
    gl.bindRenderbuffer(gl.RENDERBUFFER, pickTarget.depth);
    gl.renderbufferStorage(gl.RENDERBUFFER, glx.gl2 ? gl.DEPTH_COMPONENT24 : gl.DEPTH_STENCIL, w, h);
    gl.framebufferRenderbuffer(gl.FRAMEBUFFER, glx.gl2 ? gl.DEPTH_ATTACHMENT : gl.DEPTH_STENCIL_ATTACHMENT, gl.RENDERBUFFER, pickTarget.depth);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }

  /** One instanced draw of every record into the bound framebuffer, after clearing it. */
  function drawColumns(pick) {
    gl.viewport(0, 0, canvas.width, canvas.height);
    const bg = [BACKGROUND[0] / 255, BACKGROUND[1] / 255, BACKGROUND[2] / 255, 1];
    if (glx.gl2 && pick) {
      gl.clearBufferfv(gl.COLOR, 0, bg);
      gl.clearBufferfv(gl.COLOR, 1, [0, 0, 0, 0]);
      gl.clear(gl.DEPTH_BUFFER_BIT);
    } else {
      gl.clearColor(...(pick ? [0, 0, 0, 0] : bg));
      gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    }
    if (!records.length) return;
    gl.useProgram(prog);
    if (sceneVao) gl.bindVertexArray(sceneVao);
    gl.uniformMatrix4fv(loc.u_clip, false, clipMatrix());
    const { eye } = view();
    gl.uniform2f(loc.u_eye, eye[0], eye[2]);
    gl.uniform1f(loc.u_pick, pick ? 1 : 0);
    gl.uniform1f(loc.u_dim, brush.size > 0 ? 1 : 0);
    glx.drawInstanced(meshIndices, records.length);
  }

  /** Draws the offscreen target (the pick buffer) under the current camera and data. */
  function drawTarget() {
    ensureTarget();
    gl.bindFramebuffer(gl.FRAMEBUFFER, pickTarget.fb);
    drawColumns(true);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    pickStamp = sceneStamp;
  }

  /** Redraws the pick buffer if the scene changed since it was last drawn. */
  function refreshPick() {
    if (pickStamp !== sceneStamp) drawTarget();
  }

  /** The raw pick-buffer bytes under CSS pixel (sx, sy), or null off the canvas. */
  function readPick(sx, sy) {
    if (!gl) return null;
    fitCanvas();
    const { dpr } = deviceSize();
    const px = Math.round(sx * dpr);
    const py = canvas.height - 1 - Math.round(sy * dpr);
    if (!(px >= 0 && py >= 0 && px < canvas.width && py < canvas.height)) return null;
    refreshPick();
    gl.bindFramebuffer(gl.FRAMEBUFFER, pickTarget.fb);
    gl.readPixels(px, py, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    return [pixel[0], pixel[1], pixel[2], pixel[3]];
  }

  function pick(sx, sy) {
    const raw = readPick(sx, sy);
    return raw ? decode(raw) : null;
  }

  /** {id, index} of the record whose identity colour is `raw`, or null (background). */
  function decode(raw) {
    const idNum = raw[0] + 256 * raw[1] + 65536 * raw[2];
    if (idNum === 0 || idNum > records.length) return null;
    return { id: records[idNum - 1].id, index: idNum - 1 };
  }

  function invalidate() {
    sceneStamp += 1;
    requestDraw();
  }

  function requestDraw() {
    dirty = true;
    if (framePending || !gl || !drawable) return;
    framePending = true;
    requestAnimationFrame(onFrame);
  }

  /** Draws now what a discrete change (wheel, double-click, release, brush, stream batch)
   * asked for, instead of at the next animation frame: a read of the canvas right after
   * the change then waits for this frame's GPU work and sees it, however slow the GPU. */
  function drawNow() {
    if (gl && drawable && dirty) draw(false);
  }

  function onFrame() {
    framePending = false;
    stepCoast(performance.now());
    if (dirty) draw();
    if (coast) requestDraw();
  }

  /** One visible frame (one draw to the canvas), then the labels over it. */
  function draw(wait) {
    dirty = false;
    fitCanvas();
    if (glx.gl2) {
      drawTarget();
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.viewport(0, 0, canvas.width, canvas.height);
      gl.clear(gl.DEPTH_BUFFER_BIT); // a preserved drawing buffer keeps last frame's depth
      gl.useProgram(copyProg);
      gl.bindVertexArray(null);
      gl.bindTexture(gl.TEXTURE_2D, pickTarget.colour);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
    } else {
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      drawColumns(false);
    }
    frames += 1;
    placeLabels(wait);
  }

  // ---- labels --------------------------------------------------------------------------
  const labelNodes = new Map(); // n -> element

  function money(rec) {
    const exp = EXPONENT[rec.currency] ?? 2;
    const value = rec.amount_minor / 10 ** exp;
    try {
      return new Intl.NumberFormat(undefined, {
        style: "currency", currency: rec.currency, minimumFractionDigits: exp, maximumFractionDigits: exp,
      }).format(value);
    } catch (err) {
      return `${rec.currency} ${value.toFixed(exp)}`;
    }
  }

  function labelNode(n) {
    let node = labelNodes.get(n);
    if (node) return node;
    node = document.createElement("div");
    node.className = "viz-label";
    labelLayer.appendChild(node);
    labelNodes.set(n, node);
    return node;
  }

  /** The greedy cull of section 8.5, through this page's own pick buffer. */
  function placeLabels(wait) {
    const { w, h } = cssSize();
    const spots = [];
    for (const n of candidates) {
      const rec = records[n];
      const a = project(rec.x, rec.h, rec.z);
      if (a && a.sx >= 0 && a.sy >= 0 && a.sx < w && a.sy < h) spots.push({ n, a });
    }
    if (wait || !glx.gl2) {
      if (labelRead) gl.deleteSync(labelRead.fence);
      labelRead = null; // what an earlier frame queued is older than this
      showLabels(spots, spots.map((spot) => pick(spot.a.sx, spot.a.sy)));
    } else {
      readLabelsLater(spots);
    }
  }

  /** Queues the anchors' pick-buffer reads into a pixel-pack buffer and places the labels
   * once the GPU is done, so that a drawn frame never blocks input waiting for it (only
   * the latest frame's reads are kept; a result the camera has outdated since is dropped:
   * the next frame, already asked for, queues its own). vs7dbg.setCamera places them at
   * once instead. */
  function readLabelsLater(spots) {
    refreshPick();
    const { dpr } = deviceSize();
    gl.bindFramebuffer(gl.FRAMEBUFFER, pickTarget.fb);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, labelPixels);
    spots.forEach((spot, i) => {
      const px = Math.round(spot.a.sx * dpr);
      const py = canvas.height - 1 - Math.round(spot.a.sy * dpr);
      gl.readPixels(px, py, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, i * 4);
    });
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    if (labelRead) gl.deleteSync(labelRead.fence);
    labelRead = { fence: gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0), spots, stamp: sceneStamp };
    gl.flush();
    if (!labelPolling) pollLabels();
  }

  function pollLabels() {
    labelPolling = false;
    if (!labelRead) return;
    if (gl.clientWaitSync(labelRead.fence, 0, 0) === gl.TIMEOUT_EXPIRED) {
      labelPolling = true;
      setTimeout(pollLabels, 8);
      return;
    }
    const { fence, spots, stamp } = labelRead;
    labelRead = null;
    gl.deleteSync(fence);
    if (stamp !== sceneStamp) return;
    const bytes = new Uint8Array(Math.max(4, spots.length * 4));
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, labelPixels);
    gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, bytes);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    showLabels(spots, spots.map((_, i) => decode([bytes[i * 4], bytes[i * 4 + 1], bytes[i * 4 + 2]])));
  }

  /** The greedy cull of section 8.5 over the anchors inside the canvas and what the pick
   * buffer holds at each (`hits`, in candidate order). */
  function showLabels(spots, hits) {
    const shown = [];
    const canvasBox = canvas.getBoundingClientRect();
    const layerBox = labelLayer.getBoundingClientRect();
    const dx = canvasBox.left - layerBox.left + canvas.clientLeft;
    const dy = canvasBox.top - layerBox.top + canvas.clientTop;
    const keep = new Set();
    spots.forEach(({ n, a }, i) => {
      if (!hits[i] || hits[i].index !== n) return;
      const box = { x: a.sx + 10, y: a.sy - 9 };
      const overlaps = shown.some((o) =>
        Math.min(o.x, box.x) + LABEL_W - Math.max(o.x, box.x) >= 1
        && Math.min(o.y, box.y) + LABEL_H - Math.max(o.y, box.y) >= 1);
      if (overlaps) return;
      shown.push(box);
      keep.add(n);
      const rec = records[n];
      const node = labelNode(n);
      node.dataset.id = rec.id;
      node.textContent = `${money(rec)} · ${rec.status}`;
      node.style.left = `${box.x + dx}px`;
      node.style.top = `${box.y + dy}px`;
      node.hidden = false;
    });
    for (const [n, node] of labelNodes) if (!keep.has(n)) node.hidden = true;
  }

  // ---- the brush -----------------------------------------------------------------------
  function announce(toggled, source) {
    const ids = [...brush].sort();
    document.dispatchEvent(new CustomEvent("vs7:brush", { detail: { ids, toggled, source } }));
  }

  function toggle(id, source) {
    const wasEmpty = brush.size === 0;
    if (brush.has(id)) brush.delete(id);
    else brush.add(id);
    const n = indexOf.get(id);
    if (n !== undefined && instanceBytes) uploadBrushFlag(n);
    if (wasEmpty !== (brush.size === 0) || n !== undefined) requestDraw();
    drawNow();
    announce(id, source);
  }

  function clearBrush() {
    const members = [...brush];
    brush.clear();
    for (const id of members) {
      const n = indexOf.get(id);
      if (n !== undefined && instanceBytes) uploadBrushFlag(n);
    }
    if (members.length) requestDraw();
    drawNow();
    announce(null, "clear");
  }

  // ---- input ---------------------------------------------------------------------------
  let press = null; // {x, y, t, id}
  let moves = []; // the last two pointermoves of the drag: {x, y, t}

  function local(event) {
    const box = canvas.getBoundingClientRect();
    return { sx: event.clientX - box.left - canvas.clientLeft, sy: event.clientY - box.top - canvas.clientTop };
  }

  function onPointerDown(event) {
    if (event.button !== 0) return;
    stopCoast();
    press = { x: event.clientX, y: event.clientY, t: event.timeStamp, id: event.pointerId };
    moves = [{ x: event.clientX, y: event.clientY, t: event.timeStamp }];
    try {
      canvas.setPointerCapture(event.pointerId); // a drag may leave the canvas
    } catch (err) {
      // not an active pointer (a synthetic event): the drag still works inside the canvas
    }
  }

  /** Rotates by the move, and keeps the last two raw moves (the browser may coalesce
   * several into one event while a frame is busy; the coast's rate needs the real ones). */
  function onPointerMove(event) {
    if (!press || event.pointerId !== press.id) return;
    const raw = (event.getCoalescedEvents && event.getCoalescedEvents()) || [];
    for (const move of raw.length ? raw : [event]) {
      const last = moves[moves.length - 1];
      const dx = move.clientX - last.x;
      const dy = move.clientY - last.y;
      moves = [last, { x: move.clientX, y: move.clientY, t: move.timeStamp }];
      if (dx !== 0 || dy !== 0) {
        moveCamera(camera.yaw - DEG_PER_PX * dx, camera.pitch + DEG_PER_PX * dy, camera.distance);
      }
    }
  }

  function onPointerUp(event) {
    if (!press || event.pointerId !== press.id) return;
    const down = press;
    press = null;
    const travelled = Math.hypot(event.clientX - down.x, event.clientY - down.y);
    if (travelled <= CLICK_PX && event.timeStamp - down.t <= CLICK_MS) click(local(event));
    else release();
    drawNow();
  }

  /** Starts the coast from the rate of the drag's last two moves (deg/s). */
  function release() {
    if (moves.length < 2) return;
    const [a, b] = moves;
    const dt = (b.t - a.t) / 1000;
    if (dt <= 0) return;
    const vyaw = (-DEG_PER_PX * (b.x - a.x)) / dt;
    const vpitch = (DEG_PER_PX * (b.y - a.y)) / dt;
    if (Math.abs(vyaw) < REST_SPEED && Math.abs(vpitch) < REST_SPEED) return;
    coast = { t0: performance.now(), yaw0: camera.yaw, pitch0: camera.pitch, vyaw0: vyaw, vpitch0: vpitch, pitchHeld: null };
    camera.vyaw = vyaw;
    camera.vpitch = vpitch;
    requestDraw();
  }

  function click(at) {
    const hit = pick(at.sx, at.sy);
    if (hit) toggle(hit.id, "field");
    else clearBrush();
  }

  function onWheel(event) {
    event.preventDefault();
    moveCamera(camera.yaw, camera.pitch, camera.distance * Math.exp(0.0012 * event.deltaY));
    drawNow();
  }

  function onDoubleClick() {
    stopCoast();
    moveCamera(HOME.yaw, HOME.pitch, HOME.distance);
    drawNow();
  }

  // ---- loading and the stream ----------------------------------------------------------
  let loaded = false;
  let pending = []; // batches that arrived before the first answer
  let retryTimer = null;
  let inflight = null;
  let reloadAfter = false;

  function showState(state) {
    $("viz-error").hidden = state !== "error";
    $("viz-empty").hidden = state !== "empty";
    const status = $("viz-status");
    if (status) {
      status.hidden = state !== "loading" && state !== "nogl";
      if (state === "nogl") status.textContent = "3D view is not available in this browser; the table below has every payment.";
    }
    if (canvas) canvas.hidden = state === "nogl";
  }

  /** Fetches the records once at a time; a batch that arrives meanwhile on a page that
   * has drawn nothing yet asks for one more fetch (the answer may predate it). */
  function load() {
    if (inflight) {
      reloadAfter = true;
      return inflight;
    }
    reloadAfter = false;
    inflight = fetchRecords().finally(() => {
      inflight = null;
      if (reloadAfter && !loaded) load();
    });
    return inflight;
  }

  async function fetchRecords() {
    let answer;
    try {
      const response = await fetch("/api/viz/records");
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      answer = await response.json();
    } catch (err) {
      if (!loaded) {
        showState("error");
        clearTimeout(retryTimer);
        retryTimer = setTimeout(load, 5000); // until it answers: never a spinner forever
      }
      return;
    }
    if (!loaded) {
      drawable = true;
      if (answer.count === 0) {
        showState(gl ? "empty" : "nogl");
        requestDraw();
        return;
      }
      fixBasis(answer);
      for (let i = 0; i < answer.count; i += 1) append(row(answer, i));
      loaded = true;
      rankCandidates();
      uploadAll();
      showState(gl ? "ready" : "nogl");
      const queued = pending;
      pending = [];
      for (const batch of queued) apply(batch);
      invalidate();
      return;
    }
    apply(answer.id.map((_, i) => row(answer, i))); // a reconnect: catch up as a diff
  }

  /** Applies changed records: an update rewrites its record's bytes, a create appends. */
  function apply(changed) {
    let touched = false;
    let created = false;
    for (const rec of changed) {
      const n = indexOf.get(rec.id);
      if (n === undefined) {
        uploadRecord(append(rec));
        created = true;
        touched = true;
        continue;
      }
      const old = records[n];
      if (rec.version <= old.version) continue;
      Object.assign(old, { amount_minor: rec.amount_minor, currency: rec.currency, status: rec.status, version: rec.version });
      old.h = clamp(0.9 + 0.55 * Math.log10(major(old)), 0.2, 4.2);
      uploadRecord(n);
      touched = true;
    }
    if (created) rankCandidates();
    if (touched) invalidate();
    drawNow();
  }

  function onStream(event) {
    let batch;
    try {
      batch = JSON.parse(event.data);
    } catch (err) {
      return;
    }
    if (!Array.isArray(batch.records)) return;
    if (loaded) apply(batch.records);
    else {
      pending.push(batch.records);
      load();
    }
  }

  function listen() {
    if (!window.EventSource) return;
    const source = new EventSource("/api/stream");
    let opened = 0;
    source.onmessage = onStream;
    source.onopen = () => {
      opened += 1;
      if (opened > 1 && loaded) load(); // changes made while disconnected
    };
  }

  // ---- the page ------------------------------------------------------------------------
  /** index.html gives the stage (#viz3d, #viz-labels, the three messages) and styles.css
   * every box in it, the labels' 110 x 18 included; this file only draws and places. */
  function start() {
    canvas = $("viz3d");
    labelLayer = $("viz-labels");
    document.addEventListener("vs7:brush-toggle", (event) => toggle(event.detail.id, "table"));
    document.addEventListener("vs7:synced", () => { if (!loaded) load(); });
    if (initGL()) {
      canvas.addEventListener("pointerdown", onPointerDown);
      canvas.addEventListener("pointermove", onPointerMove);
      canvas.addEventListener("pointerup", onPointerUp);
      canvas.addEventListener("pointercancel", () => { press = null; });
      canvas.addEventListener("wheel", onWheel, { passive: false });
      canvas.addEventListener("dblclick", onDoubleClick);
      new ResizeObserver(() => invalidate()).observe(canvas);
    } else {
      gl = null;
      showState("nogl");
    }
    showState(gl ? "loading" : "nogl");
    listen();
    load();
  }

  window.vs7dbg = {
    layout: () => (basis ? { ...basis } : null),
    sceneDigest: digest,
    camera: () => ({ ...camera }),
    setCamera(yaw, pitch, distance) {
      stopCoast();
      moveCamera(yaw, pitch, distance);
      if (gl && drawable) draw(true);
    },
    pick,
    pickPixel: (sx, sy) => readPick(sx, sy),
    brush: () => [...brush].sort(),
    frames: () => frames,
    project: (x, y, z) => project(x, y, z),
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
