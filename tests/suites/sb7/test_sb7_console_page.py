"""The golden sb-7 console (spec §7) in Debian's real headless Chromium, against the golden
services synced from the real Meridian v3 mock: what a finance user sees and does.

Every expectation is read from the golden's own API at the same moment (the rows of the
first page, the filtered totals), never a constant copied from the page. The brush tests
play viz.js's half of the interface (the ``vs7:brush`` answers the brief fixes), so they
prove the table's half whatever viz.js ships. Waits are bounded by Playwright timeouts
against the page; nothing asserts a duration.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sb7_reference_app import TOKENS, Golden, call, dead_vendor_url, eventually

from benchwright.probes.browser import BrowserSession, browser_available
from benchwright.services.meridian_v3 import MeridianV3Mock, V3Timing

pytestmark = pytest.mark.slow

SEED = 11
WEB = Path(__file__).resolve().parents[3] / "suites" / "sb7" / "reference" / "app" / "web"
TIMING = V3Timing(retry_after_secs=1.0, create_hold_secs=1.0)
EXPONENT = {"EUR": 2, "USD": 2, "JPY": 0, "KWD": 3}
BADGES = {"settled": "rgb(5, 150, 105)", "pending": "rgb(217, 119, 6)",
          "refunded": "rgb(124, 58, 237)", "failed": "rgb(185, 28, 28)"}  # fmt: skip
WAIT_MS = 15_000
ISO = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
DASH = "\u2013"
"""The readout's ``showing X\u2013Y of TOTAL`` range dash."""
ALL_REFUNDED = (
    "() => [...document.querySelectorAll('#rows .badge')].every(b => b.innerText === 'refunded')"
)
IN_VIEW = (
    "r => { const b = r.getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; }"
)


class Console:
    """The synced golden and one Chromium, shared by the module's tests."""

    def __init__(self, golden: Golden, browser: Any) -> None:
        self.golden, self.browser = golden, browser
        self.url = golden.ledgerd.base + "/"

    def api(self, path: str, token: str | None = None) -> Any:
        answer = self.golden.ledgerd.get(path, token)
        assert answer.status == 200, answer.raw
        return answer.body

    def open(self, width: int = 1280, height: int = 800) -> Any:
        """A fresh context's page on the console, its console errors and page errors
        collected in ``page.problems``."""
        context = self.browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.problems = []
        page.on("console", lambda m: m.type == "error" and page.problems.append(m.text))
        page.on("pageerror", lambda e: page.problems.append(f"pageerror: {e}"))
        page.goto(self.url)
        return page


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    reason = browser_available()
    if reason:
        pytest.skip(reason)
    vendor = MeridianV3Mock(SEED, timing=TIMING)
    vendor.start()
    golden = Golden(tmp_path_factory.mktemp("sb7-console"), vendor.base_url)
    try:
        golden.notifierd.start()
        golden.ledgerd.start()
        eventually(lambda: golden.ledgerd.get("/api/health").body["last_sync"], 120, "first sync")
        assert vendor.wait_deliveries(30)
        with BrowserSession() as session:
            yield Console(golden, session.browser)
    finally:
        golden.close()
        vendor.stop()


def _rows(page: Any) -> list[dict[str, str]]:
    return page.eval_on_selector_all(
        "#rows tr",
        """rows => rows.map(r => ({id: r.dataset.id, brushed: r.dataset.brushed,
            date: r.cells[0].innerText, amount: r.cells[1].innerText,
            status: r.cells[2].innerText, note: r.cells[4].innerText}))""",
    )


def _exact_money(text: str, amount_minor: int, currency: str) -> bool:
    """Digit for digit the minor amount, with the currency's exponent as decimals."""
    digits = re.sub(r"[^\d.]", "", text)
    whole, _, fraction = digits.partition(".")
    return (whole + fraction).lstrip("0") == str(amount_minor).lstrip("0") and len(
        fraction
    ) == EXPONENT[currency]


def _readout_total(page: Any) -> int:
    text = page.inner_text("#showing")
    match = re.search(r"of\s+([\d,]+)", text)
    assert match, text
    return int(match.group(1).replace(",", ""))


