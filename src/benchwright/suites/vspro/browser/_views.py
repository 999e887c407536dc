"""What each vspro browser scenario saw, as frozen data. Observes only; checks judge.
The error and empty views are the kit's (`kit.browser.states`)."""

from __future__ import annotations

from dataclasses import dataclass

from benchwright.probes.browser import ScenarioObservation
from benchwright.suites.kit.browser.record import BrowserRecord
from benchwright.suites.vspro.phase_obs import RegisterRetryObs


@dataclass(frozen=True)
class ViewSnapshot:
    """The table as a user sees it at one moment."""

    rows: int
    """Visibly rendered ``tbody tr`` rows with at least 2 cells."""
    readout_total: int | None
    """TOTAL of a visible "showing X-Y of TOTAL" readout."""
    last_sync: str | None
    """``#last-sync`` text."""
    table_hash: str
    """A digest of the visible rows' text."""
    statuses: tuple[str, ...] = ()
    """Each visible row's status-cell text, lowercased."""
    filter_value: str | None = None
    """``#status-filter``'s ``data-value`` (None: no such control or attribute)."""


@dataclass(frozen=True)
class FilterDrive:
    """The status filter driven like a user: open, pick ``refunded``, restore All."""

    control: bool
    opened: bool
    option_found: bool
    picked: ViewSnapshot | None
    restore_found: bool
    restored: ViewSnapshot | None


@dataclass(frozen=True)
class LoadView:
    """``load``: the page at 1280x800, then reloaded at 375x812."""

    scenario: ScenarioObservation
    """Console and page errors cover both loads; its ``first_row_ms`` is the 375 reload's."""
    first_row_ms: float | None
    """The first visible row of the 1280x800 load (page clock), or None."""
    rows: int
    claimed_total: int | None
    claimed_hits: tuple[int, ...]
    dates: tuple[str, ...]
    amounts: tuple[str, ...]
    statuses: tuple[tuple[str, str, str], ...]
    """(status, computed color, first non-transparent background) per distinct status."""
    stylesheet: bool
    backgrounds: tuple[str, ...]
    font_family: str
    header_visible: bool
    pagination: tuple[str, ...]
    """Which pagination affordances were visible (``prev``, ``next``, ``nav``, ``readout``...)."""
    filter: FilterDrive
    mobile_scroll_width: int | None
    mobile_inner_width: int | None
    mobile_rows: int
    first_page: tuple[tuple[str, int], ...]
    """Ground truth recorded with the probe: the fixture's first 50 (currency, amount_minor)."""
    hostile: tuple[bool, bool] = (False, False)
    """(the hostile counterparty name ran as markup, its text is shown), at 1280x800."""


@dataclass(frozen=True)
class SyncView:
    """``sync``: ``#sync-now`` clicked on an instance seeded from a half-capped vendor."""

    scenario: ScenarioObservation
    button_found: bool
    clicked: bool
    in_flight_ms: float | None
    """Click to the first disabled / aria-busy / data-state=syncing state (page clock)."""
    completed: bool
    """The button came back enabled."""
    error_text: str | None
    api_sync_seen: bool
    """An ``/api/sync`` entry in the page's resource timing."""
    before: ViewSnapshot | None
    after: ViewSnapshot | None
    half_seeded: int | None
    """``/api/health`` payments before the click (776 after a working half-capped sync)."""
    wait_s: float


@dataclass(frozen=True)
class NoteView:
    """``note``: an optimistic note edit under an 800 ms held response, then a 409."""

    scenario: ScenarioObservation
    cell_found: bool
    editor_opened: bool
    committed: bool
    held_pending: bool
    """The note POST was verifiably still held when the cell was checked (+250 ms)."""
    painted_while_held: bool
    saving_seen: bool
    paint_ms: float | None
    """Enter to the cell showing the value (page-side MutationObserver stamp)."""
    preexisting: bool
    """The value was already in the cell before Enter (a draft earns no latency credit)."""
    saved: bool
    """After release: the cell shows the value with no error, and the server holds it."""
    saved_state: str | None
    conflict_reverted: bool | None
    conflict_notice: str | None
    conflict_notice_role: str | None


@dataclass(frozen=True)
class BrowserObservation(BrowserRecord):
    """The vspro ``browser`` phase: the kit's record of its scenarios (``load``, ``sync``,
    ``note``, ``error``, ``empty``, ``viz``, ``viz_fallback``) and the second instance's
    webhook registrations."""

    register_retry: RegisterRetryObs | None = None
    """The second instance's registrations, its first refused on purpose; None when the
    instance was never started (no browser, or its lane stopped first)."""
