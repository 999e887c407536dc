"""Each vendorsync control's defect, seen without the grader: the edited reference runs as a
real process against the Meridian v1 mock (FAST timing) and shows the very fault its
control is named for (a float on the wire, rows stored twice, a skipped wait in the
vendor's ledger, ...). The grader's rows for the same controls are in
``test_graded_controls.py``; this proves the defects are real before any check reads them."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import pytest
from reference_app import ReferenceApp

from benchwright.services.meridian import MeridianMock, Timing
from benchwright.suites.audit import control_tree, load_controls

SUITE = Path(__file__).resolve().parents[3] / "suites" / "vendorsync"
ISO_8601 = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


@contextmanager
def edited(name: str) -> Iterator[Path]:
    """The golden reference with control ``name``'s edits applied."""
    (control,) = load_controls(SUITE, [name])
    with control_tree(control, SUITE / "reference") as tree:
        yield tree


@contextmanager
def running(name: str, vendor: MeridianMock, tmp_path: Path) -> Iterator[ReferenceApp]:
    """Control ``name``'s app, booted on a fresh database against ``vendor``."""
    with edited(name) as tree:
        app = ReferenceApp(tmp_path / "fresh" / "vendorsync.db", vendor.base_url, tree).start()
        try:
            yield app
        finally:
            app.close()


def first_sync(app: ReferenceApp, vendor: MeridianMock) -> dict:
    """The first sync, its traps armed afresh as the grader's ``sync1`` arms them."""
    vendor.mark_phase("sync1")
    answer = app.post("/api/sync")
    assert answer.status == 200, answer.raw
    return answer.body


def instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_float_money_serves_floats_and_a_float_total(vendor, tmp_path):
    with running("float-money", vendor, tmp_path) as app:
        first_sync(app, vendor)
        raw = app.get("/api/payments?limit=5").raw.decode()
        assert re.search(r'"amount_minor": \d+\.0[,}]', raw), raw
        total = app.get("/api/summary").body["total_minor"]
        assert isinstance(total, float) and total == vendor.fixture.sum_minor


def test_string_sorted_times_serves_a_page_out_of_time_order(vendor, tmp_path):
    with running("string-sorted-times", vendor, tmp_path) as app:
        first_sync(app, vendor)
        stamps = [row["created_at"] for row in app.get("/api/payments").body["data"]]
        assert stamps == sorted(stamps)  # text order...
        instants = [instant(s) for s in stamps]
        assert instants != sorted(instants)  # ...is not time order


def test_duplicate_rows_on_resync_stores_every_payment_again(vendor, tmp_path):
    total = vendor.fixture.total
    with running("duplicate-rows-on-resync", vendor, tmp_path) as app:
        assert first_sync(app, vendor)["total"] == total
        vendor.mark_phase("sync2")
        again = app.post("/api/sync").body
        assert (again["inserted"], again["total"]) == (total, 2 * total)
        page = app.get("/api/payments?limit=2").body["data"]
        assert page[0]["id"] == page[1]["id"]  # the same payment, twice


def test_cursor_expiry_as_end_keeps_only_the_first_page(vendor, tmp_path):
    with running("cursor-expiry-as-end", vendor, tmp_path) as app:
        body = first_sync(app, vendor)
        assert body["fetched"] == body["total"] < vendor.fixture.total
        ledger = vendor.contract_ledger("sync1")
        assert ledger.cursor_expiry == 0.0 and not ledger.reached_end


LONG_THROTTLE = Timing(retry_after_secs=5.0, ledger_wait_secs=5.0)
"""A mock whose 429s ask for 5 s: a retry must come 4.7 s (seconds form) or 3.7 s
(HTTP-date form) later to count as waiting, so one sent at once is early however busy the
host is (at `FAST`'s 0.3 s it had to arrive within the 0.1 s floor: the test needed the
host to itself)."""


def test_ignores_retry_after_repeats_a_429_at_once(tmp_path):
    vendor = MeridianMock(0, timing=LONG_THROTTLE, version="v1")
    vendor.start()
    try:
        with running("ignores-retry-after", vendor, tmp_path) as app:
            first_sync(app, vendor)
            ledger = vendor.contract_ledger("sync1")
    finally:
        vendor.stop()
    assert (ledger.retry_seconds, ledger.retry_date) == (0.0, 0.0), ledger.details


def test_no_idempotency_key_sends_an_unkeyed_create_the_vendor_refuses(vendor):
    script = (
        "import sys\nfrom vendorsync.meridian import MeridianClient, VendorRejected\n"
        "client = MeridianClient(sys.argv[1], 'sk_test_meridian')\n"
        "try:\n    client.create_payment(1250, 'EUR', 'key-1')\n"
        "except VendorRejected as exc:\n    print(exc.status, exc.code)\n"
    )  # fmt: skip
    vendor.mark_phase("client")
    with edited("no-idempotency-key") as tree:
        done = subprocess.run(
            [sys.executable, "-c", script, vendor.base_url], cwd=tree, capture_output=True,
            text=True, timeout=60, env={"PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"},
        )  # fmt: skip
    assert done.stdout.split() == ["400", "idempotency_key_required"], done.stderr
    ledger = vendor.contract_ledger("client")
    assert (ledger.creates, ledger.keyed_creates) == (1, 0)


def test_wrong_404_shape_and_no_limit_cap_answer_off_contract(vendor, tmp_path):
    with running("wrong-404-shape", vendor, tmp_path / "404") as app:
        missing = app.get("/api/nope")
        assert (missing.status, missing.body) == (404, {"detail": "Not Found"})
    with running("no-limit-cap", vendor, tmp_path / "cap") as app:
        first_sync(app, vendor)
        page = app.get("/api/payments?limit=500").body
        assert (page["limit"], len(page["data"])) == (500, vendor.fixture.total)


def test_crash_on_fresh_db_exits_at_boot(vendor, tmp_path):
    crashed = pytest.raises(AssertionError, match=r"exited 1 at boot:\n.*no database at")
    with crashed, running("crash-on-fresh-db", vendor, tmp_path):
        pass


def test_cdn_asset_and_no_status_filter_are_in_the_served_page(vendor, tmp_path):
    with running("cdn-asset", vendor, tmp_path / "cdn") as app:
        assert re.search(r'src="https://[^"]+"', app.get("/").raw.decode())
    with running("no-status-filter", vendor, tmp_path / "filter") as app:
        assert "status-filter" not in app.get("/").raw.decode()
        assert "status-filter" not in app.get("/app.js").raw.decode()


def test_the_page_defects_show_in_the_browser(page, vendor, tmp_path):
    """No empty state on a fresh database; raw ISO dates once the table is filled."""
    with running("no-empty-state", vendor, tmp_path / "empty") as app:
        page.goto(app.url("/"))
        page.locator("#data").wait_for(state="visible")
        assert page.locator("#empty").is_hidden()
    with running("raw-iso-dates", vendor, tmp_path / "iso") as app:
        first_sync(app, vendor)
        page.goto(app.url("/"))
        page.locator("#payments tbody tr").first.wait_for()
        cells = page.locator("#payments tbody tr td:first-child").all_inner_texts()
        assert cells and all(ISO_8601.match(cell) for cell in cells), cells


def test_client_without_timeout_opens_vendor_requests_unbounded():
    with edited("client-without-timeout") as tree:
        source = (tree / "vendorsync" / "meridian.py").read_text()
    assert "urlopen(request)" in source and "timeout=" not in source