def first_page_faults(page: Any, console: Console) -> list[str]:
    """What the first page gets wrong against the API read at the same moment: rows out of
    the server's order, money off by digits or exponent, ISO or unreadable dates, a status
    badge off its frozen hex, a summary tile off its currency's total."""
    first = console.api("/api/payments?limit=50")["data"]
    rows = _rows(page)
    faults = [] if [r["id"] for r in rows] == [p["id"] for p in first] else ["row order"]
    for row, payment in zip(rows, first, strict=False):
        if not _exact_money(row["amount"], payment["amount_minor"], payment["currency"]):
            faults.append(f"money {payment['currency']}: {row['amount']}")
        if ISO.search(row["date"]) or not re.search(r"[A-Za-z]{3}", row["date"]):
            faults.append(f"date: {row['date']}")
    colours = page.eval_on_selector_all(
        "#rows .badge", "bs => bs.map(b => [b.innerText, getComputedStyle(b).backgroundColor])"
    )
    faults += [f"badge {s}: {c}" for s, c in colours if BADGES.get(s) != c]
    tiles = page.eval_on_selector_all(
        "#summary .cur-total", "ts => ts.map(t => [t.dataset.currency, t.innerText])"
    )
    for (currency, text), row in zip(
        tiles, console.api("/api/summary")["by_currency"], strict=True
    ):
        if currency != row["currency"] or not _exact_money(
            text.split("\n")[1], row["total_minor"], currency
        ):
            faults.append(f"summary {currency}: {text!r}")
    return faults


def test_first_load_shows_the_servers_rows_in_money_dates_and_badges(console: Console) -> None:
    page = console.open()
    page.wait_for_selector("#rows tr", timeout=WAIT_MS)
    assert first_page_faults(page, console) == []
    statuses = {r["status"] for r in _rows(page)}
    amounts = " ".join(r["amount"] for r in _rows(page))
    assert len(statuses) >= 3 and "¥" in amounts and "KWD" in amounts  # both traps shown
    assert _readout_total(page) == console.api("/api/health")["payments"]
    assert page.inner_text("#last-sync").startswith("Last sync ")
    assert not ISO.search(page.inner_text("body"))
    assert page.problems == []
    page.context.close()


DEFECTS = {
    "yen with cents": ("app.js", "JPY: 0", "JPY: 2", "money JPY"),
    "kwd with fils cut to 2": ("app.js", "KWD: 3", "KWD: 2", "money KWD"),
    "raw ISO dates": ("app.js", "DATE_FORMAT.format(instant)", "instant.toISOString()", "date"),
    "the old amber for pending": (
        "styles.css",
        "--pending: #d97706",
        "--pending: #f59e0b",
        "badge",
    ),
}


def _served_with(console: Console, defect: tuple[str, str, str], size: tuple[int, int]) -> Any:
    """A page of the console whose ``file`` is the golden's own with ``good`` replaced by
    ``bad`` (one seeded defect), its first rows shown."""
    name, good, bad = defect
    source = (WEB / name).read_text()
    assert good in source, "the seeded defect no longer applies to the golden"
    served = source.replace(good, bad)
    kind = "text/css" if name.endswith(".css") else "text/javascript"
    context = console.browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.route(f"**/{name}", lambda route: route.fulfill(body=served, content_type=kind))
    page = context.new_page()
    page.goto(console.url)
    page.wait_for_selector("#rows tr", timeout=WAIT_MS)
    return page


@pytest.mark.parametrize("defect", DEFECTS, ids=list(DEFECTS))
def test_a_defective_console_is_caught_by_the_same_reading(console: Console, defect: str) -> None:
    """The golden's own file with one seeded defect, served in its place: the reading that
    passes the golden names exactly that defect."""
    *seeded, fault = DEFECTS[defect]
    page = _served_with(console, tuple(seeded), (1280, 800))  # type: ignore[arg-type]
    faults = first_page_faults(page, console)
    assert faults and all(f.startswith(fault) or f.startswith("summary") for f in faults), faults
    page.context.close()


def test_a_note_that_waits_for_the_network_is_caught(console: Console) -> None:
    late = ("app.js", "finish(note); // painted now", "finish(before); // painted later")
    page = _served_with(console, late, (1280, 800))
    seen, held = held_note(page, "typed while held")
    assert not seen["painted"]
    held[0].continue_()
    page.context.close()


def test_a_table_wider_than_a_phone_is_caught(console: Console) -> None:
    wide = ("styles.css", ".table-wrap { overflow-x: auto; }", ".table-wrap { min-width: 640px; }")
    page = _served_with(console, wide, (375, 812))
    sizes = phone_layout(page)
    assert sizes["scroll"] > sizes["inner"]
    page.context.close()


