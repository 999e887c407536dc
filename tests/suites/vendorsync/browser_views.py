"""Canned vendorsync browser-phase views: the golden page as the scenarios see it (what
the reference shows after the vendor's update pass), to perturb one field at a time."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from scenario_obs import scenario

from benchwright.probes.host import HostState
from benchwright.suites.kit import PhaseLog
from benchwright.suites.vendorsync.browser import (
    BrowserObservation,
    EmptyView,
    ErrorView,
    LoadView,
    Snapshot,
    StatusCell,
    SyncView,
)

TOTAL = 247
SETTLED = StatusCell("settled", "rgb(22, 101, 52)", "rgb(220, 252, 231)", True)
REFUNDED = StatusCell("refunded", "rgb(91, 33, 182)", "rgb(237, 233, 254)", True)
DATE = "Mar 1, 2026, 12:00 PM"
PAGE_TEXT = (
    "vendorsync\n247 payments · €44,091.97\nLast sync: Dec 4, 2026, 1:38 PM\n"
    f"DATE\tAMOUNT\tSTATUS\n{DATE}\t€10.00\tsettled\n{DATE}\t€27.81\trefunded\n"
)
FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'


def load_view(**changes: Any) -> LoadView:
    view = LoadView(
        scenario=scenario("load", first_row_ms=150.0),
        collection=TOTAL,
        first_row_ms=150.0,
        rows=25,
        page_info="1\u201325 of 247",
        page_text=PAGE_TEXT,
        dates=(DATE,) * 25,
        statuses=(SETTLED, REFUNDED) + (SETTLED,) * 23,
        controls=("prev", "next", "page-info", "status-filter"),
        turned_to="26\u201350 of 247",
        stylesheet=True,
        backgrounds=("rgb(220, 252, 231)", "rgb(237, 233, 254)", "rgb(255, 255, 255)"),
        font_family=FONT,
        mobile_rows=25,
        mobile_scroll_width=375,
        mobile_client_width=375,
    )
    return replace(view, **changes)


def error_view(**changes: Any) -> ErrorView:
    text = ("Could not load payments\nThe vendorsync server could not be reached.\n"
            "Check that the server is running, then try again.\nTry again")  # fmt: skip
    view = ErrorView(scenario("error"), True, text, True, (), True)
    return replace(view, **changes)


def empty_view(**changes: Any) -> EmptyView:
    view = EmptyView(scenario("empty"), True, "No payments yet\nRun a sync.\nSync now", 0)
    return replace(view, **changes)


BEFORE = Snapshot(0, "", "0 payments · €0.00", True)
AFTER = Snapshot(25, "1\u201325 of 247", "247 payments · €44,091.97", False)


def sync_view(**changes: Any) -> SyncView:
    view = SyncView(scenario("sync"), True, True, True, 200, True, BEFORE, AFTER, 1.0)
    return replace(view, **changes)


def views(**replaced: Any) -> dict[str, Any]:
    found = {"load": load_view(), "error": error_view(), "empty": empty_view(),
             "sync": sync_view(), **replaced}  # fmt: skip
    return {name: view for name, view in found.items() if view is not None}


def observed(
    scenarios: dict[str, Any] | None = None,
    errors: dict[str, str] | None = None,
    unavailable: str | None = None,
    host: dict[str, HostState] | None = None,
    **record: Any,
) -> PhaseLog:
    """A record whose ``browser`` phase saw ``scenarios`` (the golden's by default)."""
    seen = BrowserObservation(unavailable, views() if scenarios is None else scenarios,
                              errors or {}, scenario_host=host or {}, **record)  # fmt: skip
    return PhaseLog(phases={"browser": seen})
