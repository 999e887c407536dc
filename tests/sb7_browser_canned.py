"""The sb-7 ``browser`` record of a correct console, built in code (no browser): what the
``load``, ``error`` and ``empty`` scenarios see on a page that follows spec §7, against
the seeded fixture's truth; each test swaps one piece for the defect it proves a row
catches (`with_browser`). The sync journey's view is sb7flows'; here it is only what
j_console_clean reads of it (its console)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

from scenario_obs import scenario

from benchwright.suites.kit.browser.states import ErrorView
from benchwright.suites.sb7.browser import EmptyView, LoadView, Sb7BrowserRecord
from benchwright.suites.sb7.observations import Observations, Truth

SYMBOL = {"EUR": "€", "USD": "$", "JPY": "¥", "KWD": "KWD "}
DECIMALS = {"EUR": 2, "USD": 2, "JPY": 0, "KWD": 3}
BADGES = (("settled", "rgb(255, 255, 255)", "rgb(5, 150, 105)"),
          ("pending", "rgb(255, 255, 255)", "rgb(217, 119, 6)"),
          ("refunded", "rgb(255, 255, 255)", "rgb(124, 58, 237)"),
          ("failed", "rgb(255, 255, 255)", "rgb(185, 28, 28)"))  # fmt: skip
SURFACES = ("rgb(16, 24, 40)", "rgb(255, 255, 255)", "rgb(29, 78, 216)")
PAGE = 50


def money(currency: str, minor: int) -> str:
    """``minor`` written as spec §7 asks: its currency's decimals, grouped thousands."""
    places = DECIMALS[currency]
    whole, cents = divmod(minor, 10**places)
    return f"{SYMBOL[currency]}{whole:,}" + (f".{cents:0{places}d}" if places else "")


def load_view(truth: Truth, total: int, **changes: Any) -> LoadView:
    """The first page (the fixture's first 50 ids) as a correct console renders it."""
    ids = sorted(truth.rows)[:PAGE]
    amounts = tuple((pid, money(truth.rows[pid].currency, truth.rows[pid].amount_minor))
                    for pid in ids)  # fmt: skip
    good = LoadView(scenario("load", first_row_ms=640.0), 640.0, PAGE, total, (total, total),
                    ("1 Mar 2026, 14:00", "1 Mar 2026, 13:58", "28 Feb 2026, 09:12"), amounts,
                    BADGES, True, SURFACES, "Inter, system-ui, sans-serif", True, 375, 375, PAGE,
                    (375.0, 260.0))  # fmt: skip
    return replace(good, **changes)


def error_view(**changes: Any) -> ErrorView:
    text = "The console cannot reach ledgerd. Check that it is running, then refresh."
    good = ErrorView(scenario("error", first_row_ms=None), True, text, text, 420, None, 1.2)
    return replace(good, **changes)


def empty_view(**changes: Any) -> EmptyView:
    good = EmptyView(scenario("empty", first_row_ms=None), 0, "No payments yet.",
                     "The first sync with Meridian is running.", True, 310, True)  # fmt: skip
    return replace(good, **changes)


def record(truth: Truth, total: int, **scenarios: Any) -> Sb7BrowserRecord:
    """Every scenario this package and the journeys' console row read, as a correct
    console leaves them; ``scenarios`` replaces some by name."""
    found = {"load": load_view(truth, total), "error": error_view(), "empty": empty_view(),
             "sync": SimpleNamespace(scenario=scenario("sync"))}  # fmt: skip
    return Sb7BrowserRecord(None, {**found, **scenarios})


def with_browser(obs: Observations, **scenarios: Any) -> Observations:
    """``obs`` with its browser record's scenarios replaced by name."""
    found = obs["browser"]
    return obs.with_phase("browser", replace(found, scenarios={**found.scenarios, **scenarios}))


def with_load(obs: Observations, **changes: Any) -> Observations:
    """``obs`` with the load view changed as ``changes`` say."""
    return with_browser(obs, load=replace(obs["browser"].scenarios["load"], **changes))
