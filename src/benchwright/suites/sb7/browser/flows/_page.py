"""Page-side readers for the flow scenarios (JavaScript run with ``page.evaluate``): the
spec's own selectors (§7), each reader reporting what it finds and never judging."""

# ruff: noqa: E501  (JavaScript source; its lines follow the page code, not Python's limit)

from __future__ import annotations

ROW = "tbody tr[data-id]"
"""A payments row (§7: every row carries ``data-id``)."""

TABLE_HASH = r"""() => {
  const rows = [...document.querySelectorAll('tbody tr[data-id]')].filter((r) => r.getClientRects().length);
  const s = rows.map((r) => r.innerText).join('|');
  let h = 0; for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return rows.length + ':' + s.length + ':' + (h >>> 0).toString(16);
}"""
"""A digest of the visible payments rows' text."""

WATCH_SYNC = r"""(button) => {
  const t0 = performance.now();
  const w = window.__bwSync = {t0, inflight: null, idle: null, mutations: []};
  const busy = () => button.disabled || button.getAttribute('aria-busy') === 'true' ||
    button.getAttribute('data-state') === 'syncing';
  const mark = () => {
    if (w.inflight === null && busy()) w.inflight = performance.now() - t0;
    else if (w.inflight !== null && w.idle === null && !busy()) w.idle = performance.now() - t0;
  };
  new MutationObserver(mark).observe(button, {attributes: true});
  button.addEventListener('click', () => setTimeout(mark, 0), true);
  const body = document.querySelector('tbody');
  if (body) new MutationObserver(() => w.mutations.push(performance.now()))
    .observe(body, {childList: true, subtree: true, characterData: true});
}"""
"""Stamps the button's first busy and next idle moment, and every table-body mutation."""

SYNC_STATE = r"""() => {
  const w = window.__bwSync;
  const sync = performance.getEntriesByType('resource').filter((e) => /\/api\/sync(\?|$)/.test(e.name));
  const done = sync.length && sync[0].responseEnd > 0 ? sync[0].responseEnd : null;
  const after = (re) => done !== null && performance.getEntriesByType('resource')
    .some((e) => re.test(e.name) && e.startTime >= done);
  const n = document.getElementById('notice');
  return {inflight_ms: w.inflight, idle: w.idle !== null, sync_sent: sync.length > 0,
    refetched: after(/\/api\/(payments|summary)(\?|$)/),
    rerendered: done !== null && w.mutations.some((t) => t >= done),
    notice: n && !n.hidden && n.getClientRects().length ? n.innerText.trim() || null : null};
}"""

NOTE_CELL = r"""(index) => {
  const rows = [...document.querySelectorAll('tbody tr[data-id]')].filter((r) => r.getClientRects().length);
  const row = rows[index];
  if (!row) return null;
  const heads = [...row.closest('table').querySelectorAll('thead th')];
  const i = heads.findIndex((h) => /^note/i.test(h.innerText.trim()));
  return i >= 0 ? row.cells[i] || null : null;
}"""
"""The Note cell (the column headed Note) of the ``index``-th visible payments row."""

EDITOR_FOCUSED = (
    "() => { const a = document.activeElement; return !!a && a !== document.body && "
    "(a.matches('input, textarea') || a.isContentEditable); }"
)

STAMP_NOTE = r"""([td, value]) => {
  const n = window.__bwNote = {enter: null, paint: null, pre: null};
  addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && n.enter === null) { n.enter = performance.now(); n.pre = td.innerText.includes(value); }
  }, true);
  const stamp = () => {
    if (n.enter !== null && n.paint === null && td.isConnected && td.innerText.includes(value)) n.paint = performance.now();
  };
  new MutationObserver(stamp).observe(document.documentElement, {childList: true, subtree: true, characterData: true, attributes: true});
}"""
"""Stamps Enter (capture phase, before the page's own handler) and the first mutation
after which the cell shows the typed value."""

NOTE_STATE = r"""([td, value]) => {
  const row = td.closest('tr');
  return {painted: td.isConnected && td.innerText.includes(value),
    state: row ? row.getAttribute('data-state') : null, stamp: window.__bwNote || null};
}"""

FEED_STATE = r"""() => {
  const f = document.getElementById('notifications');
  return f ? f.getAttribute('data-state') : null;
}"""

FEED_KINDS = r"""() => [...document.querySelectorAll('#notifications [data-event-seq]')]
  .map((e) => [Number(e.getAttribute('data-event-seq')), e.getAttribute('data-kind')])"""
"""``[seq, kind]`` of every feed row."""

DRAFT_ROWS = r"""() => Object.fromEntries([...document.querySelectorAll('#draft-list [data-draft-id]')]
  .map((e) => [e.getAttribute('data-draft-id'), e.getAttribute('data-state')]))"""
"""``{draft id: data-state}`` of the drafts list."""

NOTICE = r"""() => { const n = document.getElementById('notice');
  return n && !n.hidden && n.getClientRects().length ? n.innerText.trim() || null : null; }"""

MARK_DOCUMENT = "(token) => { window.__bwDocument = token; }"
SAME_DOCUMENT = (
    "(token) => window.__bwDocument === token && "
    "performance.getEntriesByType('navigation').every((e) => e.type !== 'reload')"
)
"""Whether the document the probe marked is still the one shown (no reload)."""
