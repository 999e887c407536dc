"""What this package's sb-7 scenarios saw, as frozen data (observes only; checks judge).
``error`` leaves the kit's `ErrorView` (`kit.browser.states`)."""

from __future__ import annotations

from dataclasses import dataclass

from benchwright.probes.browser import ScenarioObservation


@dataclass(frozen=True)
class LoadView:
    """``load``: ``/`` at 1280x800 once a data row shows, then reloaded at 375x812."""

    scenario: ScenarioObservation
    first_row_ms: float | None
    """Navigation to the first visible data row (page clock; None: never)."""
    rows: int
    """Visibly rendered payments rows (`kit.browser.dom`'s rule)."""
    claimed_total: int | None
    """The TOTAL of ``showing X-Y of TOTAL`` (else the page's largest row count claim)."""
    vendor_total: tuple[int, int]
    """The vendor's collection size just before and just after the page was read: the
    expected total at probe time (other lanes' journeys may create payments meanwhile)."""
    dates: tuple[str, ...]
    """The first three rows' Date cells as rendered."""
    amounts: tuple[tuple[str | None, str], ...]
    """Every visible row's ``(data-id, Amount cell text)``, in page order."""
    statuses: tuple[tuple[str, str, str], ...]
    """``(status word, color, background)`` of each distinct status's badge on page one."""
    stylesheet: bool
    backgrounds: tuple[str, ...]
    """Distinct non-transparent computed backgrounds of header/table/button/card elements."""
    font_family: str
    header_visible: bool
    """``#app-header`` is visibly rendered."""
    mobile_scroll_width: int | None
    mobile_inner_width: int | None
    mobile_rows: int
    mobile_canvas: tuple[float, float] | None
    """``#viz3d``'s CSS box at 375 px (width, height), when there is one (evidence)."""


@dataclass(frozen=True)
class EmptyView:
    """``empty``: both services booted again on a brand-new database directory, told a
    vendor nobody answers, so that the page is read before any first sync can finish."""

    scenario: ScenarioObservation
    rows: int
    empty_text: str | None
    """The first visible leaf text that says there is nothing yet (``no payments``...)."""
    loading_text: str | None
    """The first visible leaf text (or ``aria-busy``/``progress`` element) saying the page
    is loading or syncing: a blocking pre-sync state (D3's other answer)."""
    table_visible: bool
    """A payments table (``table`` with a ``thead``) is visibly rendered."""
    body_text_length: int
    cta_visible: bool
    """A visible control that says sync (the invitation the spec asks for)."""
    no_page: str | None = None
    """What ``/`` answered when it was no page (read at once, no waits)."""
