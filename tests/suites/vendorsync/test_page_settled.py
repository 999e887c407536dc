"""When the state probes read the page (``_dom.SETTLED``), in real Chromium: as soon as a
state shows, or -- for a page that shows none -- once its ``#loading`` is hidden after an
API answer came in; never while it is still loading."""

from __future__ import annotations

import json

from benchwright.suites.vendorsync.browser._dom import SETTLED

ORIGIN = "http://vendorsync.test"
PAGE = """<!doctype html><div id="loading">Loading</div><table id="payments"><tbody></tbody>
</table><script>
fetch('/api/payments').then((r) => r.json()).then(() => {
  setTimeout(() => { document.getElementById('loading').hidden = true; }, %d);
});
</script>"""


def _open(page, hide_after_ms: int) -> None:
    page.route(f"{ORIGIN}/", lambda route: route.fulfill(
        status=200, content_type="text/html", body=PAGE % hide_after_ms))  # fmt: skip
    page.route(f"{ORIGIN}/api/payments", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps({"data": []})))  # fmt: skip
    page.goto(f"{ORIGIN}/")


def test_a_page_with_no_state_is_settled_once_loading_hides_after_the_answer(page):
    _open(page, hide_after_ms=0)
    page.wait_for_function(SETTLED, timeout=5000)
    assert page.evaluate(SETTLED) is True


def test_a_page_still_loading_is_not_settled(page):
    _open(page, hide_after_ms=60_000)
    page.wait_for_function("() => performance.getEntriesByType('resource').length > 0")
    assert page.evaluate(SETTLED) is False
