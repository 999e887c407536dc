// vendorsync page: summary, last sync, the payments table with paging and a status
// filter, and sync.
// Money stays integer minor units until the moment it is formatted; every timestamp
// is shown through the user's locale, never as the ISO string the API sends.
"use strict";

const PAGE_SIZE = 25;
const state = { offset: 0, total: 0, loaded: false };
const formatters = new Map();

const $ = (id) => document.getElementById(id);

function moneyFormatter(currency) {
  if (!formatters.has(currency)) {
    formatters.set(currency, new Intl.NumberFormat(undefined, { style: "currency", currency }));
  }
  return formatters.get(currency);
}

function formatMoney(minor, currency) {
  const fmt = moneyFormatter(currency);
  const digits = fmt.resolvedOptions().maximumFractionDigits;
  return fmt.format(minor / 10 ** digits);
}

function formatDate(iso) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return "Unknown date";
  return when.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

async function getJSON(path, options) {
  const response = await fetch(path, options);
  let body = null;
  try {
    body = await response.json();
  } catch (_) {
    body = null;
  }
  if (!response.ok) {
    const code = body && body.error ? body.error : `HTTP ${response.status}`;
    throw new Error(code);
  }
  return body;
}

function show(which) {
  for (const id of ["loading", "empty", "error", "data"]) $(id).hidden = id !== which;
}

function notify(text, bad) {
  const notice = $("notice");
  notice.textContent = text;
  notice.classList.toggle("bad", Boolean(bad));
  notice.hidden = false;
}

function renderSummary(summary) {
  const noun = summary.count === 1 ? "payment" : "payments";
  const money =
    summary.total_minor === null || summary.currency === null
      ? "several currencies"
      : formatMoney(summary.total_minor, summary.currency);
  $("summary").textContent = `${summary.count.toLocaleString()} ${noun} · ${money}`;
}

function renderLastSync(health) {
  $("last-sync").textContent = health.last_sync ? formatDate(health.last_sync) : "Never synced";
}

function cell(text, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  td.textContent = text;
  return td;
}

function noMatch(status) {
  const tr = document.createElement("tr");
  const td = cell(`No ${status} payments.`, "none");
  td.colSpan = 3;
  tr.append(td);
  return [tr];
}

function renderRows(page, status) {
  const rows = page.data.map((payment) => {
    const tr = document.createElement("tr");
    tr.append(cell(formatDate(payment.created_at)));
    tr.append(cell(formatMoney(payment.amount_minor, payment.currency), "num"));
    const status = cell("");
    const badge = document.createElement("span");
    badge.className = `badge ${payment.status}`;
    badge.textContent = payment.status;
    status.append(badge);
    tr.append(status);
    return tr;
  });
  $("payments").tBodies[0].replaceChildren(...(rows.length ? rows : noMatch(status)));
  state.total = page.total;
  const first = page.data.length ? page.offset + 1 : 0;
  const last = page.offset + page.data.length;
  $("page-info").textContent = `${first}–${last} of ${page.total.toLocaleString()}`;
  $("prev").disabled = page.offset === 0;
  $("next").disabled = last >= page.total;
}

async function load() {
  if (!state.loaded) show("loading");
  const status = $("status-filter").value;
  const filter = status ? `&status=${encodeURIComponent(status)}` : "";
  try {
    const [summary, health, page] = await Promise.all([
      getJSON("/api/summary"),
      getJSON("/api/health"),
      getJSON(`/api/payments?limit=${PAGE_SIZE}&offset=${state.offset}${filter}`),
    ]);
    renderSummary(summary);
    renderLastSync(health);
    if (summary.count === 0) {
      show("empty");
    } else if (page.data.length === 0 && state.offset > 0) {
      state.offset = 0;
      return load();
    } else {
      renderRows(page, status);
      show("data");
    }
    state.loaded = true;
  } catch (err) {
    state.loaded = false;
    $("summary").textContent = "Summary unavailable";
    $("error-detail").textContent = `The vendorsync server could not be reached (${err.message}).`;
    show("error");
  }
}

async function sync() {
  const buttons = [$("sync-now"), $("empty-sync")];
  for (const b of buttons) b.disabled = true;
  $("sync-now").dataset.state = "syncing";
  $("sync-now").setAttribute("aria-busy", "true");
  $("sync-now").textContent = "Syncing…";
  try {
    const result = await getJSON("/api/sync", { method: "POST" });
    notify(`Sync complete: ${result.inserted} new, ${result.total} payments in total.`);
  } catch (err) {
    notify(`Sync failed (${err.message}). Check that Meridian is reachable, then try again.`, true);
  } finally {
    for (const b of buttons) b.disabled = false;
    delete $("sync-now").dataset.state;
    $("sync-now").removeAttribute("aria-busy");
    $("sync-now").textContent = "Sync now";
  }
  await load();
}

function turn(delta) {
  const next = state.offset + delta;
  if (next < 0 || next >= state.total) return;
  state.offset = next;
  load();
}

document.addEventListener("DOMContentLoaded", () => {
  $("sync-now").addEventListener("click", sync);
  $("empty-sync").addEventListener("click", sync);
  $("retry").addEventListener("click", load);
  $("prev").addEventListener("click", () => turn(-PAGE_SIZE));
  $("next").addEventListener("click", () => turn(PAGE_SIZE));
  $("status-filter").addEventListener("change", () => {
    state.offset = 0;
    load();
  });
  load();
});
