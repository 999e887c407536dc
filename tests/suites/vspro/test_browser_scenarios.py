"""The scenarios' page readers against a deliberately sloppy page served locally: what a
careless build shows (raw ISO dates, a 60-row dump, no filter, a page wider than a phone,
a mute error state) must reach the checks as near misses, not as passes."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from browser_canned import views, with_browser
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route
from vspro_canned import FIXTURE, grade_one

from benchwright.probes.browser import BrowserSession, browser_available
from benchwright.services._server import BackgroundServer
from benchwright.suites.kit.browser.states import observe_error
from benchwright.suites.vspro.browser._load import observe_load

pytestmark = pytest.mark.skipif(browser_available() is not None, reason="no headless Chromium")

ROW = ("<tr><td>2026-03-23T00:{i:02d}:00+01:00</td><td>¥{i}.00 JPY</td><td>settled</td>"
       "<td>Alpha</td><td></td></tr>")  # fmt: skip
SLOPPY = f"""<!doctype html><html><body>
<p>Payments</p><div style="width: 900px">wide banner</div>
<table><thead><tr><th>Date</th><th>Amount</th><th>Status</th><th>Counterparty</th>
<th>Note</th></tr></thead><tbody>{"".join(ROW.format(i=i) for i in range(60))}</tbody></table>
<script>fetch('/api/payments').then(r => r.json()).catch(() => {{}});</script>
</body></html>"""


@pytest.fixture(scope="module")
def ctx() -> Iterator[SimpleNamespace]:
    app = Starlette(routes=[Route("/", lambda r: HTMLResponse(SLOPPY))])
    with BackgroundServer(app) as server:
        yield SimpleNamespace(base_url=server.base_url, mock=SimpleNamespace(fixture=FIXTURE))


@pytest.fixture(scope="module")
def session() -> Iterator[BrowserSession]:
    with BrowserSession() as browser:
        yield browser


def test_a_sloppy_page_reaches_the_checks_as_near_misses(session, ctx, tmp_path):
    load = observe_load(session, ctx, tmp_path)
    assert load.rows == 60 and load.claimed_total is None
    assert load.mobile_scroll_width > load.mobile_inner_width
    obs = with_browser(views(load=load))
    score = {c: grade_one(obs, c) for c in ("v_dates_readable", "v_pagination", "v_filter",
             "v_responsive_375", "v_currency_rendered", "j_loads_data", "v_styling")}  # fmt: skip
    assert score["v_dates_readable"].detail.startswith("0: raw ISO-8601")
    assert score["v_pagination"].score == 0.0
    assert score["v_filter"].detail == "0: no #status-filter control"
    assert score["v_responsive_375"].detail.startswith("0: horizontal scroll at 375 px")
    assert score["v_currency_rendered"].score < 0.5  # ¥n.00: wrong money, KWD absent
    assert score["j_loads_data"].score == 0.5
    assert score["v_styling"].score < 1.0
    assert (tmp_path / "load-1280.png").is_file() and (tmp_path / "load-375.png").is_file()


def test_a_page_mute_about_a_dead_backend_has_no_error_state(session, ctx, tmp_path):
    seen = observe_error(session, ctx, tmp_path)
    assert not seen.error_visible and seen.retry_recovered is None
    assert any(r.action == "aborted" for r in seen.scenario.requests)
    row = grade_one(with_browser(views(error=seen)), "j_error_state")
    assert row.detail.startswith("0: no visible error state")
