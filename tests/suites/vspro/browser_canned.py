"""Canned browser-phase observations: the golden page as the scenarios see it, to perturb."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

from scenario_obs import scenario
from vspro_canned import EXPECT, FIXTURE, perfect

from benchwright.suites.vspro.browser import (
    BrowserObservation,
    EmptyView,
    ErrorView,
    FilterDrive,
    LoadView,
    NoteView,
    SyncView,
    ViewSnapshot,
)
from benchwright.suites.vspro.observations import Observations

REFUNDED = EXPECT.by_status["refunded"]
FIRST = sorted(FIXTURE.rows, key=lambda r: (r["_instant"], r["id"]))[:50]


def _money(currency: str, minor: int) -> str:
    if currency == "JPY":
        return f"¥{minor:,} JPY"
    if currency == "KWD":
        return f"{minor / 1000:,.3f} KWD"
    return f"{'€' if currency == 'EUR' else '$'}{minor / 100:,.2f} {currency}"


def snap(
    rows: int = 50,
    total: int | None = EXPECT.total,
    last: str = "30 Nov 2026, 14:26",
    table: str = "a",
    statuses: tuple[str, ...] = (),
    value: str | None = "",
) -> ViewSnapshot:
    return ViewSnapshot(rows, total, last, table, statuses, value)  # fmt: skip


def load_view(**changes: Any) -> LoadView:
    good = LoadView(
        scenario=scenario("load"),
        first_row_ms=180.0,
        rows=50,
        claimed_total=EXPECT.total,
        claimed_hits=(EXPECT.total,),
        dates=("23 Mar 2026, 00:00", "23 Mar 2026, 00:43", "23 Mar 2026, 00:47"),
        amounts=tuple(_money(r["currency"], r["amount_minor"]) for r in FIRST[:12]),
        statuses=(("settled", "rgb(255, 255, 255)", "rgb(22, 163, 74)"),
                  ("pending", "rgb(31, 41, 55)", "rgb(245, 158, 11)"),
                  ("refunded", "rgb(255, 255, 255)", "rgb(139, 92, 246)"),
                  ("failed", "rgb(255, 255, 255)", "rgb(220, 38, 38)")),
        stylesheet=True,
        backgrounds=("rgb(37, 99, 235)", "rgb(255, 255, 255)", "rgb(248, 250, 252)"),
        font_family="Inter, system-ui, sans-serif",
        header_visible=True,
        pagination=("prev", "next", "nav", "readout"),
        filter=FilterDrive(True, True, True,
                           snap(total=REFUNDED, table="r", statuses=("refunded",) * 50,
                                value="refunded"),
                           True, snap(table="b", value="")),
        mobile_scroll_width=375,
        mobile_inner_width=375,
        mobile_rows=50,
        first_page=tuple((r["currency"], r["amount_minor"]) for r in FIRST),
    )  # fmt: skip
    return replace(good, **changes)


def sync_view(**changes: Any) -> SyncView:
    before = snap(total=776, last="30 Nov 2026, 14:26", table="h")
    after = snap(total=EXPECT.total, last="30 Nov 2026, 14:27", table="f")
    good = SyncView(scenario("sync"), True, True, 25.0, True, None, True, before, after, 776, 0.3)
    return replace(good, **changes)


def note_view(**changes: Any) -> NoteView:
    notice = "Your note was not saved... Refresh and try again."
    good = NoteView(scenario("note"), True, True, True, True, True, True, 6.0, False, True,
                    "saved", True, notice, "status")  # fmt: skip
    return replace(good, **changes)


def error_view(**changes: Any) -> ErrorView:
    good = ErrorView(scenario("error", first_row_ms=None), True, "Totals are unavailable.",
                     "Couldn't reach the server. Check that it is running, then try again.",
                     763, True)  # fmt: skip
    return replace(good, **changes)


def empty_view(**changes: Any) -> EmptyView:
    good = EmptyView(scenario("empty", first_row_ms=None), 0, "No payments synced yet.", 696, True)
    return replace(good, **changes)


def viz_view(errors: int = 0) -> Any:
    return SimpleNamespace(scenario=scenario("viz", errors=errors))


def views(**changes: Any) -> dict[str, Any]:
    found = {"load": load_view(), "sync": sync_view(), "note": note_view(),
             "error": error_view(), "empty": empty_view(), "viz": viz_view()}  # fmt: skip
    found.update(changes)
    return {k: v for k, v in found.items() if v is not None}


def with_browser(
    scenarios: dict[str, Any] | None = None,
    errors: dict[str, str] | None = None,
    unavailable: str | None = None,
) -> Observations:
    seen = BrowserObservation(unavailable, views() if scenarios is None else scenarios,
                              errors or {})  # fmt: skip
    return perfect().with_phase("browser", seen)
