"""The vendorsync reference's page in headless Chromium, served by the real app process
against the Meridian v1 mock: the empty, data and error states, the sync button,
currency formatting, no raw ISO-8601 anywhere, a 375-pixel viewport, each status
looking distinct, and the status filter."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from reference_app import ReferenceApp

from benchwright.services.meridian import MeridianMock

ISO_8601 = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


def _euros(minor: int) -> str:
    return f"€{minor // 100:,}.{minor % 100:02d}"


@pytest.fixture
def fresh_app(vendor: MeridianMock, tmp_path) -> Iterator[ReferenceApp]:
    running = ReferenceApp(tmp_path / "page.db", vendor.base_url).start()
    yield running
    running.close()


@pytest.fixture(scope="module")
def synced_app(vendor: MeridianMock, tmp_path_factory) -> Iterator[ReferenceApp]:
    running = ReferenceApp(tmp_path_factory.mktemp("page") / "synced.db", vendor.base_url)
    running.start()
    assert running.post("/api/sync").status == 200
    yield running
    running.close()


def _console_errors(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def test_a_fresh_db_shows_the_empty_state_then_the_sync_button_fills_the_table(
    page, vendor, fresh_app
):
    truth = vendor.fixture
    errors = _console_errors(page)
    page.goto(fresh_app.url("/"))
    page.locator("#empty").wait_for(state="visible")
    assert "No payments yet" in page.locator("#empty").inner_text()
    assert page.locator("#last-sync").inner_text() == "Never synced"
    assert page.locator("#loading").is_hidden() and page.locator("#error").is_hidden()

    held: list = []  # the sync request, held until the button has been seen disabled
    page.route("**/api/sync", lambda route: held.append(route))
    page.locator("#sync-now").click()
    page.wait_for_function("document.querySelector('#sync-now').disabled")
    while not held:
        page.wait_for_timeout(20)  # let the route handler run
    assert page.locator("#empty-sync").is_disabled()  # no second sync while one runs
    held[0].continue_()
    page.locator("#data").wait_for(state="visible")
    assert page.locator("#payments tbody tr").count() == 25
    summary = f"{truth.total} payments · {_euros(truth.sum_minor)}"
    assert page.locator("#summary").inner_text() == summary
    first = page.locator("#payments tbody tr").first.locator("td").all_inner_texts()
    assert first[1:] == [_euros(truth.rows[0]["amount_minor"]), "settled"]  # the oldest
    assert page.locator("#last-sync").inner_text() not in ("", "Never synced")
    assert page.locator("#sync-now").is_enabled()
    assert page.locator("#empty").is_hidden()

    page.locator("#next").click()
    page.wait_for_function("document.querySelector('#page-info').textContent.startsWith('26')")
    assert page.locator("#page-info").inner_text() == f"26\u201350 of {truth.total}"
    assert not ISO_8601.search(page.evaluate("document.documentElement.outerHTML"))
    assert errors == []


def test_an_unreachable_api_shows_the_error_state_and_retry_recovers(page, synced_app):
    page.route("**/api/**", lambda route: route.abort())
    page.goto(synced_app.url("/"))
    page.locator("#error").wait_for(state="visible")
    text = page.locator("#error").inner_text()
    assert "server is running" in text and page.locator("#retry").is_visible()
    assert page.locator("#data").is_hidden() and page.locator("#loading").is_hidden()
    page.unroute("**/api/**")
    page.locator("#retry").click()
    page.locator("#data").wait_for(state="visible")
    assert page.locator("#error").is_hidden()


def test_at_375_pixels_nothing_scrolls_sideways(page, synced_app):
    page.set_viewport_size({"width": 375, "height": 700})
    page.goto(synced_app.url("/"))
    page.locator("#data").wait_for(state="visible")
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1]


@pytest.fixture
def mixed_app(own_vendor: MeridianMock, tmp_path) -> Iterator[ReferenceApp]:
    """An app synced after the vendor's update pass: settled and refunded payments."""
    own_vendor.mutate_statuses()
    running = ReferenceApp(tmp_path / "mixed.db", own_vendor.base_url).start()
    assert running.post("/api/sync").status == 200
    yield running
    running.close()


def _badges(page) -> list[dict]:
    """Each status badge of the table: its text and its computed ink and fill."""
    return page.eval_on_selector_all(
        "#payments tbody .badge",
        """els => els.map(el => {
            const style = getComputedStyle(el);
            return {text: el.textContent, ink: style.color, fill: style.backgroundColor};
        })""",
    )


def _page_info_reads(page, text: str) -> None:
    page.wait_for_function(
        "text => document.querySelector('#page-info').textContent === text", arg=text
    )


def test_each_status_looks_distinct(page, own_vendor, mixed_app):
    truth = own_vendor.fixture
    first_page = set(truth.true_order[:25])
    assert first_page & set(truth.mutation_map) and first_page - set(truth.mutation_map)
    page.goto(mixed_app.url("/"))
    page.locator("#data").wait_for(state="visible")
    looks = {badge["text"]: (badge["ink"], badge["fill"]) for badge in _badges(page)}
    assert set(looks) == {"settled", "refunded"}
    (settled_ink, settled_fill), (refunded_ink, refunded_fill) = looks["settled"], looks["refunded"]
    assert settled_ink != refunded_ink and settled_fill != refunded_fill
    assert "rgba(0, 0, 0, 0)" not in (settled_fill, refunded_fill)  # a fill, not plain text


def test_the_status_filter_narrows_the_table_and_its_paging(page, own_vendor, mixed_app):
    errors = _console_errors(page)
    total, refunded = own_vendor.fixture.total, len(own_vendor.fixture.mutation_map)
    page.goto(mixed_app.url("/"))
    page.locator("#data").wait_for(state="visible")
    assert page.locator("#status-filter option").all_inner_texts() == [
        "All statuses", "Settled", "Pending", "Refunded"]  # fmt: skip

    page.select_option("#status-filter", "refunded")
    _page_info_reads(page, f"1\u2013{refunded} of {refunded}")
    assert {badge["text"] for badge in _badges(page)} == {"refunded"}
    assert page.locator("#next").is_disabled()

    page.select_option("#status-filter", "settled")
    _page_info_reads(page, f"1\u201325 of {total - refunded}")
    page.locator("#next").click()
    _page_info_reads(page, f"26\u201350 of {total - refunded}")
    assert {badge["text"] for badge in _badges(page)} == {"settled"}

    page.select_option("#status-filter", "pending")  # back to the first page, none to show
    _page_info_reads(page, "0\u20130 of 0")
    assert page.locator("#payments td.none").inner_text() == "No pending payments."
    assert page.locator("#data").is_visible() and page.locator("#empty").is_hidden()

    page.select_option("#status-filter", "")
    _page_info_reads(page, f"1\u201325 of {total}")
    assert errors == []
