"""Page-side readers of a payments console, whatever the suite (JavaScript run with
``page.evaluate``): they report, never judge.

A payments row (``dataRows``) is a visible ``tbody tr`` with two or more cells, outside
``#viz-fallback`` (the viz probe's rule): the spec's 2D fallback table is hidden while the
3D panel runs and may come first in the DOM, but its rows are days, not payments.
"""

# ruff: noqa: E501  (JavaScript source; its lines follow the page code, not Python's limit)

from __future__ import annotations

HELPERS = r"""
const vis = (e) => !!e && e.getClientRects().length > 0 &&
  (e.checkVisibility ? e.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})
                     : getComputedStyle(e).visibility !== 'hidden');
const dataRows = () => [...document.querySelectorAll('tbody tr')].filter(
  (r) => !r.closest('#viz-fallback') && r.querySelectorAll('td,th').length >= 2 && vis(r) &&
    r.innerText.trim());
const column = (re, fallback) => {
  const heads = [...document.querySelectorAll('thead th, thead td')].filter(vis);
  const i = heads.findIndex((h) => re.test(h.innerText.trim()));
  return i >= 0 ? i : fallback;
};
const cell = (row, i) => row.cells[i] || null;
const num = (s) => { const v = parseInt(String(s).replace(/[^\d]/g, ''), 10); return isNaN(v) ? null : v; };
const readout = () => {
  const m = /showing\s+[\d,.\u202f\u00a0 ]+\s*(?:[-\u2013\u2014]|to)\s*[\d,.\u202f\u00a0 ]+\s+of\s+([\d,.\u202f\u00a0]+)/i
    .exec(document.body.innerText);
  return m ? num(m[1]) : null;
};
const hashText = (s) => { let h = 0; for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return s.length + ':' + (h >>> 0).toString(16); };
const snapshot = () => {
  const rows = dataRows();
  const si = column(/^status/i, 2);
  const f = document.getElementById('status-filter');
  const ls = document.getElementById('last-sync');
  return {rows: rows.length, readout_total: readout(), last_sync: ls ? ls.innerText.trim() : null,
    table_hash: hashText(rows.map((r) => r.innerText).join('|')),
    statuses: rows.map((r) => (cell(r, si) ? cell(r, si).innerText.trim().toLowerCase() : '')),
    filter_value: f ? f.getAttribute('data-value') : null};
};
const ERROR_RE = /error|unable|unreachable|couldn.t|could not|can.t reach|cannot|failed|offline|unavailable|try again|retry/i;
const ACTION_RE = /try again|retry|check|running|refresh|reload/i;
const BARE_RE = /^(settled|succeeded|pending|failed|refunded)\b[\s()0-9%\u00b7.,-]*$/i;
const errorTexts = () => {
  const found = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('td,th,script,style,button,select,option,legend,[role="option"],[class*="legend" i],[class*="chip" i]')) continue;
    if (el.children.length > 0 && !el.matches('[role="alert"],[class*="error" i],[class*="alert" i],[class*="banner" i]')) continue;
    if (!vis(el)) continue;
    const t = (el.innerText || '').trim();
    if (!t || t.length >= 300 || BARE_RE.test(t)) continue;
    if (ERROR_RE.test(t)) found.push(t.slice(0, 200));
  }
  return found;
};
"""

SNAPSHOT = "() => {" + HELPERS + "return snapshot(); }"

ERRORS = "() => {" + HELPERS + "return errorTexts(); }"

