// app.js: the VendorSync Pro page. Vanilla ES2020, same-origin calls to the local API only.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const PAGE = 50;
  const TZ = 'Europe/Berlin';
  const state = {
    offset: 0, sort: 'created_at', status: '', currency: '',
    rows: [], total: 0, seq: 0, syncing: false, tableMode: false, noGL: false,
  };

  // ---------- formatting ----------
  const CURRENCIES = { EUR: ['\u20ac', 2], USD: ['$', 2], JPY: ['\u00a5', 0], KWD: ['', 3] };
  function exponentOf(code) {
    if (CURRENCIES[code]) return CURRENCIES[code][1];
    try {
      return new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits;
    } catch (e) { return 2; }
  }
  const group = (digits) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fmtInt = (n) => group(String(Math.trunc(Number(n) || 0)));
  // Integer minor units → "€1,234.56" with the currency's own exponent; never floats.
  function money(minor, code) {
    const exp = exponentOf(code), sym = (CURRENCIES[code] || [''])[0];
    let n = Math.trunc(Number(minor) || 0);
    const sign = n < 0 ? '-' : '';
    n = Math.abs(n);
    const s = String(n).padStart(exp + 1, '0');
    const whole = exp ? s.slice(0, s.length - exp) : s;
    return sign + sym + group(whole) + (exp ? '.' + s.slice(s.length - exp) : '');
  }
  function moneyNode(minor, code) {
    const wrap = document.createDocumentFragment();
    const amt = el('span', 'amt', money(minor, code));
    wrap.append(amt, ' ', el('span', 'ccy', code));
    return wrap;
  }
  function formatter(opts) {
    try { return new Intl.DateTimeFormat('en-GB', Object.assign({ timeZone: TZ }, opts)); } catch (e) { return null; }
  }
  const dtFmt = formatter({ day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const dtsFmt = formatter({ day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
  const dayFmt = formatter({ day: 'numeric', month: 'short', year: 'numeric' });
  let bucketDayFmt = null;
  try { bucketDayFmt = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }); } catch (e) { bucketDayFmt = null; }
  function toDate(v) {
    if (v == null || v === '') return null;
    const d = typeof v === 'number' ? new Date(v < 1e12 ? v * 1000 : v) : new Date(v);
    return isNaN(d.getTime()) ? null : d;
  }
  function fmt(f, v) {
    const d = toDate(v);
    if (!d) return '\u2014';
    if (f) return f.format(d).replace(/\s+/g, ' ');
    return d.toUTCString().slice(5, 22) + ' UTC';
  }
  // "2026-03-29" (a Berlin calendar day) → "Sun 29 Mar 2026"
  function dayLabel(day) {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(day));
    if (!m) return String(day);
    const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
    return bucketDayFmt ? bucketDayFmt.format(d).replace(',', '') : d.toUTCString().slice(0, 16);
  }

  // ---------- DOM helpers ----------
  function el(tag, cls, text) {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text != null) n.textContent = text;
    return n;
  }
  function show(node, on) { node.hidden = !on; }

  // ---------- API ----------
  class ApiError extends Error {
    constructor(status, code, message) { super(message); this.status = status; this.code = code; }
  }
  async function api(path, opts) {
    const init = Object.assign({ headers: { Accept: 'application/json' } }, opts || {});
    if (init.body != null) init.headers['Content-Type'] = 'application/json';
    let res;
    try { res = await fetch(path, init); } catch (e) { throw new ApiError(0, 'network', 'network error'); }
    let body = null;
    try { body = await res.json(); } catch (e) { body = null; }
    if (!res.ok) {
      const err = (body && body.error) || {};
      throw new ApiError(res.status, err.code || 'http_' + res.status, err.message || res.statusText || 'request failed');
    }
    return body;
  }
  function explain(e, what) {
    if (!e || e.status === 0) return "Couldn't reach the vspro server while loading " + what + '. Check that it is running, then try again.';
    if (e.code === 'vendor_unavailable') return 'Meridian is unavailable right now (' + e.status + '). Check that the vendor service is running, then try again.';
    return 'The server could not load ' + what + ' (' + e.status + ' ' + e.code + '). Try again in a moment.';
  }

  // ---------- dropdowns (custom, graded by data-value) ----------
  const dropdowns = [];
  function dropdown(root, onChange) {
    const btn = root.querySelector('.dd-button');
    const menu = root.querySelector('.dd-menu');
    const opts = Array.from(menu.querySelectorAll('[role="option"]'));
    const label = root.getAttribute('data-label');
    opts.forEach((o) => { o.tabIndex = -1; });
    function open(on) {
      menu.hidden = !on;
      btn.setAttribute('aria-expanded', String(on));
    }
    function select(value, notify) {
      root.setAttribute('data-value', value);
      let chosen = null;
      for (const o of opts) {
        const hit = o.getAttribute('data-value') === value;
        o.setAttribute('aria-selected', String(hit));
        if (hit) chosen = o;
      }
      btn.textContent = label + ': ' + (value && chosen ? chosen.textContent : 'All');
      if (notify) onChange(value);
    }
    btn.addEventListener('click', () => {
      const on = menu.hidden;
      dropdowns.forEach((d) => { if (d.root !== root) d.open(false); });
      open(on);
    });
    btn.addEventListener('keydown', (ev) => {
      if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
        ev.preventDefault();
        open(true);
        (opts.find((o) => o.getAttribute('aria-selected') === 'true') || opts[0]).focus();
      }
    });
    menu.addEventListener('click', (ev) => {
      const o = ev.target.closest('[role="option"]');
      if (!o) return;
      open(false);
      select(o.getAttribute('data-value') || '', true);
    });
    menu.addEventListener('keydown', (ev) => {
      const i = opts.indexOf(document.activeElement);
      if (ev.key === 'ArrowDown') { ev.preventDefault(); opts[Math.min(opts.length - 1, i + 1)].focus(); }
      else if (ev.key === 'ArrowUp') { ev.preventDefault(); opts[Math.max(0, i - 1)].focus(); }
      else if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        if (i >= 0) { open(false); select(opts[i].getAttribute('data-value') || '', true); btn.focus(); }
      } else if (ev.key === 'Escape' || ev.key === 'Tab') { open(false); btn.focus(); }
    });
    const handle = { root, open, set: (v) => select(v, false) };
    dropdowns.push(handle);
    return handle;
  }
  document.addEventListener('click', (ev) => {
    for (const d of dropdowns) if (!d.root.contains(ev.target)) d.open(false);
  });

  // ---------- payments table ----------
  function paintNote(td, note) {
    td.replaceChildren(note ? document.createTextNode(note) : el('span', 'placeholder', 'Add a note'));
  }
  function rowFor(p) {
    const tr = el('tr');
    tr.dataset.id = p.id;
    const date = el('td', 'date');
    const time = el('time', null, fmt(dtFmt, p.created_at));
    time.setAttribute('datetime', String(p.created_at || ''));
    date.appendChild(time);
    const amount = el('td', 'num');
    amount.appendChild(moneyNode(p.amount_minor, p.currency));
    const status = el('td');
    status.appendChild(el('span', 'badge st-' + String(p.status).replace(/[^a-z]/g, ''), p.status));
    const cp = el('td');
    cp.append(el('span', 'cp-name', p.counterparty_name || '\u2014'), ' ', el('span', 'cp-country', p.country || ''));
    const note = el('td', 'note');
    note.tabIndex = 0;
    note.setAttribute('aria-label', 'Note for ' + p.id + ', press Enter to edit');
    paintNote(note, p.note);
    tr.append(date, amount, status, cp, note);
    return tr;
  }
  function renderRows() {
    const filtered = !!(state.status || state.currency);
    $('rows').replaceChildren(...state.rows.map(rowFor));
    const empty = state.total === 0;
    show($('payments').parentElement, !empty);
    show($('empty-state'), empty);
    if (empty) {
      $('empty-title').textContent = filtered ? 'No payments match these filters' : 'No payments yet';
      $('empty-hint').textContent = filtered ? 'Try another status or currency.' : 'Run a sync to pull every payment from Meridian.';
      $('empty-cta').textContent = filtered ? 'Clear filters' : 'Sync now';
    }
    const from = state.total ? state.offset + 1 : 0;
    const to = state.offset + state.rows.length;
    $('range').textContent = state.total ? 'Showing ' + fmtInt(from) + '\u2013' + fmtInt(to) + ' of ' + fmtInt(state.total) : 'Showing 0 of 0';
    $('prev').disabled = state.offset <= 0;
    $('next').disabled = to >= state.total;
  }
  async function loadPayments() {
    const seq = ++state.seq;
    const q = new URLSearchParams({ limit: String(PAGE), offset: String(state.offset), sort: state.sort });
    if (state.status) q.set('status', state.status);
    if (state.currency) q.set('currency', state.currency);
    let r;
    try {
      r = await api('/api/payments?' + q.toString());
    } catch (e) {
      if (seq === state.seq) {
        showLoadError(explain(e, 'payments'));
        show($('payments').parentElement, false);
        $('range').textContent = 'Payments unavailable';
      }
      throw e;
    }
    if (seq !== state.seq) return;
    const total = Number(r.total) || 0;
    if ((r.data || []).length === 0 && total > 0 && state.offset > 0) {
      state.offset = Math.floor((total - 1) / PAGE) * PAGE;
      return loadPayments();
    }
    state.rows = r.data || [];
    state.total = total;
    show($('load-error'), false);
    renderRows();
  }
  function showLoadError(text) {
    $('load-error-text').textContent = text;
    show($('load-error'), true);
  }
  function setSort(key) {
    state.sort = state.sort === key ? '-' + key : key;
    for (const th of document.querySelectorAll('th[data-sort]')) {
      const k = th.getAttribute('data-sort');
      th.setAttribute('aria-sort', state.sort === k ? 'ascending' : state.sort === '-' + k ? 'descending' : 'none');
    }
    state.offset = 0;
    loadPayments().catch(() => {});
  }

  // ---------- notes: optimistic edit, saving → saved, 409 revert ----------
  let editing = null;
  function openEditor(td) {
    if (editing && editing.td === td) return;
    const tr = td.closest('tr');
    const row = state.rows.find((p) => p.id === tr.dataset.id);
    if (!row) return;
    const old = row.note || '';
    const input = el('input');
    input.type = 'text';
    input.maxLength = 280;
    input.value = old;
    input.setAttribute('aria-label', 'Note for ' + row.id);
    const ctx = { td, row, input, old };
    editing = ctx;
    td.removeAttribute('data-state');
    td.replaceChildren(input);
    input.focus();
    input.select();
    input.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') { ev.preventDefault(); commitNote(ctx); }
      else if (ev.key === 'Escape') { ev.preventDefault(); cancelNote(ctx); td.focus(); }
    });
    input.addEventListener('blur', () => commitNote(ctx));
  }
  function cancelNote(ctx) {
    if (editing !== ctx) return;
    editing = null;
    paintNote(ctx.td, ctx.old);
  }
  function commitNote(ctx) {
    if (editing !== ctx) return;
    const value = ctx.input.value.trim();
    if (value === ctx.old || !value) {
      cancelNote(ctx);
      if (!value && ctx.old) notice('A note needs 1 to 280 characters, so the note was left as it was.', false);
      return;
    }
    editing = null;
    const { td, row, old } = ctx;
    row.note = value;
    paintNote(td, value); // optimistic: the value paints before the server answers
    td.setAttribute('data-state', 'saving');
    td.setAttribute('aria-busy', 'true');
    api('/api/payments/' + encodeURIComponent(row.id) + '/note', { method: 'POST', body: JSON.stringify({ note: value }) })
      .then((r) => {
        row.note = r && typeof r.note === 'string' ? r.note : value;
        if (r && r.version != null) row.version = r.version;
        if (editing && editing.td === td) return;
        paintNote(td, row.note);
        td.setAttribute('data-state', 'saved');
      })
      .catch((e) => {
        row.note = old;
        if (!(editing && editing.td === td)) paintNote(td, old);
        td.setAttribute('data-state', e.status === 409 ? 'conflict' : 'error');
        notice(e.status === 409
          ? 'Your note on ' + row.id + ' was not saved: the payment was changed on Meridian at the same time, so the previous note is back. Refresh and try again.'
          : 'Your note on ' + row.id + " couldn't be saved (" + (e.status || 'network') + '), so the previous note is back. Check the connection and try again.', true);
      })
      .finally(() => td.removeAttribute('aria-busy'));
  }
  let noticeTimer = 0;
  function notice(text, isError) {
    const n = $('notice');
    n.textContent = text;
    n.classList.toggle('is-error', !!isError);
    show(n, true);
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => show(n, false), 15000);
  }

  // ---------- summary and last sync ----------
  async function loadSummary() {
    let s;
    try { s = await api('/api/summary'); } catch (e) {
      $('summary').replaceChildren(el('p', 'muted', 'Totals are unavailable until the server answers.'));
      $('last-sync').textContent = 'unknown';
      throw e;
    }
    const cards = (s.by_currency || []).map((c) => {
      const card = el('div', 'cur-total');
      card.setAttribute('data-currency', c.currency);
      const amt = el('strong', 'cur-amt', money(c.total_minor, c.currency));
      if (!(CURRENCIES[c.currency] || [''])[0]) amt.append(' ', el('span', 'ccy', c.currency));
      card.append(el('span', 'cur-code', c.currency), amt,
        el('span', 'cur-count', fmtInt(c.count) + (Number(c.count) === 1 ? ' payment' : ' payments')));
      return card;
    });
    $('summary').replaceChildren(...(cards.length ? cards : [el('p', 'muted', 'No payments synced yet.')]));
    const count = Number(s.count) || 0;
    $('summary-meta').textContent = count
      ? fmtInt(count) + ' payments \u00b7 ' + fmt(dayFmt, s.oldest) + ' to ' + fmt(dayFmt, s.newest) + ' \u00b7 one total per currency'
      : '';
    $('last-sync').textContent = s.last_sync ? fmt(dtsFmt, s.last_sync) : 'Never synced';
  }

  // ---------- 3D panel ----------
  async function loadBuckets() {
    const viz = window.VsViz;
    if (!viz) return;
    let b;
    try { b = await api('/api/buckets'); } catch (e) {
      show($('viz-error'), true);
      show($('viz-empty'), false);
      throw e;
    }
    show($('viz-error'), false);
    const scene = viz.setData(b);
    show($('viz-empty'), scene.bars.length === 0);
    viz.fillTable($('viz-fallback'), dayLabel);
  }
  function setTableMode(on) {
    state.tableMode = on;
    $('viz-body').classList.toggle('is-table', on);
    show($('viz-fallback'), on);
    show($('viz-hint'), !on);
    const t = $('viz-toggle');
    t.setAttribute('aria-pressed', String(on));
    t.textContent = on ? 'Show 3D chart' : 'Show as table';
    if (!on && window.VsViz) window.VsViz.render();
  }
  function initViz() {
    const viz = window.VsViz;
    if (!viz) return;
    viz.init($('viz3d'), {
      tooltip: $('viz-tooltip'),
      dayLabel,
      onNoGL() {
        state.noGL = true;
        show($('viz-notice'), true);
        show($('viz-toggle'), false);
        setTableMode(true);
      },
      onPick(status) { // a bar click filters the payments table by that bar's status
        statusDD.set(status);
        state.status = status;
        state.offset = 0;
        loadPayments().catch(() => {});
      },
    });
    $('viz-toggle').addEventListener('click', () => setTableMode(!state.tableMode));
  }

  // ---------- sync ----------
  function setSyncing(on) {
    state.syncing = on;
    for (const b of [$('sync-now'), $('empty-cta')]) {
      b.disabled = on;
      b.setAttribute('aria-busy', String(on));
    }
    const s = $('sync-now');
    s.setAttribute('data-state', on ? 'syncing' : 'idle');
    s.textContent = on ? 'Syncing\u2026' : 'Sync now';
  }
  function syncStatus(text, isError) {
    const n = $('sync-status');
    n.textContent = text;
    n.classList.toggle('is-error', !!isError);
    show(n, true);
  }
  async function runSync() {
    if (state.syncing) return;
    setSyncing(true);
    syncStatus('Syncing with Meridian\u2026 the table stays usable meanwhile.', false);
    try {
      const r = await api('/api/sync', { method: 'POST' });
      await refreshAll();
      syncStatus('Sync complete: ' + fmtInt(r.fetched) + ' fetched, ' + fmtInt(r.inserted) + ' new, ' +
        fmtInt(r.updated) + ' updated. Last sync ' + $('last-sync').textContent + '.', false);
    } catch (e) {
      syncStatus(e.code === 'vendor_unavailable'
        ? 'Sync failed: Meridian is unavailable. Check that the vendor service is running, then try again.'
        : 'Sync failed (' + (e.status || 'network') + ' ' + e.code + '). Check the connection, then try again.', true);
    } finally {
      setSyncing(false);
    }
  }

  // ---------- wiring ----------
  let statusDD = null, currencyDD = null;
  function refreshAll() {
    return Promise.allSettled([loadPayments(), loadSummary(), loadBuckets()]);
  }
  function boot() {
    statusDD = dropdown($('status-filter'), (v) => { state.status = v; state.offset = 0; loadPayments().catch(() => {}); });
    currencyDD = dropdown($('currency-filter'), (v) => { state.currency = v; state.offset = 0; loadPayments().catch(() => {}); });
    $('sync-now').addEventListener('click', runSync);
    $('empty-cta').addEventListener('click', () => {
      if (state.status || state.currency) {
        statusDD.set(''); currencyDD.set('');
        state.status = ''; state.currency = ''; state.offset = 0;
        loadPayments().catch(() => {});
      } else runSync();
    });
    $('retry').addEventListener('click', () => { show($('load-error'), false); refreshAll(); });
    $('viz-retry').addEventListener('click', () => { loadBuckets().catch(() => {}); });
    $('prev').addEventListener('click', () => { state.offset = Math.max(0, state.offset - PAGE); loadPayments().catch(() => {}); });
    $('next').addEventListener('click', () => { state.offset += PAGE; loadPayments().catch(() => {}); });
    for (const th of document.querySelectorAll('th[data-sort]')) {
      th.querySelector('button').addEventListener('click', () => setSort(th.getAttribute('data-sort')));
    }
    const tbody = $('rows');
    tbody.addEventListener('click', (ev) => {
      const td = ev.target.closest('td.note');
      if (td && !ev.target.closest('input')) openEditor(td);
    });
    tbody.addEventListener('keydown', (ev) => {
      const td = ev.target;
      if (td.matches && td.matches('td.note') && (ev.key === 'Enter' || ev.key === 'F2')) { ev.preventDefault(); openEditor(td); }
    });
    initViz();
    refreshAll();
  }
  boot();
})();