def test_filters_are_our_own_dropdowns_and_drive_rows_and_total(console: Console) -> None:
    page = console.open()
    page.wait_for_selector("#rows tr", timeout=WAIT_MS)
    assert page.locator("select").count() == 0
    page.click("#status-filter .dropdown-toggle")
    page.click('#status-filter [role="option"][data-value="refunded"]')
    page.wait_for_function(
        ALL_REFUNDED,
        timeout=WAIT_MS,
    )
    assert page.get_attribute("#status-filter", "data-value") == "refunded"
    refunded = console.api("/api/payments?limit=1&status=refunded")["total"]
    page.wait_for_function(
        f"() => /of {refunded:,}$/.test(document.querySelector('#showing').innerText)"
    )
    page.click("#currency-filter .dropdown-toggle")
    page.click('#currency-filter [role="option"][data-value="KWD"]')
    both = console.api("/api/payments?limit=50&status=refunded&currency=KWD")
    page.wait_for_function(
        f"() => /of {both['total']:,}$/.test(document.querySelector('#showing').innerText)",
        timeout=WAIT_MS,
    )
    assert page.get_attribute("#currency-filter", "data-value") == "KWD"
    assert [r["id"] for r in _rows(page)] == [p["id"] for p in both["data"]]
    page.click("#status-filter .dropdown-toggle")
    page.click('#status-filter [role="option"][data-value=""]')
    page.wait_for_function("() => document.querySelector('#status-filter').dataset.value === ''")
    page.context.close()


def test_sorting_and_paging_go_through_the_api(console: Console) -> None:
    page = console.open()
    page.wait_for_selector("#rows tr", timeout=WAIT_MS)
    amount = page.locator('th[data-sort="amount_minor"]')
    amount.click()
    top = console.api("/api/payments?limit=50&sort=amount_minor")["data"][0]["id"]
    page.wait_for_selector(f'#rows tr:first-child[data-id="{top}"]', timeout=WAIT_MS)
    assert amount.get_attribute("aria-sort") == "ascending"
    amount.click()
    top = console.api("/api/payments?limit=50&sort=-amount_minor")["data"][0]["id"]
    page.wait_for_selector(f'#rows tr:first-child[data-id="{top}"]', timeout=WAIT_MS)
    assert amount.get_attribute("aria-sort") == "descending"
    assert page.get_attribute('th[data-sort="created_at"]', "aria-sort") == "none"
    page.click("#next")
    second = console.api("/api/payments?limit=50&offset=50&sort=-amount_minor")["data"]
    page.wait_for_selector(f'#rows tr:first-child[data-id="{second[0]["id"]}"]', timeout=WAIT_MS)
    assert page.inner_text("#showing").startswith(f"showing 51{DASH}100 of ")
    assert page.locator("#rows tr").count() == 50
    page.context.close()


def _wait_held(page: Any, held: list[Any]) -> None:
    """Until the held request reached the route (Playwright dispatches routes only inside
    its own calls, so the wait is a page wait), bounded."""
    for _ in range(200):
        if held:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the request never left the page")


def held_note(page: Any, text: str) -> tuple[dict[str, Any], list[Any]]:
    """Edit the fourth row's note with its write held on the wire: what the row shows while
    held (painted?, data-state, id), and the held route (continue it to let the write go)."""
    held: list[Any] = []
    page.route("**/api/payments/*/note", lambda route: held.append(route))
    row = page.locator("#rows tr").nth(3)
    row_id = row.get_attribute("data-id")
    row.locator("td.note").click()
    page.keyboard.press("Control+A")
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    _wait_held(page, held)
    painted = row.locator("td.note").inner_text().startswith(text)
    return {"painted": painted, "state": row.get_attribute("data-state"), "id": row_id}, held


def test_a_note_paints_before_the_server_answers_then_saves(console: Console) -> None:
    page = console.open()
    page.wait_for_selector("#rows tr", timeout=WAIT_MS)
    seen, held = held_note(page, "paid by wire 17")
    assert seen["painted"] and seen["state"] == "saving"
    held[0].continue_()
    page.wait_for_selector(f'#rows tr[data-id="{seen["id"]}"][data-state="saved"]', timeout=WAIT_MS)
    assert console.api(f"/api/payments/{seen['id']}")["note"] == "paid by wire 17"
    assert page.problems == []
    page.context.close()


