"""sb-7's state scenarios: ``error`` is the kit's with sb-7's wider actionable phrasing
(§12 adds "vendor" and "offline"); ``empty`` reads a second instance of both services on
a brand-new database directory, told a vendor nobody answers, so the page is read while
its first sync cannot finish (the pre-sync state D3 decides)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from benchwright.probes.browser import Instrumentation, Lane, ScenarioHost
from benchwright.services.ports import lease_port
from benchwright.suites.kit.browser.instance import fresh_instance
from benchwright.suites.kit.browser.lanes import ScenarioLog
from benchwright.suites.kit.browser.nav import read_state
from benchwright.suites.kit.browser.states import ErrorView, observe_error
from benchwright.suites.kit.browser.waits import APPEAR_S
from benchwright.suites.sb7.browser import _dom
from benchwright.suites.sb7.browser.views import EmptyView
from benchwright.suites.sb7.context import LEDGER_DB, GradeContext

ROW = "tbody tr"
ACTIONABLE = re.compile(r"try again|retry|check|running|refresh|reload|vendor|offline", re.I)
"""§12's actionable phrasing for the sb-7 error state."""
EMPTY_DIR = "empty-probe"
"""The second instance's database directory, under the grading's work directory."""


def observe_sb7_error(session: ScenarioHost, ctx: GradeContext, shots: Path) -> ErrorView:
    """The kit's error scenario (every data request refused in the browser), graded with
    sb-7's actionable phrasing."""
    return observe_error(session, ctx, shots, ACTIONABLE)


def observe_empty(session: ScenarioHost, ctx: GradeContext, shots: Path) -> EmptyView:
    """``ctx`` is the second instance: wait (bounded) for rows, an empty state or a
    loading state, then read them all."""
    with session.scenario("empty", Instrumentation(row_selector=ROW), artifacts=shots) as sc:
        read, no_page = read_state(sc, ctx.base_url + "/", _dom.PRESYNC_READY, _dom.PRESYNC,
                                   "empty", timeout_s=APPEAR_S)  # fmt: skip
    return EmptyView(
        scenario=sc.observation,  # type: ignore[arg-type]
        rows=int(read["rows"]),
        empty_text=read["empty_text"],
        loading_text=read["loading_text"],
        table_visible=bool(read["table_visible"]),
        body_text_length=int(read["body_text_length"]),
        cta_visible=bool(read["cta_visible"]),
        no_page=no_page,
    )


@dataclass(frozen=True)
class _Nobody:
    """Stands in for the vendor of the second instance: an address where nothing answers
    (`GradeContext.vendor_route` relays to its ``base_url``)."""

    base_url: str


def second_instance(lane: Lane, ctx: GradeContext, shots: Path, seen: ScenarioLog) -> None:
    """Boot both services on a brand-new database directory, told a vendor nobody
    answers, and probe ``empty``; stopped however it ends. A service that never becomes
    healthy makes ``empty`` UNAVAILABLE (the graded boot is part one's to judge)."""
    with lease_port() as nobody:
        dead = f"http://127.0.0.1:{nobody.port}"
        second = replace(ctx, vendor_url=dead, mock=_Nobody(dead))  # type: ignore[arg-type]
        db = ctx.work / EMPTY_DIR / LEDGER_DB
        with fresh_instance(second, lane, ctx.settings.boot_budget_s, db) as group:
            for name in group.order:
                boot = group.boot(name)
                if boot.healthy_after_s is None:
                    why = f"the empty instance's {name} never became healthy ({boot.detail})"
                    seen.fail(("empty",), why)
                    return
            seen.run("empty", observe_empty, lane, replace(second, app=group), shots)
