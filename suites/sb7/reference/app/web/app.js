// The console's behaviour: summary, sync, the payments table, notes, notifications, drafts.
// Every number and date comes from the API; money is formatted by its currency's exponent.
"use strict";
(function () {
  const EXPONENT = { EUR: 2, USD: 2, JPY: 0, KWD: 3 };
  const $ = (sel) => document.querySelector(sel);
  const view = { limit: 50, offset: 0, status: "", currency: "", sort: "created_at", total: 0 };
  let selectedDraft = null;

  function money(minor, currency) {
    const exp = EXPONENT[currency] ?? 2;
    const major = minor / 10 ** exp;
    try {
      return new Intl.NumberFormat(undefined, {
        style: "currency", currency, minimumFractionDigits: exp, maximumFractionDigits: exp,
      }).format(major);
    } catch (err) {
      return `${currency} ${major.toFixed(exp)}`;
    }
  }

  function when(iso) {
    if (!iso) return "";
    return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" })
      .format(new Date(iso));
  }

  function notice(text) {
    const box = $("#notice");
    box.textContent = text;
    box.hidden = !text;
  }

  async function api(path, options = {}) {
    const response = await fetch(path, options);
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = new Error((body.error && body.error.message) || `HTTP ${response.status}`);
      error.status = response.status;
      error.code = body.error && body.error.code;
      throw error;
    }
    return body;
  }

  function el(tag, attrs = {}, text = "") {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
    if (text) node.textContent = text;
    return node;
  }

  async function loadSummary() {
    const summary = await api("/api/summary");
    const box = $("#summary");
    box.replaceChildren();
    for (const row of summary.by_currency) {
      box.append(el("div", { class: "cur-total", "data-currency": row.currency },
        `${row.currency}: ${row.count} payments, ${money(row.total_minor, row.currency)}`));
    }
    for (const row of summary.reversals) {
      box.append(el("div", { class: "rev-total", "data-currency": row.currency },
        `${row.currency} reversals: ${row.count}, ${money(row.total_minor, row.currency)}`));
    }
    $("#last-sync").textContent = summary.last_sync ? `Last sync ${when(summary.last_sync)}` : "Never synced";
    return summary;
  }

  async function loadTable() {
    const state = $("#table-state");
    const query = new URLSearchParams({ limit: view.limit, offset: view.offset, sort: view.sort });
    if (view.status) query.set("status", view.status);
    if (view.currency) query.set("currency", view.currency);
    try {
      const page = await api(`/api/payments?${query}`);
      view.total = page.total;
      renderRows(page.data);
      const first = page.total ? view.offset + 1 : 0;
      const last = Math.min(view.offset + page.data.length, page.total);
      $("#showing").textContent = `showing ${first}–${last} of ${page.total}`;
      $("#prev").disabled = view.offset === 0;
      $("#next").disabled = view.offset + view.limit >= page.total;
      if (page.total === 0) {
        state.dataset.state = "empty";
        state.textContent = view.status || view.currency
          ? "No payments match these filters."
          : "No payments yet. The first sync with Meridian is running; press Sync now to retry.";
      } else {
        state.dataset.state = "ready";
        state.textContent = "";
      }
    } catch (err) {
      state.dataset.state = "error";
      state.textContent = `Payments could not load (${err.message}). Check that ledgerd is running, then retry.`;
    }
  }

  function renderRows(rows) {
    const body = $("#rows");
    body.replaceChildren();
    for (const p of rows) {
      const tr = el("tr", { "data-id": p.id, "data-brushed": "false" });
      tr.append(el("td", {}, when(p.created_at)));
      tr.append(el("td", { class: "amount" }, money(p.amount_minor, p.currency)));
      const status = el("td");
      status.append(el("span", { class: `badge ${p.status}` }, p.status));
      tr.append(status);
      tr.append(el("td", {}, `${p.counterparty_name} (${p.country})`));
      const note = el("td", { class: "note" }, p.note);
      note.addEventListener("click", () => editNote(tr, note));
      tr.append(note);
      body.append(tr);
    }
  }

  function editNote(tr, cell) {
    if (cell.querySelector("input")) return;
    const before = cell.textContent;
    const input = el("input", { value: before, maxlength: "280" });
    cell.replaceChildren(input);
    input.focus();
    input.addEventListener("keydown", async (event) => {
      if (event.key === "Escape") cell.textContent = before;
      if (event.key !== "Enter") return;
      const note = input.value;
      cell.textContent = note;
      tr.dataset.state = "saving";
      try {
        await api(`/api/payments/${encodeURIComponent(tr.dataset.id)}/note`, {
          method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ note }),
        });
        tr.dataset.state = "saved";
      } catch (err) {
        cell.textContent = before;
        tr.dataset.state = "error";
        notice(`The note was not saved: ${err.message}`);
      }
    });
  }

  function setupDropdown(id, onChange) {
    const root = $(id);
    const toggle = root.querySelector(".dropdown-toggle");
    const menu = root.querySelector(".dropdown-menu");
    const label = toggle.textContent;
    for (const value of ["", ...root.dataset.options.split(" ")]) {
      const item = el("li", { role: "option", "data-value": value }, value || label);
      item.addEventListener("click", () => {
        root.dataset.value = value;
        toggle.textContent = value || label;
        menu.hidden = true;
        onChange(value);
      });
      menu.append(item);
    }
    toggle.addEventListener("click", () => { menu.hidden = !menu.hidden; });
  }

  function setupSort() {
    for (const th of document.querySelectorAll("th[data-sort]")) {
      th.addEventListener("click", () => {
        const key = th.dataset.sort;
        const ascending = view.sort !== key;
        view.sort = ascending ? key : `-${key}`;
        for (const other of document.querySelectorAll("th[data-sort]")) other.setAttribute("aria-sort", "none");
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        view.offset = 0;
        loadTable();
      });
    }
  }

  async function syncNow() {
    const button = $("#sync-now");
    button.dataset.state = "syncing";
    button.disabled = true;
    try {
      await api("/api/sync", { method: "POST" });
      notice("");
    } catch (err) {
      notice(`Sync failed: ${err.message}. Local data is still shown; try again shortly.`);
    } finally {
      button.dataset.state = "idle";
      button.disabled = false;
      refresh();
    }
  }

  async function pollNotifications() {
    const list = $("#notifications");
    try {
      const page = await api("/api/notifications?limit=20");
      list.dataset.state = "live";
      list.replaceChildren(...page.data.map((n) => {
        const item = el("li", { "data-event-seq": String(n.event_seq), "data-kind": n.kind });
        item.append(el("strong", {}, n.kind), document.createTextNode(` ${n.message} `), el("time", {}, when(n.at)));
        return item;
      }));
    } catch (err) {
      list.dataset.state = "degraded";
    }
  }

  function bearer() {
    return { Authorization: `Bearer ${$("#role-token").value.trim()}`, "Content-Type": "application/json" };
  }

  async function loadDrafts() {
    if (!$("#role-token").value.trim()) return;
    try {
      const drafts = await api("/api/drafts", { headers: bearer() });
      const list = $("#draft-list");
      list.replaceChildren(...drafts.data.map((d) => {
        const item = el("li", { "data-draft-id": d.id, "data-state": d.state, "data-selected": String(d.id === selectedDraft) },
          `${money(d.amount_minor, d.currency)} to ${d.counterparty.name}: ${d.state}`);
        item.addEventListener("click", () => { selectedDraft = d.id; loadDrafts(); });
        return item;
      }));
      const chosen = drafts.data.find((d) => d.id === selectedDraft);
      $("#submit-btn").disabled = !chosen || chosen.state !== "draft";
      $("#approve-btn").disabled = !chosen || chosen.state !== "submitted";
      $("#reject-btn").disabled = !chosen || chosen.state !== "submitted";
    } catch (err) {
      notice(`Drafts: ${err.message}`);
    }
  }

  async function draftAction(action) {
    try {
      await api(`/api/drafts/${encodeURIComponent(selectedDraft)}/${action}`, { method: "POST", headers: bearer() });
      notice("");
    } catch (err) {
      notice(`Could not ${action} the draft: ${err.message}`);
    }
    loadDrafts();
  }

  async function createDraft(event) {
    event.preventDefault();
    const form = new FormData(event.target);
    const payload = {
      amount_minor: Number.parseInt(form.get("amount_minor"), 10),
      currency: String(form.get("currency")).toUpperCase(),
      counterparty: { name: form.get("name"), country: String(form.get("country")).toUpperCase() },
      note: form.get("note") || "",
    };
    try {
      const draft = await api("/api/drafts", { method: "POST", headers: bearer(), body: JSON.stringify(payload) });
      selectedDraft = draft.id;
      notice("");
    } catch (err) {
      notice(`The draft was not created: ${err.message}`);
    }
    loadDrafts();
  }

  async function refresh() {
    try {
      await loadSummary();
    } catch (err) {
      notice(`The console cannot reach ledgerd (${err.message}). Check that it is running, then refresh.`);
    }
    await loadTable();
  }

  setupDropdown("#status-filter", (value) => { view.status = value; view.offset = 0; loadTable(); });
  setupDropdown("#currency-filter", (value) => { view.currency = value; view.offset = 0; loadTable(); });
  setupSort();
  $("#prev").addEventListener("click", () => { view.offset = Math.max(0, view.offset - view.limit); loadTable(); });
  $("#next").addEventListener("click", () => { view.offset += view.limit; loadTable(); });
  $("#sync-now").addEventListener("click", syncNow);
  $("#draft-form").addEventListener("submit", createDraft);
  $("#role-token").addEventListener("change", loadDrafts);
  $("#submit-btn").addEventListener("click", () => draftAction("submit"));
  $("#approve-btn").addEventListener("click", () => draftAction("approve"));
  $("#reject-btn").addEventListener("click", () => draftAction("reject"));
  refresh();
  pollNotifications();
  setInterval(pollNotifications, 3000);
  setInterval(() => { if ($("#table-state").dataset.state !== "ready") refresh(); }, 3000);
})();