def test_a_conflicting_note_puts_the_old_text_back_with_a_notice(console: Console) -> None:
    page = console.open()
    page.wait_for_selector("#rows tr", timeout=WAIT_MS)
    conflict = {"error": {"code": "conflict", "message": "The payment changed meanwhile."}}
    page.route("**/api/payments/*/note", lambda route: route.fulfill(status=409, json=conflict))
    row = page.locator("#rows tr").nth(5)
    before = row.locator("td.note").inner_text()
    row.locator("td.note").click()
    page.keyboard.press("Control+A")
    page.keyboard.type("never stored")
    page.keyboard.press("Enter")
    page.wait_for_selector("#notice:not([hidden])", timeout=WAIT_MS)
    assert row.locator("td.note").inner_text() == before
    assert page.get_attribute("#notice", "role") == "status"
    assert "not saved" in page.inner_text("#notice")
    assert page.eval_on_selector("#notice", "n => getComputedStyle(n).pointerEvents") == "none"
    page.context.close()


def test_the_feed_degrades_while_notifierd_is_down_and_heals_without_reload(
    console: Console,
) -> None:
    page = console.open()
    page.wait_for_selector('#notifications[data-state="live"]', timeout=WAIT_MS)
    page.evaluate("() => { window.sameDocument = true; }")
    console.golden.notifierd.kill()
    try:
        page.wait_for_selector('#notifications[data-state="degraded"]', timeout=WAIT_MS)
        assert "unreachable" in page.evaluate(
            "() => getComputedStyle(document.querySelector('#notifications'), '::before').content"
        )
    finally:
        console.golden.notifierd.start()
    page.wait_for_selector('#notifications[data-state="live"]', timeout=WAIT_MS)
    assert page.evaluate("() => window.sameDocument === true")
    page.context.close()


def _create_draft(page: Any, amount: str, currency: str, name: str) -> str:
    page.click("#draft-currency .dropdown-toggle")
    page.click(f'#draft-currency [role="option"][data-value="{currency}"]')
    page.fill('#draft-form [name="amount_minor"]', amount)
    page.fill('#draft-form [name="name"]', name)
    page.fill('#draft-form [name="country"]', "de")
    assert page.inner_text("#draft-amount-preview").startswith("= ")  # what the units mean
    page.click('#draft-form button[type="submit"]')
    item = page.wait_for_selector(
        '#draft-list li[data-selected="true"][data-state="draft"]', timeout=WAIT_MS
    )
    return item.get_attribute("data-draft-id")


def _as(page: Any, role: str) -> None:
    page.fill("#role-token", TOKENS[role])
    page.wait_for_function(
        "() => document.querySelectorAll('#draft-list li').length > 0", timeout=WAIT_MS
    )


def _state(page: Any, draft: str, state: str) -> None:
    page.wait_for_selector(
        f'#draft-list li[data-draft-id="{draft}"][data-state="{state}"]:not([data-pending])',
        timeout=WAIT_MS * 2,
    )


def test_the_approval_journey_runs_through_the_page_alone(console: Console) -> None:
    page = console.open()
    page.wait_for_selector("#rows tr", timeout=WAIT_MS)
    page.fill("#role-token", TOKENS["maker"])
    draft = _create_draft(page, "12345", "KWD", "Aurora Freight")
    assert page.is_disabled("#approve-btn") and page.is_enabled("#submit-btn")
    page.click("#submit-btn")
    _state(page, draft, "submitted")
    page.click("#approve-btn")  # a maker may not decide: said without blocking the page
    page.wait_for_selector("#notice:not([hidden])", timeout=WAIT_MS)
    assert "may not approve" in page.inner_text("#notice")
    _state(page, draft, "submitted")
    _as(page, "checker")
    page.click(f'#draft-list li[data-draft-id="{draft}"]')
    page.click("#approve-btn")
    _state(page, draft, "sent")
    for kind in ("draft.submitted", "draft.approved"):
        page.wait_for_selector(f'#notifications li[data-kind="{kind}"]', timeout=WAIT_MS)
    sent = console.api("/api/drafts?state=sent", TOKENS["admin"])["data"]
    payment = next(d["payment_id"] for d in sent if d["id"] == draft)
    eventually(lambda: call(f"{console.golden.ledgerd.base}/api/payments/{payment}").status == 200,
               30, "the sent payment came back through the vendor")  # fmt: skip
    page.click(f'#draft-list li[data-draft-id="{draft}"] button.show')
    row = page.wait_for_selector(f'#rows tr[data-id="{payment}"]', timeout=WAIT_MS)
    assert "12.345" in row.inner_text()
    page.context.close()


