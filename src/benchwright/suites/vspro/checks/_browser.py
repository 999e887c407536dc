"""Shared by the browser checks: reaching a scenario's view, or the row that says why not."""

from __future__ import annotations

from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.vspro.checks._common import unavailable
from benchwright.suites.vspro.observations import Observations


def view(
    obs: Observations, check_id: str, name: str, timed: bool = False
) -> tuple[Any, CheckResult | None]:
    """(the scenario's view, None), or (None, an UNAVAILABLE row): no browser, the
    scenario raised, or it never ran. A probe that could not measure is never an app zero.
    ``timed``: the view a timing row reads -- the repeat taken because the first run was
    contended, when there is one."""
    found = obs["browser"]
    if found.unavailable is not None:
        return None, unavailable(check_id, f"browser unavailable: {found.unavailable}")
    if name in found.scenario_errors:
        why = found.scenario_errors[name]
        return None, unavailable(check_id, f"probe unavailable: the {name} scenario failed: {why}")
    if name not in found.scenarios:
        return None, unavailable(check_id, f"probe unavailable: the {name} scenario did not run")
    if timed and name in found.retimed:
        return found.retimed[name], None
    return found.scenarios[name], None


def errors_of(seen: Any) -> list[str]:
    """Console errors and uncaught page errors of one scenario's view, as texts."""
    sc = seen.scenario
    return [m.text for m in sc.console_errors] + [f"{e.name}: {e.message}" for e in sc.page_errors]


def shots(seen: Any) -> list[str]:
    """The scenario's screenshots, for a row's evidence."""
    return [str(s.path) for s in seen.scenario.screenshots]


def quote(text: str, width: int = 120) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= width else text[: width - 1] + "…")
