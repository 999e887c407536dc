"""What the flow scenarios saw: one frozen view per scenario, read back by the J and E
rows through ``record.scenarios[<name>]``. A view reports, never judges."""

from __future__ import annotations

from dataclasses import dataclass

from benchwright.probes.browser import ScenarioObservation

NO_ANSWER = 0
"""The status of a call the page sent that was never answered (aborted, refused, reset)."""


@dataclass(frozen=True)
class SyncView:
    """``sync``: ``#sync-now`` clicked on the graded instance, the page watched until the
    button is idle again and the view re-read."""

    scenario: ScenarioObservation
    button_found: bool
    clicked: bool
    in_flight_ms: float | None
    """Click to the first disabled / aria-busy / data-state=syncing state (page clock)."""
    completed: bool
    """The page's ``POST /api/sync`` was answered and the button is idle again."""
    notice: str | None
    """``#notice``'s visible text once the sync ended (a failed sync's notice)."""
    api_sync_status: int | None
    """The status of the page's own ``POST /api/sync`` (None: the page never sent one;
    `NO_ANSWER`: it sent one that failed or was aborted)."""
    refetched: bool
    """The page asked for ``/api/payments`` or ``/api/summary`` after its sync answered."""
    rerendered: bool
    """The table body changed in the DOM after the sync answered."""
    hash_before: str | None
    hash_after: str | None
    """A digest of the visible rows' text before the click and after the refresh."""


@dataclass(frozen=True)
class DraftCall:
    """One drafts request the page sent, as the browser saw it answered."""

    method: str
    path: str
    status: int
    """The answer's status, `NO_ANSWER` when the request failed."""
    bearer: str | None
    """The role whose token the page sent (``maker``, ``checker``, ``admin``), ``other``
    for a token that is none of the three, or None without one."""


@dataclass(frozen=True)
class WorkflowView:
    """The approval journey through the drafts panel alone: §12's seven causal steps
    (j_workflow_journey), and the evidence that says why each held."""

    surface: tuple[str, ...]
    """The workflow controls the page lacks (``#role-token``, ``#draft-form``, ...)."""
    token_accepted: bool
    draft_id: str | None
    """The id of the row the create added to ``#draft-list`` (None: no draft created)."""
    submitted: bool
    approved: bool
    list_states: tuple[str, ...]
    """``data-state`` of the draft's ``#draft-list`` row after each action, in order."""
    list_ok: bool
    notified: tuple[str, ...]
    """The ``data-kind`` values of the feed rows that appeared during the journey."""
    notification_seen: bool
    payment_in_table: bool


@dataclass(frozen=True)
class RejectView:
    """A submitted draft rejected through ``#reject-btn`` by the checker."""

    draft_id: str | None
    clicked: bool
    reached_rejected: bool
    """The draft is ``rejected`` on the wire after the click (``GET /api/drafts``)."""
    list_state: str | None
    """The draft's ``#draft-list`` row ``data-state`` after the click."""
    notification_seen: bool


@dataclass(frozen=True)
class FeedView:
    """``feed``: ``#notifications`` watched while notifierd was SIGKILLed, ledgerd committed
    further events, and notifierd came back; all in one document."""

    scenario: ScenarioObservation
    feed_found: bool
    live_before: bool
    degraded_seen: bool
    degraded_after_s: float | None
    """Kill to the first ``data-state="degraded"`` (harness clock)."""
    writes: tuple[int, ...]
    """The statuses of the drafts writes ledgerd answered during the partition."""
    healed: bool
    """notifierd answered its health check again after the restart."""
    live_after: bool
    recovered_s: float | None
    """Heal to ``data-state="live"`` (harness clock), within the probe's bound."""
    reloaded: bool
    """The document was replaced (a reload) between the kill and the end."""


@dataclass(frozen=True)
class PaintView:
    """A note edit whose ``POST`` is held at least 800 ms, read at +250 ms."""

    cell_found: bool
    editor_opened: bool
    held_pending: bool
    """The note write was verifiably still held when the cell was read."""
    painted_while_held: bool
    saving_seen: bool
    """The row carried ``data-state="saving"`` while the write was held."""
    paint_ms: float | None
    """Enter to the cell showing the value (page-side MutationObserver stamp)."""
    preexisting: bool
    """The value was in the cell before Enter: no latency credit."""
    saved: bool
    """After the release: the row ``data-state="saved"`` and the server holds the note."""
    saved_state: str | None


@dataclass(frozen=True)
class FlowView:
    """``flow``: the optimistic note edit, the approval and the rejection, on one page."""

    scenario: ScenarioObservation
    paint: PaintView
    approval: WorkflowView
    rejection: RejectView
    calls: tuple[DraftCall, ...]
    """Every drafts request the page sent, as answered."""