def test_half_a_token_sends_nothing_and_a_wrong_one_is_told(console: Console) -> None:
    page = console.open()
    asked: list[str] = []
    page.on("request", lambda r: "/api/drafts" in r.url and asked.append(r.url))
    page.fill("#role-token", TOKENS["maker"][:12])
    page.click('#draft-form button[type="submit"]')
    page.wait_for_selector("#notice:not([hidden])", timeout=WAIT_MS)
    assert "32 hexadecimal" in page.inner_text("#notice")
    assert asked == [] and page.problems == []
    page.fill("#role-token", "f" * 32)
    page.wait_for_function(
        "() => /not recognised/.test(document.querySelector('#notice').innerText)",
        timeout=WAIT_MS,
    )
    assert page.locator("#draft-list li").count() == 0
    page.context.close()


def test_a_draft_action_paints_its_state_while_the_write_is_held(console: Console) -> None:
    page = console.open()
    page.fill("#role-token", TOKENS["maker"])
    draft = _create_draft(page, "25000", "USD", "Draco Shipping")
    held: list[Any] = []
    page.route("**/api/drafts/*/submit", lambda route: held.append(route))
    page.click("#submit-btn")
    _wait_held(page, held)
    item = page.locator(f'#draft-list li[data-draft-id="{draft}"]')
    assert item.locator(".state").inner_text() == "submitted"  # painted at once
    assert item.get_attribute("data-pending") == "submitted"
    assert item.get_attribute("data-state") == "draft"  # the server's word, not yet changed
    assert page.is_disabled("#submit-btn")
    held[0].continue_()
    _state(page, draft, "submitted")
    page.context.close()


def test_a_rejected_draft_is_final_on_the_page(console: Console) -> None:
    page = console.open()
    page.fill("#role-token", TOKENS["checker"])
    own = _create_draft(page, "500", "EUR", "Cygnus Ltd")
    page.click("#submit-btn")
    _state(page, own, "submitted")
    page.click("#approve-btn")  # whoever submitted may not decide: four eyes
    page.wait_for_selector("#notice:not([hidden])", timeout=WAIT_MS)
    assert "four eyes" in page.inner_text("#notice")
    _state(page, own, "submitted")
    page.fill("#role-token", TOKENS["maker"])
    draft = _create_draft(page, "900", "JPY", "Borealis GmbH")
    page.click("#submit-btn")
    _state(page, draft, "submitted")
    _as(page, "checker")
    page.click(f'#draft-list li[data-draft-id="{draft}"]')
    page.click("#reject-btn")
    _state(page, draft, "rejected")
    assert page.is_disabled("#submit-btn") and page.is_disabled("#approve-btn")
    page.wait_for_selector('#notifications li[data-kind="draft.rejected"]', timeout=WAIT_MS)
    page.context.close()


def test_a_field_click_moves_the_table_to_the_record_and_marks_it(console: Console) -> None:
    page = console.open()
    page.wait_for_selector("#rows tr", timeout=WAIT_MS)
    deep = console.api("/api/payments?limit=1&offset=1234")["data"][0]
    answer = """([ids, id]) => document.dispatchEvent(new CustomEvent('vs7:brush',
        {detail: {ids, toggled: id, source: 'field'}}))"""
    page.evaluate(answer, [[deep["id"]], deep["id"]])
    row = page.wait_for_selector(f'#rows tr[data-id="{deep["id"]}"]', timeout=WAIT_MS)
    assert row.get_attribute("data-brushed") == "true"
    assert page.inner_text("#showing").startswith(f"showing 1,201{DASH}1,250 of ")
    assert page.inner_text("#brush-count") == "1"
    assert row.is_visible() and page.evaluate(
        IN_VIEW,
        row,
    )
    other = "settled" if deep["status"] != "settled" else "pending"
    page.click("#status-filter .dropdown-toggle")
    page.click(f'#status-filter [role="option"][data-value="{other}"]')
    page.wait_for_selector(f"#showing:has-text('showing 1{DASH}')", timeout=WAIT_MS)
    page.evaluate(
        answer, [[], deep["id"]]
    )  # hidden by the filter: the set changes, the table stays
    page.wait_for_function("() => document.querySelector('#brush-count').innerText === '0'")
    assert page.inner_text("#showing").startswith(f"showing 1{DASH}")
    assert page.problems == []
    page.context.close()


