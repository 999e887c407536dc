"""What each vendorsync browser scenario saw, as frozen data. Observes only; checks judge."""

from __future__ import annotations

from dataclasses import dataclass

from benchwright.probes.browser import ScenarioObservation
from benchwright.suites.kit.browser import BrowserRecord

BrowserObservation = BrowserRecord
"""The phase's observation: the kit's record, its scenarios keyed ``load``, ``error``,
``empty`` and ``sync`` (`SCENARIOS`)."""


@dataclass(frozen=True)
class StatusCell:
    """One row's status cell as rendered: its text and the colours it is painted in."""

    text: str
    """Lowercased, trimmed."""
    ink: str
    """Computed text colour of the element holding the text."""
    fill: str
    """The first painted background from that element up to its row (transparent: none)."""
    badge: bool
    """The text sits on a shape of its own (a background or a border of its own)."""


@dataclass(frozen=True)
class LoadView:
    """``/`` of the graded app (synced, after the vendor's update pass) at 1280x800, a turn
    of the page with ``#next``, then a fresh load at 375x812."""

    scenario: ScenarioObservation
    collection: int
    """How many payments the vendor holds (the fixture's): what the page must account for."""
    first_row_ms: float | None
    """Page clock when the first visible ``#payments tbody tr`` appeared (None: never)."""
    rows: int
    """Visible data rows (at least three cells) of ``#payments``."""
    page_info: str | None
    """``#page-info`` text, or None when there is no such element."""
    page_text: str
    """Everything the page renders as text (``document.body.innerText``)."""
    dates: tuple[str, ...]
    """Each data row's Date cell (by its header, else the first column)."""
    statuses: tuple[StatusCell, ...]
    """Each data row's Status cell (by its header, else the third column)."""
    controls: tuple[str, ...]
    """Which of ``#prev``, ``#next``, ``#page-info``, ``#status-filter`` are visible."""
    turned_to: str | None
    """``#page-info`` after clicking ``#next`` (None: no click, or nothing changed)."""
    stylesheet: bool
    """At least one stylesheet with rules applies to the document."""
    backgrounds: tuple[str, ...]
    """Distinct painted background colours of the visible elements."""
    font_family: str
    """The body's computed font family."""
    mobile_rows: int
    """Visible data rows of the fresh load at 375 px."""
    mobile_scroll_width: int
    mobile_client_width: int


@dataclass(frozen=True)
class ErrorView:
    """``/`` of the graded app with every data request refused, then ``#retry``."""

    scenario: ScenarioObservation
    error_visible: bool
    """``#error`` is rendered."""
    error_text: str
    retry_visible: bool
    """``#retry`` is rendered."""
    others_visible: tuple[str, ...]
    """Which of ``#loading``, ``#empty``, ``#data`` are also rendered."""
    recovered: bool | None
    """After the network came back and ``#retry`` was clicked, rows rendered (None: no
    click)."""
    no_page: str | None = None
    """What ``/`` answered when it was no page (read at once, no waits)."""


@dataclass(frozen=True)
class EmptyView:
    """``/`` of a second instance on a brand-new database."""

    scenario: ScenarioObservation
    empty_visible: bool
    """``#empty`` is rendered."""
    empty_text: str
    rows: int
    """Visible data rows (none should render on an empty database)."""
    no_page: str | None = None


@dataclass(frozen=True)
class Snapshot:
    """What the page shows at one moment of the sync journey."""

    rows: int
    page_info: str | None
    summary: str | None
    empty_visible: bool


@dataclass(frozen=True)
class SyncView:
    """``#sync-now`` clicked on the second instance while it shows its empty state: the
    vendor has payments, so a working sync must change what is shown."""

    scenario: ScenarioObservation
    found: bool
    """A visible ``#sync-now``."""
    clicked: bool
    disabled_while_running: bool
    """The button was disabled while ``POST /api/sync`` was in flight."""
    sync_status: int | None
    """The status the page's ``POST /api/sync`` was answered with (None: none seen)."""
    enabled_after: bool
    """The button is enabled again once the sync is over."""
    before: Snapshot | None
    after: Snapshot | None
    wait_s: float