LOAD = (
    "() => {"
    + HELPERS
    + r"""
  const rows = dataRows();
  const di = column(/^date/i, 0), ai = column(/^amount/i, 1), si = column(/^status/i, 2);
  const text = (r, i) => (cell(r, i) ? cell(r, i).innerText.trim() : '');
  const statuses = {};
  for (const r of rows) {
    const c = cell(r, si); if (!c) continue;
    const word = c.innerText.trim().toLowerCase(); if (!word || statuses[word]) continue;
    let el = c;
    for (;;) { const kid = [...el.children].find((k) => k.innerText.trim().toLowerCase() === word);
      if (!kid) break; el = kid; }
    const color = getComputedStyle(el).color;
    let bg = 'rgba(0, 0, 0, 0)';
    for (let n = el; n && n !== r.parentElement; n = n.parentElement) {
      const b = getComputedStyle(n).backgroundColor;
      if (b && b !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(b)) { bg = b; break; }
    }
    statuses[word] = [word, color, bg];
  }
  const scrub = (s) => s.replace(/\d{4}-\d{2}-\d{2}[T\s0-9:.+Z-]*/g, ' ')
    .replace(/[\u20ac$\u00a3\u00a5]\s?[\d,.\u202f\u00a0]+/g, ' ')
    .replace(/[\d,.\u202f\u00a0]+\s?(?:EUR|USD|GBP|CHF|JPY|KWD|KD)\b/gi, ' ')
    .replace(/\b(?:EUR|USD|GBP|CHF|JPY|KWD|KD)\s?[\d,.\u202f\u00a0]+/gi, ' ')
    .replace(/\b\d+(?:\.\d+)+\b/g, ' ');
  const kw = '(?:payments?|records?|results?|rows|items|entries|transactions|count|total)';
  const pats = [/\bof\s+(\d[\d,\u202f\u00a0]*)/gi, new RegExp('\\b(\\d[\\d,\\u202f\\u00a0]*)\\s+' + kw + '\\b', 'gi')];
  const hits = new Set();
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('script,style,td,th') || el.querySelector('table,tbody') || !vis(el)) continue;
    const t = el.innerText || ''; if (!t || t.length > 250 || !/\d/.test(t)) continue;
    const s = scrub(t);
    for (const re of pats) { re.lastIndex = 0; let m;
      while ((m = re.exec(s))) { const v = num(m[1]); if (v !== null) hits.add(v); } }
  }
  const ro = readout();
  const claimed = ro !== null ? ro : (hits.size ? Math.max(...hits) : null);
  const sheets = [...document.styleSheets].some((s) => { try { return s.cssRules.length > 0; } catch (e) { return true; } });
  const bgs = new Set([...document.querySelectorAll(
      'header, thead, th, table, button, [class*="card" i], [class*="summary" i], [class*="header" i], [class*="panel" i]')]
    .filter(vis).map((e) => getComputedStyle(e).backgroundColor)
    .filter((b) => b && b !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(b)));
  const pag = [];
  const ctrl = [...document.querySelectorAll('button, a, [role="button"]')].filter(vis);
  const label = (e) => (e.getAttribute('aria-label') || e.innerText || '').trim();
  for (const [name, re] of [['prev', /^(prev|previous|\u2039|\u00ab|<)/i], ['next', /^(next|\u203a|\u00bb|>)/i],
      ['first', /^first/i], ['last', /^last/i], ['page', /^page\s*\d+/i]]) {
    if (ctrl.some((e) => re.test(label(e)) || e.id === name)) pag.push(name);
  }
  if ([...document.querySelectorAll('nav[aria-label*="pag" i], [class*="pagin" i]')].some(vis)) pag.push('nav');
  if (ro !== null) pag.push('readout');
  const header = document.getElementById('app-header');
  return {rows: rows.length, claimed_total: claimed, claimed_hits: [...hits],
    dates: rows.slice(0, 3).map((r) => text(r, di)), amounts: rows.slice(0, 12).map((r) => text(r, ai)),
    statuses: Object.values(statuses), stylesheet: sheets, backgrounds: [...bgs],
    font_family: getComputedStyle(document.body).fontFamily || '', header_visible: vis(header),
    pagination: pag};
}"""
)

MOBILE = (
    "() => {"
    + HELPERS
    + """return {scroll_width: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
    inner_width: window.innerWidth, rows: dataRows().length}; }"""
)

EMPTY_RE = r"no\s+payments|nothing|empty|no\s+(records|results|data|items|transactions)"

EMPTY = (
    "() => {"
    + HELPERS
    + r"""
  const re = /"""
    + EMPTY_RE
    + r"""/i;
  let text = null;
  for (const el of document.querySelectorAll('body *')) {
    if (el.children.length || !vis(el) || el.closest('script,style')) continue;
    const t = (el.innerText || '').trim(); if (t && t.length < 200 && re.test(t)) { text = t; break; }
  }
  const cta = [...document.querySelectorAll('button, a, [role="button"]')]
    .some((b) => vis(b) && /sync/i.test(b.innerText || b.getAttribute('aria-label') || ''));
  const rows = dataRows().length;
  return (rows || text) ? {rows, empty_text: text, body_text_length: document.body.innerText.trim().length,
    cta_visible: cta} : null;
}"""
)

EMPTY_NOW = EMPTY.replace("return (rows || text) ? ", "return true ? ")

