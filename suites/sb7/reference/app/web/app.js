// The console's behaviour: summary, sync, the payments table (server-driven paging, sorting
// and filters), optimistic notes, the notifications feed, the drafts workflow, and the
// table's half of the brush (viz.js owns the brush set; we ask it to toggle and follow its
// answers). Every figure comes from the API as it is: money stays integer minor units and
// is written by its currency's exponent; dates are instants written in the user's locale.
"use strict";
(function () {
  const EXPONENT = { EUR: 2, USD: 2, JPY: 0, KWD: 3 };
  const PAGE = 50;
  const POLL_MS = 2000;          // the feed's poll: well inside the spec's 5 s
  const RETRY_MS = 3000;         // empty/error states look again on their own
  const REQUEST_MS = 8000;       // no request of ours waits for ever
  const SYNC_MS = 150000;        // a whole walk: the spec allows 120 s, documented waits included
  const $ = (sel) => document.querySelector(sel);
  const view = { offset: 0, status: "", currency: "", sort: "created_at", total: 0 };
  const brushed = new Set();
  let tableRequest = 0;          // only the newest table load may paint
  let selectedDraft = null;
  let draftsLoaded = false;
  let draftsRequest = 0;         // only the newest drafts load may paint
  const seenStates = new Map();  // draft id → the state this page last showed

  // ---- formatting -------------------------------------------------------------------------

  /** Integer minor units as an exact decimal string ("129900", 2 → "1299.00"); no float. */
  function decimal(minor, exp) {
    const negative = minor < 0;
    const digits = String(Math.abs(minor)).padStart(exp + 1, "0");
    const whole = exp ? digits.slice(0, -exp) : digits;
    const body = exp ? `${whole}.${digits.slice(-exp)}` : whole;
    return negative ? `-${body}` : body;
  }

  function money(minor, currency) {
    const exp = EXPONENT[currency] ?? 2;
    const text = decimal(minor, exp);
    try {
      return new Intl.NumberFormat(undefined, {
        style: "currency", currency, minimumFractionDigits: exp, maximumFractionDigits: exp,
      }).format(text); // a string keeps every digit (Intl.NumberFormat v3)
    } catch (err) {
      return `${currency} ${text}`;
    }
  }

  /** The typed amount as a positive integer of minor units (the API's own unit, §5), or null:
   * digits only, so no float ever stands between the field and the draft. */
  function parseMinor(text) {
    const clean = String(text).replace(/[\s,_']/g, "");
    const minor = /^\d+$/.test(clean) ? Number(clean) : NaN;
    return Number.isSafeInteger(minor) && minor > 0 ? minor : null;
  }

  const DATE_FORMAT = new Intl.DateTimeFormat(undefined, {
    day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit",
  });

  function when(iso) {
    const instant = iso ? new Date(iso) : null;
    return instant && !Number.isNaN(instant.getTime()) ? DATE_FORMAT.format(instant) : "";
  }

  function count(n) {
    return new Intl.NumberFormat().format(n);
  }

  // ---- plumbing ---------------------------------------------------------------------------

  /** A failed API call: the HTTP status (0 when the server could not be reached) and the
   * envelope's code, with a message a person can act on. */
  class ApiError extends Error {
    constructor(message, status, code) {
      super(message);
      this.status = status;
      this.code = code;
    }
  }

  async function api(path, options = {}, waitMs = REQUEST_MS) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), waitMs);
    let response;
    try {
      response = await fetch(path, { ...options, signal: abort.signal });
    } catch (err) {
      throw new ApiError("ledgerd is not reachable", 0, "unreachable");
    } finally {
      clearTimeout(timer);
    }
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = body.error || {};
      throw new ApiError(error.message || `HTTP ${response.status}`, response.status, error.code);
    }
    return body;
  }

  function el(tag, attrs = {}, text = "") {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
    if (text) node.textContent = text;
    return node;
  }

  /** The non-blocking notice line (role="status"); "" hides it. */
  function notice(text, tone = "error") {
    const box = $("#notice");
    box.textContent = text;
    box.dataset.tone = tone;
    box.hidden = !text;
  }

  /** Run ``task`` (a promise-returning function) and keep any failure out of the console:
   * every caller has already shown what went wrong on the page. */
  function quietly(task) {
    return () => { task().catch(() => {}); };
  }

  // ---- summary and sync -------------------------------------------------------------------

  async function loadSummary() {
    const summary = await api("/api/summary");
    const box = $("#summary");
    const tile = (cls, row, title) => {
      const node = el("div", { class: cls, "data-currency": row.currency });
      node.append(
        el("span", { class: "code" }, title),
        el("span", { class: "money" }, money(row.total_minor, row.currency)),
        el("span", { class: "count" }, `${count(row.count)} ${cls === "cur-total" ? "payments" : "reversals"}`),
      );
      return node;
    };
    box.replaceChildren(
      ...summary.by_currency.map((row) => tile("cur-total", row, row.currency)),
      ...summary.reversals.map((row) => tile("rev-total", row, `${row.currency} reversals`)),
    );
    $("#last-sync").textContent = summary.last_sync ? `Last sync ${when(summary.last_sync)}` : "Never synced";
  }

  async function syncNow() {
    const button = $("#sync-now");
    button.dataset.state = "syncing";
    button.setAttribute("aria-busy", "true");
    button.disabled = true;
    try {
      await api("/api/sync", { method: "POST" }, SYNC_MS);
      notice("");
    } catch (err) {
      const why = err.code === "vendor_unavailable" ? "Meridian is not answering" : err.message;
      notice(`Sync failed: ${why}. Your local data is still shown; try again in a moment.`);
    } finally {
      button.dataset.state = "idle";
      button.removeAttribute("aria-busy");
      button.disabled = false;
      document.dispatchEvent(new CustomEvent("vs7:synced"));
      await refresh();
    }
  }

  // ---- the payments table -----------------------------------------------------------------

  function query(offset, limit) {
    const q = new URLSearchParams({ limit, offset, sort: view.sort });
    if (view.status) q.set("status", view.status);
    if (view.currency) q.set("currency", view.currency);
    return `/api/payments?${q}`;
  }

  /** Show one of the table's states: loading, empty, error or ready (DECISIONS.md D3). */
  function tableState(state, text = "", action = null) {
    const box = $("#table-state");
    box.dataset.state = state;
    box.querySelector(".state-text").textContent = text;
    const button = box.querySelector(".state-action");
    button.hidden = !action;
    if (action) {
      button.textContent = action.label;
      button.onclick = action.run;
    }
  }

  async function loadTable() {
    const mine = ++tableRequest;
    try {
      const page = await api(query(view.offset, PAGE));
      if (mine !== tableRequest) return;
      if (page.data.length === 0 && page.total > 0 && view.offset > 0) {
        view.offset = Math.floor((page.total - 1) / PAGE) * PAGE; // the data shrank under us
        return loadTable();
      }
      view.total = page.total;
      renderRows(page.data);
      const first = page.total ? view.offset + 1 : 0;
      const last = view.offset + page.data.length;
      $("#showing").textContent = `showing ${count(first)}–${count(last)} of ${count(page.total)}`;
      $("#prev").disabled = view.offset === 0;
      $("#next").disabled = last >= page.total;
      if (page.total > 0) tableState("ready");
      else if (view.status || view.currency) tableState("empty", "No payments match these filters.");
      else tableState("empty", "No payments yet: the first sync with Meridian is in progress and rows appear here as soon as it finishes.",
        { label: "Sync now", run: quietly(syncNow) });
    } catch (err) {
      if (mine !== tableRequest) return;
      tableState("error", `Payments could not load: ${err.message}. Check that ledgerd is running, then try again.`,
        { label: "Try again", run: quietly(refresh) });
    }
  }

  function renderRows(rows) {
    $("#rows").replaceChildren(...rows.map((p) => {
      const tr = el("tr", { "data-id": p.id, "data-brushed": String(brushed.has(p.id)) });
      const status = el("td", { class: "status" });
      status.append(el("span", { class: `badge ${p.status}` }, p.status));
      tr.append(
        el("td", { class: "date" }, when(p.created_at)),
        el("td", { class: "amount" }, money(p.amount_minor, p.currency)),
        status,
        el("td", { class: "counterparty" }, `${p.counterparty_name} · ${p.country}`),
        el("td", { class: "note", tabindex: "0" }, p.note || ""),
      );
      return tr;
    }));
  }

  function onRowClick(event) {
    const tr = event.target.closest("tr[data-id]");
    if (!tr) return;
    const note = event.target.closest("td.note");
    if (note) editNote(tr, note);
    else document.dispatchEvent(new CustomEvent("vs7:brush-toggle", { detail: { id: tr.dataset.id } }));
  }

  function setupSort() {
    for (const th of document.querySelectorAll("th[data-sort]")) {
      const toggle = () => {
        const key = th.dataset.sort;
        const ascending = view.sort !== key;
        view.sort = ascending ? key : `-${key}`;
        for (const other of document.querySelectorAll("th[data-sort]")) other.setAttribute("aria-sort", "none");
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        view.offset = 0;
        loadTable();
      };
      th.addEventListener("click", toggle);
      th.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") toggle(); });
    }
  }

  function page(delta) {
    view.offset = Math.max(0, view.offset + delta * PAGE);
    loadTable();
  }

  // ---- the brush, the table's half ----------------------------------------------------------

  /** Does payment ``a`` come before ``b`` under the current sort? The server's order: the
   * key (created_at as an instant, or amount_minor), then id, both reversed for descending. */
  function before(a, b) {
    const descending = view.sort.startsWith("-");
    const key = (p) => (view.sort.endsWith("created_at") ? Date.parse(p.created_at) : p.amount_minor);
    const [ka, kb] = [key(a), key(b)];
    const less = ka !== kb ? ka < kb : a.id < b.id;
    const same = ka === kb && a.id === b.id;
    return !same && (descending ? !less : less);
  }

  /** The page offset holding payment ``id`` under the current filters and sort, or null when
   * the filters hide it: a binary search over the server's own order, one row per probe. */
  async function offsetOf(id) {
    const target = await api(`/api/payments/${encodeURIComponent(id)}`);
    if ((view.status && target.status !== view.status) || (view.currency && target.currency !== view.currency)) return null;
    let lo = 0;
    let hi = (await api(query(0, 1))).total;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      const [row] = (await api(query(mid, 1))).data;
      if (row && before(row, target)) lo = mid + 1;
      else hi = mid;
    }
    return Math.floor(lo / PAGE) * PAGE;
  }

  async function showRecord(id) {
    const offset = await offsetOf(id);
    if (offset === null) return;
    view.offset = offset;
    await loadTable();
    const row = document.querySelector(`#rows tr[data-id="${CSS.escape(id)}"]`);
    if (row) row.scrollIntoView({ block: "center" });
  }

  function onBrush(event) {
    const { ids = [], toggled = null, source = "" } = event.detail || {};
    brushed.clear();
    for (const id of ids) brushed.add(id);
    $("#brush-count").textContent = String(brushed.size);
    for (const tr of document.querySelectorAll("#rows tr[data-id]")) {
      tr.dataset.brushed = String(brushed.has(tr.dataset.id));
    }
    if (source === "field" && toggled) {
      showRecord(toggled).catch((err) => notice(`Could not show that payment: ${err.message}.`));
    }
  }

  // ---- notes, optimistically --------------------------------------------------------------

  function editNote(tr, cell) {
    if (cell.querySelector("input")) return;
    const before = cell.textContent;
    const input = el("input", { maxlength: "280", "aria-label": "Note" });
    input.value = before;
    cell.replaceChildren(input);
    input.focus();
    input.select();
    let done = false;
    const finish = (text) => { done = true; cell.textContent = text; };
    input.addEventListener("keydown", (event) => {
      if (event.key === "Escape") finish(before);
      if (event.key !== "Enter") return;
      event.preventDefault();
      const note = input.value.trim();
      if (!note || note === before) return finish(before);
      finish(note); // painted now, before the network answers
      saveNote(tr, cell, note, before);
    });
    input.addEventListener("blur", () => { if (!done) finish(before); });
  }

  async function saveNote(tr, cell, note, before) {
    tr.dataset.state = "saving";
    try {
      const saved = await api(`/api/payments/${encodeURIComponent(tr.dataset.id)}/note`, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ note }),
      });
      cell.textContent = saved.note;
      tr.dataset.state = "saved";
    } catch (err) {
      cell.textContent = before;
      tr.dataset.state = "error";
      const why = err.code === "conflict" ? "someone changed this payment at the same time" : err.message;
      notice(`The note was not saved (${why}); the previous note is back. Try again.`);
    }
  }

  // ---- filters: our own dropdowns ---------------------------------------------------------

  /** Build the dropdown in ``root`` (options from data-options; data-label, when present,
   * names the "off" choice); ``data-value`` always holds the current choice. */
  function dropdown(root, onChange) {
    const off = root.dataset.label;
    const values = [...(off ? [""] : []), ...root.dataset.options.split(" ")];
    const toggle = el("button", { type: "button", class: "dropdown-toggle", "aria-haspopup": "listbox", "aria-expanded": "false" });
    const menu = el("ul", { class: "dropdown-menu", role: "listbox" });
    menu.hidden = true;
    const open = (yes) => { menu.hidden = !yes; toggle.setAttribute("aria-expanded", String(yes)); };
    const show = () => {
      toggle.textContent = root.dataset.value || off;
      for (const item of menu.children) item.setAttribute("aria-selected", String(item.dataset.value === root.dataset.value));
    };
    for (const value of values) {
      const item = el("li", { role: "option", "data-value": value }, value || off);
      item.addEventListener("click", () => {
        open(false);
        if (root.dataset.value === value) return;
        root.dataset.value = value;
        show();
        onChange(value);
      });
      menu.append(item);
    }
    toggle.addEventListener("click", () => open(menu.hidden));
    document.addEventListener("click", (event) => { if (!root.contains(event.target)) open(false); });
    root.addEventListener("keydown", (event) => { if (event.key === "Escape") open(false); });
    root.replaceChildren(toggle, menu);
    show();
  }

  // ---- notifications ----------------------------------------------------------------------

  let polling = false;

  async function pollNotifications() {
    if (polling) return;
    polling = true;
    const list = $("#notifications");
    const badge = $("#feed-status");
    try {
      const page = await api("/api/notifications?limit=30");
      list.replaceChildren(...page.data.map((n) => {
        const item = el("li", { "data-event-seq": String(n.event_seq), "data-kind": n.kind });
        item.append(el("span", { class: "kind" }, n.kind.replace(".", " ").toUpperCase()),
          el("span", { class: "message" }, n.message), el("time", {}, when(n.at)));
        return item;
      }));
      list.dataset.state = "live";
      badge.dataset.state = "live";
      badge.textContent = "Live";
    } catch (err) {
      list.dataset.state = "degraded";
      badge.dataset.state = "degraded";
      badge.textContent = "Degraded";
    } finally {
      polling = false;
    }
  }

  // ---- drafts -----------------------------------------------------------------------------

  const ACTIONS = {
    submit: { button: "#submit-btn", from: "draft", to: "submitted" },
    approve: { button: "#approve-btn", from: "submitted", to: "approved" },
    reject: { button: "#reject-btn", from: "submitted", to: "rejected" },
  };

  const TOKEN_SHAPE = /^[0-9a-f]{32}$/i;  // the tokens file's shape (spec §1)

  /** The typed bearer token, or "" while it cannot be one (so half a token typed never
   * costs a 401). */
  function token() {
    const typed = $("#role-token").value.trim();
    return TOKEN_SHAPE.test(typed) ? typed : "";
  }

  function bearer() {
    return { Authorization: `Bearer ${token()}`, "Content-Type": "application/json" };
  }

  function authMessage(err, doing) {
    if (err.code === "approval_forbidden") return `You submitted this draft, so another checker must ${doing} it (four eyes).`;
    if (err.code === "forbidden") return `Your role may not ${doing} drafts.`;
    if (err.code === "unauthorized") return "That access token is not recognised. Check it and try again.";
    return `Could not ${doing} the draft: ${err.message}.`;
  }

  /** Enable each action only when the selected draft's state allows it (D2: rejected is final). */
  function syncButtons() {
    const row = selectedDraft && document.querySelector(`#draft-list li[data-draft-id="${CSS.escape(selectedDraft)}"]`);
    for (const action of Object.values(ACTIONS)) {
      $(action.button).disabled = !row || "pending" in row.dataset || row.dataset.state !== action.from;
    }
  }

  function draftRow(d) {
    const item = el("li", { "data-draft-id": d.id, "data-state": d.state, "data-selected": String(d.id === selectedDraft) });
    item.append(
      el("strong", { class: "money" }, money(d.amount_minor, d.currency)),
      el("span", { class: "who" }, `${d.counterparty.name} · ${d.counterparty.country}`),
      el("span", { class: "state" }, d.state),
    );
    if (d.state === "sent" && d.payment_id) {
      const show = el("button", { type: "button", class: "show" }, "Show payment");
      show.addEventListener("click", (event) => {
        event.stopPropagation();
        showRecord(d.payment_id).catch((err) => notice(`Could not show that payment: ${err.message}.`));
      });
      item.append(show);
    }
    item.addEventListener("click", () => {
      selectedDraft = d.id;
      for (const other of document.querySelectorAll("#draft-list li")) other.dataset.selected = String(other === item);
      syncButtons();
    });
    return item;
  }

  async function loadDrafts() {
    const mine = ++draftsRequest;
    if (!token()) {
      draftsLoaded = false;
      $("#draft-list").replaceChildren();
      syncButtons();
      return;
    }
    try {
      const drafts = await api("/api/drafts", { headers: bearer() });
      if (mine !== draftsRequest) return;
      draftsLoaded = true;
      $("#draft-list").replaceChildren(...drafts.data.map(draftRow));
      syncButtons();
      // A draft seen here before it was sent has just become a payment: show the new totals.
      const landed = drafts.data.some((d) => d.state === "sent" && (seenStates.get(d.id) ?? "sent") !== "sent");
      for (const d of drafts.data) seenStates.set(d.id, d.state);
      if (landed) refresh();
    } catch (err) {
      if (mine !== draftsRequest) return;
      draftsLoaded = false;
      notice(authMessage(err, "list"));
    }
  }

  /** Whether a whole token is typed; says what is missing when not. */
  function haveToken() {
    if (!token()) notice("Enter your access token (32 hexadecimal characters) first.");
    return Boolean(token());
  }

  /** Paint the state asked for at once (the badge, and data-pending naming it while the write
   * is on the wire), then show what the server answered, or the old state and why not.
   * data-state stays the server's word: it changes only when the drafts list says so. */
  async function draftAction(name) {
    if (!haveToken()) return;
    const action = ACTIONS[name];
    const row = document.querySelector(`#draft-list li[data-draft-id="${CSS.escape(selectedDraft)}"]`);
    if (!row) return;
    row.dataset.pending = action.to;
    row.querySelector(".state").textContent = action.to;
    syncButtons();
    try {
      await api(`/api/drafts/${encodeURIComponent(selectedDraft)}/${name}`, { method: "POST", headers: bearer() });
      notice("");
    } catch (err) {
      notice(authMessage(err, name));
    }
    await loadDrafts();
  }

  async function createDraft(event) {
    event.preventDefault();
    if (!haveToken()) return;
    const form = new FormData(event.target);
    const currency = $("#draft-currency").dataset.value;
    const amount = parseMinor(form.get("amount_minor"));
    if (amount === null) {
      notice(`Enter the amount as a whole number of ${currency} minor units, e.g. 129900.`);
      return;
    }
    const payload = {
      amount_minor: amount,
      currency,
      counterparty: { name: String(form.get("name")).trim(), country: String(form.get("country")).trim().toUpperCase() },
      note: String(form.get("note") || ""),
    };
    try {
      const draft = await api("/api/drafts", { method: "POST", headers: bearer(), body: JSON.stringify(payload) });
      selectedDraft = draft.id;
      notice("");
      event.target.reset();
      previewAmount();
    } catch (err) {
      const fields = err.code === "bad_request" ? " Check the amount, the counterparty and a two-letter country." : "";
      notice(err.status === 400 ? `The draft was not created.${fields}` : authMessage(err, "create"));
    }
    await loadDrafts();
  }

  /** Show what the typed minor units mean in the chosen currency, as the table will. */
  function previewAmount() {
    const currency = $("#draft-currency").dataset.value;
    const minor = parseMinor($('#draft-form [name="amount_minor"]').value);
    $("#draft-amount-preview").textContent = minor === null
      ? "Cents for EUR and USD, yen for JPY, fils for KWD"
      : `= ${money(minor, currency)}`;
  }

  // ---- wiring -----------------------------------------------------------------------------

  const SUMMARY_FAILED = "The summary could not load";

  async function refresh() {
    const [summary] = await Promise.allSettled([loadSummary(), loadTable()]);
    if (summary.status === "rejected") {
      notice(`${SUMMARY_FAILED} (${summary.reason.message}). Check that ledgerd is running; the page retries by itself.`);
    } else if ($("#notice").textContent.startsWith(SUMMARY_FAILED)) {
      notice("");
    }
  }

  dropdown($("#status-filter"), (value) => { view.status = value; view.offset = 0; loadTable(); });
  dropdown($("#currency-filter"), (value) => { view.currency = value; view.offset = 0; loadTable(); });
  dropdown($("#draft-currency"), previewAmount);
  $('#draft-form [name="amount_minor"]').addEventListener("input", previewAmount);
  setupSort();
  $("#rows").addEventListener("click", onRowClick);
  $("#rows").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target.matches("td.note")) editNote(event.target.closest("tr"), event.target);
  });
  $("#prev").addEventListener("click", () => page(-1));
  $("#next").addEventListener("click", () => page(1));
  $("#sync-now").addEventListener("click", quietly(syncNow));
  $("#draft-form").addEventListener("submit", (event) => { createDraft(event).catch(() => {}); });
  $("#role-token").addEventListener("input", quietly(loadDrafts));
  for (const name of Object.keys(ACTIONS)) $(ACTIONS[name].button).addEventListener("click", quietly(() => draftAction(name)));
  document.addEventListener("vs7:brush", onBrush);

  refresh().catch(() => {});
  pollNotifications();
  setInterval(pollNotifications, POLL_MS);
  setInterval(() => {
    if ($("#table-state").dataset.state !== "ready") refresh().catch(() => {});
  }, RETRY_MS);
  setInterval(() => { if (draftsLoaded) loadDrafts(); }, RETRY_MS);
})();
