"""sb-7's ``empty`` scenario in a real Chromium on small pages: an empty table with an
invitation to sync, a blocking loading state as the other answer to D3, and phantom rows
on a never-synced database, each read as what it is and priced by j_empty_state against
what DECISIONS.md's D3 says."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from sb7_browser_canned import with_browser
from sb7_observations import perfect, row, swap
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from benchwright.probes.browser import BrowserSession, browser_available
from benchwright.services._server import BackgroundServer
from benchwright.suites.sb7.browser.states import observe_empty

pytestmark = [pytest.mark.skipif(browser_available() is not None, reason="no headless Chromium"),
              pytest.mark.slow]  # fmt: skip

HEAD = "<thead><tr><th>Date</th><th>Amount</th><th>Status</th></tr></thead>"
PAGES = {
    "/empty": f"<table>{HEAD}<tbody></tbody></table><p>No payments yet.</p>"
              "<button id='sync-now'>Sync now</button>",
    "/blocks": "<div aria-busy='true'>Loading your payments, the first sync is running</div>",
    "/phantom": f"<table>{HEAD}<tbody><tr><td>1 Mar</td><td>€1.00</td><td>settled</td></tr>"
                "</tbody></table>",
}  # fmt: skip
BLOCKS_D3 = "## D3\nThe table waits behind a blocking loading state until the first sync.\n"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    routes = [Route(path, lambda r, html=html: HTMLResponse(f"<!doctype html>{html}"))
              for path, html in PAGES.items()]  # fmt: skip
    with BackgroundServer(Starlette(routes=routes)) as found:
        yield found.base_url


@pytest.fixture(scope="module")
def views(server: str, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Each page read by the scenario (a browser each: a scenario name runs once per
    session)."""
    found = {}
    for path in PAGES:
        shots = tmp_path_factory.mktemp(path.strip("/"))
        with BrowserSession(artifacts=shots) as session:
            found[path] = observe_empty(session, SimpleNamespace(base_url=server + path), shots)
    return found


def test_an_empty_table_with_an_invitation_earns_the_row(views: dict) -> None:
    seen = views["/empty"]
    assert (seen.rows, seen.table_visible, seen.cta_visible) == (0, True, True)
    assert seen.empty_text == "No payments yet."
    assert row(with_browser(perfect(), empty=seen), "j_empty_state").score == 1.0


def test_a_blocking_loading_state_earns_the_row_only_when_d3_says_so(views: dict) -> None:
    seen = views["/blocks"]
    assert seen.rows == 0 and not seen.table_visible and seen.empty_text is None
    assert "Loading" in (seen.loading_text or "")
    said_empty = with_browser(perfect(), empty=seen)  # the fixture's D3: an empty table
    assert row(said_empty, "j_empty_state").score == 0.3
    assert row(swap(said_empty, "tree", decisions=BLOCKS_D3), "j_empty_state").score == 1.0


def test_phantom_rows_on_a_never_synced_database_score_zero(views: dict) -> None:
    seen = views["/phantom"]
    assert seen.rows == 1
    assert row(with_browser(perfect(), empty=seen), "j_empty_state").score == 0.0