WATCH_SYNC = r"""(button) => {
  const t0 = performance.now();
  window.__bwSync = {inflight: null};
  const busy = () => button.disabled || button.getAttribute('aria-busy') === 'true' ||
    button.getAttribute('aria-disabled') === 'true' || button.getAttribute('data-state') === 'syncing';
  const mark = () => { if (window.__bwSync.inflight === null && busy()) window.__bwSync.inflight = performance.now() - t0; };
  new MutationObserver(mark).observe(button, {attributes: true});
  button.addEventListener('click', () => setTimeout(mark, 0), true);
}"""

SYNC_STATE = r"""(button) => ({inflight_ms: window.__bwSync ? window.__bwSync.inflight : null,
  busy: button.disabled || button.getAttribute('aria-busy') === 'true' ||
    button.getAttribute('aria-disabled') === 'true' || button.getAttribute('data-state') === 'syncing',
  api_sync: performance.getEntriesByType('resource').some((e) => /\/api\/sync(\?|$)/.test(e.name))})"""

STAMP_NOTE = r"""([td, value]) => {
  window.__bwNote = {enter: null, paint: null, pre: null};
  addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && window.__bwNote.enter === null) {
      window.__bwNote.enter = performance.now();
      window.__bwNote.pre = td.innerText.includes(value);
    }
  }, true);
  const stamp = () => { const n = window.__bwNote;
    if (n.enter !== null && n.paint === null && td.isConnected && td.innerText.includes(value)) n.paint = performance.now(); };
  new MutationObserver(stamp).observe(document.documentElement, {childList: true, subtree: true, characterData: true, attributes: true});
}"""

NOTE_STATE = r"""([td, value]) => {
  const states = [td, ...td.querySelectorAll('*'), td.parentElement].filter(Boolean);
  const state = td.getAttribute('data-state');
  return {painted: td.isConnected && td.innerText.includes(value), state,
    saving: states.some((n) => n.getAttribute('data-state') === 'saving' || n.getAttribute('aria-busy') === 'true') ||
      [...document.querySelectorAll('[data-state="saving"]')].some((n) => n.getClientRects().length),
    text: td.innerText.trim(), stamp: window.__bwNote || null};
}"""

NOTE_CELL = (
    "(index) => {"
    + HELPERS
    + r"""
  const row = dataRows()[index];
  if (!row) return null;
  const table = row.closest('table');
  const heads = table ? [...table.querySelectorAll('thead th, thead td')].filter(vis) : [];
  const i = heads.findIndex((h) => /^note/i.test(h.innerText.trim()));
  const n = row.cells.length;
  return n ? row.cells[i >= 0 && i < n ? i : n - 1] : null;
}"""
)
"""The note cell of the ``index``-th payments row (the Note column of the row's own table,
else its last cell), or null."""

NOTE_OPENERS = (
    "(td) => {"
    + HELPERS
    + r"""
  const kids = [...td.querySelectorAll('*')].filter(vis);
  const control = 'button, [role="button"], a[href]';
  const text = kids.find((e) => !e.matches(control) && !e.closest(control) &&
    !e.querySelector('*') && e.innerText.trim());
  const button = kids.find((e) => e.matches(control));
  return [text || null, button || null];
}"""
)
"""[the cell's note text element, a button-like control inside the cell]; either may be
null. The editor is tried from these before the cell's centre (facts C6: click or
double-click opens it; apps open it from the text or an "Add note" button)."""

FILTER_OPTION = (
    "(control, value) => {"
    + HELPERS
    + r"""
  const want = value.toLowerCase();
  const clickable = 'button, [role="button"], [role="option"], [role^="menuitem"], a, li, ' +
    'label, [tabindex], [onclick]';
  const names = (e) => [...e.attributes].filter((a) => a.name.startsWith('data-'))
    .map((a) => a.value.trim().toLowerCase());
  const text = (e) => (e.innerText || '').trim().toLowerCase();
  const hit = want ? (e) => names(e).includes(want) || text(e) === want
                   : (e) => /^(all|any|clear)/.test(text(e));
  for (const scope of [control, document]) {
    for (const e of scope.querySelectorAll(clickable)) {
      if (e === control || e.matches('[aria-haspopup]') ||
          e.closest('td, th, legend, [class*="legend" i]')) continue;
      if (vis(e) && hit(e)) return e;
    }
  }
  return null;
}"""
)
"""The status filter's option for ``value`` ("" = All/Any/Clear) where the contract's
selectors found none: a visible clickable element whose data-* value or text names it
(``<button data-v="refunded">Refunded</button>``), inside the control, then page-wide for
portaled menus; never the control, its opener, a table cell or a legend entry."""
