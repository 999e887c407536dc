"""Shared by every suite's browser checks: reaching a scenario's view in the ``browser``
phase (a `BrowserRecord`), or the row that says why there is none."""

from __future__ import annotations

from typing import Any

from benchwright.model import CheckResult, Status
from benchwright.suites.kit.checks import result, unavailable
from benchwright.suites.kit.record import PhaseLog


def view(
    obs: PhaseLog, check_id: str, name: str, timed: bool = False
) -> tuple[Any, CheckResult | None]:
    """(the scenario's view, None), or (None, the row that says why there is none): a 0
    when the app's ``/`` answered with no page to drive; UNAVAILABLE when there was no
    browser, the scenario raised, or it never ran (a probe that could not measure is
    never an app zero); NOT_ATTEMPTED when a sub-selection of the phase left it out.
    ``timed``: the view a timing row reads -- the repeat taken because
    the first run was contended, when there is one."""
    found = obs["browser"]
    if found.unavailable is not None:
        return None, unavailable(check_id, f"browser unavailable: {found.unavailable}")
    if name in found.skipped:
        why = f"the {name} scenario was not selected (--phases browser:<scenarios>)"
        return None, CheckResult(check_id, Status.NOT_ATTEMPTED, 0.0, why)
    if name in found.no_page:
        return None, no_page(check_id, found, name)
    if name in found.scenario_errors:
        why = found.scenario_errors[name]
        return None, unavailable(check_id, f"probe unavailable: the {name} scenario failed: {why}")
    if name not in found.scenarios:
        return None, unavailable(check_id, f"probe unavailable: the {name} scenario did not run")
    if timed and name in found.retimed:
        return found.retimed[name], None
    return found.scenarios[name], None


def no_page(check_id: str, found: Any, name: str) -> CheckResult:
    """The 0 of a row whose scenario found no page at ``/`` (the phase's ``no_page``)."""
    return result(check_id, 0.0, f"0: {found.no_page[name]} ({name} scenario)")


def missing(found: Any, name: str, otherwise: str = "did not run") -> str:
    """Why scenario ``name`` left no view: what ``/`` answered, why it raised, or
    ``otherwise``."""
    return found.no_page.get(name) or found.scenario_errors.get(name, otherwise)


def errors_of(seen: Any) -> list[str]:
    """Console errors and uncaught page errors of one scenario's view, as texts."""
    sc = seen.scenario
    return [m.text for m in sc.console_errors] + [f"{e.name}: {e.message}" for e in sc.page_errors]


def shots(seen: Any, *names: str) -> list[str]:
    """The scenario's screenshots a row relies on, for its evidence: those named (by file
    stem, e.g. ``load-375``), or all of them. The card lists each screenshot with the rows
    that name it, and keeps no other (`kit.screenshots`)."""
    return [str(s.path) for s in seen.scenario.screenshots if not names or s.path.stem in names]


def quote(text: str, width: int = 120) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= width else text[: width - 1] + "…")
