"""The script injected into every document before any of the app's own scripts run.

It installs, in each frame, a read-only ``window.__benchwright__`` whose
``snapshot()`` the probe reads back: the first visible row's time, WebGL contexts
with their draw calls per entry point, and how many WebGL contexts were refused.
Times are ``performance.now()`` milliseconds, whose origin is the navigation start.
"""

from __future__ import annotations

import json
from typing import Any

PAGE_SCRIPT = r"""
(config) => {
  if (Object.prototype.hasOwnProperty.call(window, "__benchwright__")) return;
  const now = () => performance.now();
  const state = { firstRowMs: null, firstRowEpochMs: null, contexts: [], refused: 0 };

  // (a) The first visible row: a MutationObserver over the whole document, plus a check
  // on every animation frame for rows that become visible without a DOM mutation.
  const visible = (el) => {
    if (typeof el.checkVisibility === "function"
        && !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  if (config.rowSelector) {
    let observer = null;
    const look = () => {
      if (state.firstRowMs !== null) return true;
      let rows;
      try { rows = document.querySelectorAll(config.rowSelector); } catch (e) { return true; }
      for (const row of rows) {
        if (visible(row)) {
          state.firstRowMs = now();
          state.firstRowEpochMs = Date.now();
          if (observer) observer.disconnect();
          return true;
        }
      }
      return false;
    };
    observer = new MutationObserver(look);
    observer.observe(document, {
      childList: true, subtree: true, attributes: true, characterData: true,
    });
    const frame = () => { if (!look()) requestAnimationFrame(frame); };
    requestAnimationFrame(frame);
  }

  // (c) WebGL: contexts are registered by a getContext wrapper; draw calls are counted
  // per context and per entry point by wrapping the prototypes' draw methods.
  const WEBGL = new Set(["webgl", "webgl2", "experimental-webgl", "experimental-webgl2"]);
  const records = new WeakMap();
  const owners = new WeakMap();  // extension object -> its context
  const record = (gl, kind, canvas) => {
    let rec = records.get(gl);
    if (!rec) {
      rec = { index: state.contexts.length, kind: kind,
              canvas: canvas && canvas.id ? canvas.id : null,
              createdMs: now(), firstDrawMs: null, calls: {} };
      state.contexts.push(rec);
      records.set(gl, rec);
    }
    return rec;
  };
  const count = (gl, name) => {
    const rec = records.get(gl) || record(gl, "unknown", null);
    rec.calls[name] = (rec.calls[name] || 0) + 1;
    if (rec.firstDrawMs === null) rec.firstDrawMs = now();
  };
  const wrapDraws = (proto, names, ownerOf) => {
    if (!proto) return;
    for (const name of names) {
      const original = proto[name];
      if (typeof original !== "function") continue;
      Object.defineProperty(proto, name, {
        configurable: true, writable: true,
        value: function (...args) {
          count(ownerOf(this), name);
          return original.apply(this, args);
        },
      });
    }
  };
  const self = (gl) => gl;
  wrapDraws(window.WebGLRenderingContext && WebGLRenderingContext.prototype,
            ["drawArrays", "drawElements"], self);
  wrapDraws(window.WebGL2RenderingContext && WebGL2RenderingContext.prototype,
            ["drawArrays", "drawElements", "drawArraysInstanced", "drawElementsInstanced",
             "drawRangeElements"], self);
  const EXTENSION_DRAWS = {
    ANGLE_instanced_arrays: ["drawArraysInstancedANGLE", "drawElementsInstancedANGLE"],
    WEBGL_multi_draw: ["multiDrawArraysWEBGL", "multiDrawElementsWEBGL",
                       "multiDrawArraysInstancedWEBGL", "multiDrawElementsInstancedWEBGL"],
  };
  const wrappedExtensions = new WeakSet();
  for (const Ctx of [window.WebGLRenderingContext, window.WebGL2RenderingContext]) {
    if (!Ctx) continue;
    const getExtension = Ctx.prototype.getExtension;
    Ctx.prototype.getExtension = function (name) {
      const ext = getExtension.call(this, name);
      const names = EXTENSION_DRAWS[name];
      if (ext && names) {
        owners.set(ext, this);
        const proto = Object.getPrototypeOf(ext);
        if (!wrappedExtensions.has(proto)) {
          wrappedExtensions.add(proto);
          wrapDraws(proto, names, (e) => owners.get(e) || e);
        }
      }
      return ext;
    };
  }
  const WEBGL_KIND = { "webgl": "webgl", "experimental-webgl": "webgl",
                       "webgl2": "webgl2", "experimental-webgl2": "webgl2" };
  for (const Canvas of [window.HTMLCanvasElement, window.OffscreenCanvas]) {
    if (!Canvas) continue;
    const getContext = Canvas.prototype.getContext;
    Canvas.prototype.getContext = function (type, ...rest) {
      const webgl = WEBGL.has(String(type).toLowerCase());
      if (webgl && config.disableWebgl) { state.refused += 1; return null; }
      const ctx = getContext.call(this, type, ...rest);
      if (webgl && ctx) record(ctx, WEBGL_KIND[String(type).toLowerCase()], this);
      return ctx;
    };
  }

  Object.defineProperty(window, "__benchwright__", {
    enumerable: false, configurable: false, writable: false,
    value: Object.freeze({
      snapshot: () => JSON.parse(JSON.stringify(state)),
    }),
  });
}
"""


def page_script(*, row_selector: str | None, disable_webgl: bool) -> str:
    """The init script with its configuration bound, ready for ``add_init_script``."""
    config: dict[str, Any] = {"rowSelector": row_selector, "disableWebgl": disable_webgl}
    return f"({PAGE_SCRIPT})({json.dumps(config)});"
