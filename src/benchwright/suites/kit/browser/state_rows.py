"""The rows of a console's state scenarios, whatever the suite: the error and empty
states' ladders (the ``error`` and ``empty`` scenarios' views, `kit.browser.states`), and
the detail of a rung read at once from a ``/`` that was no page."""

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


def empty_row(check_id: str, empty: Any, accepted: str | None = None, **ev: Any) -> CheckResult:
    """A never-synced database: zero rows plus empty-state text 1.0; content without it
    0.3; blank 0; any rendered row 0 (phantom data). ``accepted``: a pre-sync state the
    page showed that its suite accepts instead of the text (sb-7's documented D3), as the
    detail names it; it earns as the text does."""
    ev = {"screenshots": shots(empty), **ev}
    if empty.rows > 0:
        return result(check_id, 0.0, f"0: {empty.rows} rows rendered on an empty database "
                      "(phantom data)", **ev)  # fmt: skip
    if empty.empty_text:
        cta = "a sync CTA is visible" if empty.cta_visible else "no sync CTA"
        return result(check_id, 1.0, f"1: no rows and empty-state text "
                      f"{quote(empty.empty_text)} ({cta}; CTA not exercised)", **ev)  # fmt: skip
    if accepted is not None:
        return result(check_id, 1.0, f"1: no rows; {accepted}", **ev)
    if empty.body_text_length > 0:
        return result(check_id, 0.3, "0.3: content but no empty-state text (no payments/"
                      "nothing/empty/no records...)", **ev)  # fmt: skip
    return result(check_id, 0.0, "0: a blank page on an empty database", **ev)