def test_a_row_click_toggles_the_brush_through_viz_a_note_click_not(console: Console) -> None:
    page = console.open()
    page.wait_for_selector("#rows tr", timeout=WAIT_MS)
    page.evaluate("""() => { window.asked = [];
        document.addEventListener('vs7:brush-toggle', (e) => window.asked.push(e.detail.id)); }""")
    row = page.locator("#rows tr").nth(1)
    row.locator("td.amount").click()
    row.locator("td.note").click()
    assert page.evaluate("() => window.asked") == [row.get_attribute("data-id")]
    page.wait_for_function("() => document.querySelector('#brush-count').innerText === '1'")
    assert row.get_attribute("data-brushed") == "true"  # viz.js answered: the set holds it
    row.locator("td.status").click()
    page.wait_for_function("() => document.querySelector('#brush-count').innerText === '0'")
    assert row.get_attribute("data-brushed") == "false"
    assert page.problems == []
    page.context.close()


def phone_layout(page: Any) -> dict[str, Any]:
    """The document's scroll width against the viewport, and the canvas's and stage's boxes."""
    return page.evaluate("""() => ({scroll: document.documentElement.scrollWidth,
        inner: innerWidth, canvas: document.querySelector('#viz3d').getBoundingClientRect(),
        stage: document.querySelector('#viz-stage').getBoundingClientRect()})""")


def test_at_375_px_nothing_scrolls_sideways_and_the_canvas_is_full_width(console: Console) -> None:
    page = console.open(375, 812)
    page.wait_for_selector("#rows tr", timeout=WAIT_MS)
    sizes = phone_layout(page)
    assert sizes["scroll"] <= sizes["inner"]
    assert sizes["canvas"]["width"] == sizes["stage"]["width"] and sizes["canvas"]["height"] >= 240
    assert page.locator("#rows tr").first.is_visible()
    page.context.close()


def test_the_backend_unreachable_shows_an_actionable_error_that_retries(console: Console) -> None:
    context = console.browser.new_context()
    context.route("**/api/**", lambda route: route.abort("connectionrefused"))
    page = context.new_page()
    page.goto(console.url)
    state = page.wait_for_selector('#table-state[data-state="error"]', timeout=WAIT_MS)
    assert re.search(r"check|try again", state.inner_text(), re.IGNORECASE)
    assert page.locator("#rows tr").count() == 0
    context.unroute("**/api/**")
    page.click("#table-state .state-action")
    page.wait_for_selector("#rows tr", timeout=WAIT_MS)
    context.close()


def test_a_fresh_install_shows_the_empty_state_of_d3(console: Console, tmp_path: Path) -> None:
    vendor_url, lease = dead_vendor_url()
    fresh = Golden(tmp_path, vendor_url)
    try:
        fresh.ledgerd.start()
        page = console.browser.new_page()
        page.goto(fresh.ledgerd.base + "/")
        state = page.wait_for_selector('#table-state[data-state="empty"]', timeout=WAIT_MS)
        assert "No payments yet" in state.inner_text() and "in progress" in state.inner_text()
        assert page.locator("#rows tr").count() == 0
        assert page.inner_text("#last-sync") == "Never synced"
        page.click("#table-state .state-action")  # the invitation to sync: the vendor is away
        page.wait_for_selector("#notice:not([hidden])", timeout=WAIT_MS)
        assert "Sync failed" in page.inner_text("#notice")
        page.wait_for_selector('#sync-now[data-state="idle"]:not([disabled])', timeout=WAIT_MS)
        page.context.close()
    finally:
        fresh.close()
        lease.release()


def test_the_sync_button_shows_it_is_busy_and_refreshes(console: Console) -> None:
    page = console.open()
    page.wait_for_selector("#rows tr", timeout=WAIT_MS)
    page.evaluate("""() => { window.synced = 0;
        document.addEventListener('vs7:synced', () => { window.synced += 1; }); }""")
    page.click("#sync-now")
    page.wait_for_selector('#sync-now[data-state="syncing"][disabled]', timeout=WAIT_MS)
    page.wait_for_selector('#sync-now[data-state="idle"]:not([disabled])', timeout=WAIT_MS * 8)
    assert page.evaluate("() => window.synced") == 1
    assert page.is_hidden("#notice")
    assert page.problems == []
    page.context.close()
