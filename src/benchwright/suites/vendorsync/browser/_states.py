"""The state scenarios: ``error`` (the graded app with its API unreachable) and ``empty``
(a second instance on a brand-new database)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchwright.probes.browser import DATA_REQUESTS, Instrumentation, ScenarioHost
from benchwright.suites.kit.browser.nav import read_state, recovers
from benchwright.suites.vendorsync.browser import _dom
from benchwright.suites.vendorsync.browser._load import ROW
from benchwright.suites.vendorsync.browser._views import EmptyView, ErrorView


def observe_error(session: ScenarioHost, ctx: Any, shots: Path) -> ErrorView:
    """Load ``/`` with every data request refused; wait (bounded) for ``#error``; read the
    states; then let the network through and click ``#retry``."""
    offline = Instrumentation(
        row_selector=ROW, aborts=(DATA_REQUESTS,), abort_error="connectionrefused"
    )
    with session.scenario("error", offline, artifacts=shots) as sc:
        read, no_page = read_state(sc, ctx.base_url + "/", _dom.ERROR_SHOWN, _dom.STATES, "error")
        retry = sc.page.locator("#retry").first
        recovered = recovers(sc, retry) if read["retry"] and no_page is None else None
    return ErrorView(
        scenario=sc.observation,  # type: ignore[arg-type]
        error_visible=bool(read["error"]),
        error_text=str(read["error_text"]),
        retry_visible=bool(read["retry"]),
        others_visible=tuple(read["others"]),
        recovered=recovered,
        no_page=no_page,
    )


def observe_empty(session: ScenarioHost, ctx: Any, shots: Path) -> EmptyView:
    """``ctx`` is a second instance on a brand-new database: wait (bounded) for the page to
    leave its loading state, then read what it shows."""
    with session.scenario("empty", Instrumentation(row_selector=ROW), artifacts=shots) as sc:
        read, no_page = read_state(sc, ctx.base_url + "/", _dom.SETTLED, _dom.STATES, "empty")
    return EmptyView(
        scenario=sc.observation,  # type: ignore[arg-type]
        empty_visible=bool(read["empty"]),
        empty_text=str(read["empty_text"]),
        rows=int(read["rows"]),
        no_page=no_page,
    )
