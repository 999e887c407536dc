"""The rows of a console's state scenarios, whatever the suite: the error state's ladder
(the ``error`` scenario's `kit.browser.states.ErrorView`), and the detail of a rung read
at once from a ``/`` that was no page."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.browser.rows import quote, shots
from benchwright.suites.kit.checks import result


def read_at_once(row: CheckResult, no_page: str | None) -> CheckResult:
    """``row``, its detail naming what ``/`` answered when it was no page: the rung was
    read from what the browser showed at once, with no waits (``kit/browser/nav.py``)."""
    if no_page is None:
        return row
    return replace(row, detail=f"{row.detail} [{no_page}: read at once]")


def error_row(check_id: str, seen: Any) -> CheckResult:
    """The backend blocked in the browser: a visible actionable error 1.0 (0.6 when an
    exercised retry did not recover); a generic error 0.3; nothing 0."""
    ev = {"screenshots": shots(seen), "retry_recovered": seen.retry_recovered,
          "shown_after_s": seen.shown_after_s, "retry_s": seen.retry_s}  # fmt: skip
    if not seen.error_visible:
        return result(check_id, 0.0, f"0: no visible error state with the API blocked "
                      f"({seen.body_text_length} chars of page text)", **ev)  # fmt: skip
    if seen.actionable_text is None:
        return result(check_id, 0.3, f"0.3: a generic error without actionable phrasing: "
                      f"{quote(seen.error_text or '')}", **ev)  # fmt: skip
    if seen.retry_recovered is False:
        return result(check_id, 0.6, f"0.6: actionable {quote(seen.actionable_text)}, but the "
                      f"exercised retry did not recover (gave up after {seen.retry_s} s)",
                      **ev)  # fmt: skip
    retry = {True: f"retry recovered in {seen.retry_s} s",
             None: "no retry control exercised"}[seen.retry_recovered]  # fmt: skip
    return result(check_id, 1.0, f"1: visible actionable error {quote(seen.actionable_text)} "
                  f"({retry}; shown after {seen.shown_after_s} s)", **ev)  # fmt: skip
