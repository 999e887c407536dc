// The payments-field panel. This build (sb-7 part one) ships the panel's data states only:
// it reads /api/viz/records and reports what the field would draw. The WebGL field itself
// (instanced columns, pick buffer, camera, labels, brush, streamed diffs, window.vs7dbg)
// is part two; nothing here pretends to be it.
"use strict";
(function () {
  async function load() {
    const status = document.getElementById("viz-status");
    try {
      const response = await fetch("/api/viz/records");
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const records = await response.json();
      document.getElementById("viz-error").hidden = true;
      document.getElementById("viz-empty").hidden = records.count !== 0;
      status.textContent = records.count
        ? `${records.count} payments over ${new Set(records.day).size} Berlin days (the 3D field is not part of this build).`
        : "";
    } catch (err) {
      status.textContent = "";
      document.getElementById("viz-error").hidden = false;
    }
  }
  document.addEventListener("DOMContentLoaded", load);
})();
