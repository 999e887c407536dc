"""The sb-7 page-side readers beyond the kit's (`kit.browser.dom`): each visible row's id
with its Amount cell, the canvas box at phone width, and the pre-sync state."""

# ruff: noqa: E501  (JavaScript source; its lines follow the page code, not Python's limit)

from __future__ import annotations

from benchwright.suites.kit.browser.dom import EMPTY_NOW, HELPERS

AMOUNTS = (
    "() => {"
    + HELPERS
    + r"""
  const ai = column(/^amount/i, 1);
  return dataRows().map((r) => [r.getAttribute('data-id'), cell(r, ai) ? cell(r, ai).innerText.trim() : '']);
}"""
)

CANVAS = r"""() => { const c = document.getElementById('viz3d');
  if (!c) return null; const b = c.getBoundingClientRect(); return [b.width, b.height]; }"""

_PRESYNC = (
    HELPERS
    + r"""
  const LOADING_RE = /loading|syncing|sync(?:ing)? in progress|fetching|first sync|please wait/i;
  let loading = null;
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('script,style,button')) continue;
    const busy = el.matches('[aria-busy="true"], progress, [role="progressbar"]');
    if ((el.children.length && !busy) || !vis(el)) continue;
    const t = (el.innerText || el.getAttribute('aria-label') || '').trim();
    if (busy || (t && t.length < 200 && LOADING_RE.test(t))) { loading = t || el.tagName.toLowerCase(); break; }
  }
  const table = [...document.querySelectorAll('table')].some((t) => t.querySelector('thead') && vis(t));
"""
)

PRESYNC = (
    "() => {"
    + _PRESYNC
    + "return {...("
    + EMPTY_NOW
    + ")(), loading_text: loading, table_visible: table}; }"
)
"""Everything the empty scenario reads: the kit's empty-state reading plus the pre-sync
state (a loading or syncing indication, and whether a table is shown)."""

PRESYNC_READY = (
    "() => {"
    + _PRESYNC
    + "const base = ("
    + EMPTY_NOW
    + ")(); return !!(base.rows || base.empty_text || loading); }"
)
"""The page shows rows, an empty state or a loading state: ready to be read."""
