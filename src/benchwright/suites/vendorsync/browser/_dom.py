"""The page-side readers of the vendorsync scenarios: plain JavaScript that reports what
is rendered (by the ids spec §7 makes contractual), never a verdict."""

HELPERS = """
const shown = (el) => !!el && el.getClientRects().length > 0
  && getComputedStyle(el).visibility !== 'hidden';
const byId = (id) => document.getElementById(id);
const clear = (c) => !c || c === 'transparent' || c === 'rgba(0, 0, 0, 0)';
const dataRows = () => [...document.querySelectorAll('#payments tbody tr')]
  .filter((r) => shown(r) && r.cells.length >= 3);
const textOf = (id) => (byId(id) ? byId(id).innerText.trim() : null);
"""

LOAD = (
    "() => {"
    + HELPERS
    + """
  const heads = [...document.querySelectorAll('#payments thead th')]
    .map((th) => th.textContent.trim().toLowerCase());
  const col = (re, fallback) => { const i = heads.findIndex((h) => re.test(h));
    return i < 0 ? fallback : i; };
  const dateAt = col(/date/, 0), statusAt = col(/status/, 2);
  const leaf = (cell) => { let el = cell;
    while (el.children.length === 1 && el.children[0].innerText.trim() === el.innerText.trim())
      el = el.children[0];
    return el; };
  const fillOf = (el, row) => {
    for (let n = el; n && n !== row.parentElement; n = n.parentElement) {
      const c = getComputedStyle(n).backgroundColor; if (!clear(c)) return c; }
    return 'rgba(0, 0, 0, 0)'; };
  const rows = dataRows();
  const statuses = rows.map((r) => { const cell = r.cells[statusAt]; const el = leaf(cell);
    const style = getComputedStyle(el);
    const own = !clear(style.backgroundColor) || (style.borderStyle !== 'none'
      && parseFloat(style.borderWidth) > 0);
    return {text: cell.innerText.trim().toLowerCase(), ink: style.color, fill: fillOf(el, r),
            badge: el !== cell && own}; });
  const sheets = [...document.styleSheets].some((s) => {
    try { return s.cssRules.length > 0; } catch (e) { return true; } });
  const backgrounds = new Set();
  for (const el of document.querySelectorAll('html, body, body *')) {
    if (!shown(el)) continue;
    const c = getComputedStyle(el).backgroundColor; if (!clear(c)) backgrounds.add(c); }
  return {
    rows: rows.length, page_info: textOf('page-info'),
    page_text: document.body ? document.body.innerText : '',
    dates: rows.map((r) => r.cells[dateAt].innerText.trim()), statuses,
    controls: ['prev', 'next', 'page-info', 'status-filter'].filter((id) => shown(byId(id))),
    stylesheet: sheets, backgrounds: [...backgrounds].sort(),
    font_family: document.body ? getComputedStyle(document.body).fontFamily : '',
  };
}"""
)

PAGE_INFO = "() => {" + HELPERS + "return textOf('page-info'); }"

MOBILE = (
    "() => {"
    + HELPERS
    + """
  const root = document.documentElement;
  return {rows: dataRows().length, scroll_width: root.scrollWidth,
          client_width: root.clientWidth};
}"""
)

SETTLED = (
    "() => {"
    + HELPERS
    + """
  const answered = performance.getEntriesByType('resource')
    .some((e) => e.name.includes('/api/') && e.responseEnd > 0);
  return dataRows().length > 0 || shown(byId('empty')) || shown(byId('error'))
    || (!!byId('loading') && !shown(byId('loading')) && answered);
}"""
)
"""The page has left its loading state: rows, the empty state or the error state, or --
for a page that shows none of them -- its ``#loading`` is hidden once an API answer came
in. Without that last clause a page with no empty state (the defect ``j_empty_state``
grades) would hold the probe for the whole bound before being read."""

STATES = (
    "() => {"
    + HELPERS
    + """
  return {
    error: shown(byId('error')), error_text: textOf('error') || '',
    retry: shown(byId('retry')), empty: shown(byId('empty')), empty_text: textOf('empty') || '',
    rows: dataRows().length,
    others: ['loading', 'empty', 'data'].filter((id) => shown(byId(id))),
  };
}"""
)

ERROR_SHOWN = "() => {" + HELPERS + "return shown(byId('error')); }"

SNAPSHOT = (
    "() => {"
    + HELPERS
    + """
  return {rows: dataRows().length, page_info: textOf('page-info'), summary: textOf('summary'),
          empty_visible: shown(byId('empty'))};
}"""
)

WATCH_SYNC = """(button) => {
  window.__vsSync = {busy: button.disabled};
  new MutationObserver(() => { if (button.disabled) window.__vsSync.busy = true; })
    .observe(button, {attributes: true});
}"""
"""Records whether ``#sync-now`` was ever disabled after the watch began."""

SYNC_STATE = "(button) => ({seen_busy: window.__vsSync.busy, busy: button.disabled})"
