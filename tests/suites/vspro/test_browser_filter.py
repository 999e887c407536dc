"""``v_filter`` against a status dropdown whose options are ``<button data-v=...>`` (an
independently written sb-6 app): no data-option, data-value, role=option or li, and the
option text is capitalised. The probe must still drive it, and must not credit a page
whose buttons name no status."""

from __future__ import annotations

import json
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from browser_canned import views, with_browser
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route
from vspro_canned import EXPECT, FIXTURE, grade_one

from benchwright.probes.browser import BrowserSession, browser_available
from benchwright.services._server import BackgroundServer
from benchwright.suites.vspro.browser._load import observe_load

pytestmark = pytest.mark.skipif(browser_available() is not None, reason="no headless Chromium")

PAGE = """<!doctype html><html><body>
<div id="status-filter" data-value="">
  <button id="opener" aria-haspopup="listbox">Status: All</button>
  <div id="menu" hidden>%(options)s</div>
</div>
<table><thead><tr><th>Date</th><th>Amount</th><th>Status</th><th>Note</th></tr></thead>
<tbody id="rows"></tbody></table><p id="readout"></p>
<script>
const TOTALS = %(totals)s;
const control = document.getElementById('status-filter');
const menu = document.getElementById('menu');
function render(status) {
  const shown = status || 'settled';
  document.getElementById('rows').innerHTML = [1, 2, 3].map((i) =>
    `<tr><td>Mon 23 Mar</td><td>€${i}.00</td><td>${status ? shown : ['settled',
      'pending', 'failed'][i - 1]}</td><td></td></tr>`).join('');
  const total = status ? TOTALS[status] : TOTALS[''];
  document.getElementById('readout').textContent = `Showing 1\u20133 of ${total}`;
}
document.getElementById('opener').addEventListener('click', () => { menu.hidden = !menu.hidden; });
menu.addEventListener('click', (e) => {
  const b = e.target.closest('button'); if (!b) return;
  control.dataset.value = b.dataset.v; menu.hidden = true; render(b.dataset.v);
});
render('');
</script></body></html>"""
BUTTONS = ('<button data-v="">All statuses</button><button data-v="settled">Settled</button>'
           '<button data-v="refunded">Refunded</button>')  # fmt: skip
UNNAMED = '<button data-v="">Everything</button><button data-v="r">Option 3</button>'
"""Buttons that name no status (a data-v of "r", text "Option 3"): nothing to drive."""


@pytest.fixture(scope="module")
def server() -> Iterator[BackgroundServer]:
    totals = json.dumps({"": EXPECT.total, **EXPECT.by_status})

    async def page(request: Request) -> HTMLResponse:
        options = UNNAMED if request.query_params.get("unnamed") else BUTTONS
        return HTMLResponse(PAGE % {"options": options, "totals": totals})

    with BackgroundServer(Starlette(routes=[Route("/", page)])) as running:
        yield running


def _load(server: BackgroundServer, tmp_path, query: str = ""):
    ctx = SimpleNamespace(base_url=f"{server.base_url}/{query}#",
                          mock=SimpleNamespace(fixture=FIXTURE))  # fmt: skip
    with BrowserSession() as session:
        return observe_load(session, ctx, tmp_path)  # type: ignore[arg-type]


def test_button_options_named_by_a_data_attribute_are_driven(server, tmp_path) -> None:
    load = _load(server, tmp_path)
    assert load.filter.option_found and load.filter.restore_found, load.filter
    row = grade_one(with_browser(views(load=load)), "v_filter")
    assert row.score == 1.0, row.detail
    assert row.detail == (f"1: 3 refunded rows, readout {EXPECT.by_status['refunded']} vs "
                          f"{EXPECT.by_status['refunded']}; data-value 'refunded'; restore "
                          f"to All (data-value '', readout {EXPECT.total})")  # fmt: skip


def test_buttons_that_name_no_status_are_not_driven(server, tmp_path) -> None:
    load = _load(server, tmp_path, "?unnamed=1")
    assert not load.filter.option_found, load.filter
    row = grade_one(with_browser(views(load=load)), "v_filter")
    assert row.detail == "0.2: control present but its 'refunded' option could not be driven"
