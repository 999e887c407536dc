"""What the sb-7 phases saw: the raw evidence the 51 checks of tiers A, B, C, D, X and R
read (methodology §12), kept as plain frozen records.

The record is the kit's `PhaseLog` (one observation per phase, harness faults in
``failed``, an app that never became healthy in ``app_down``) plus the fixture's truth.
Phases store what they observed, never a verdict: "the app answered 200 in 0.4 s" is
evidence, "the app passed B4" is the check's to say. Where a window of the seeded fault
schedule never armed or never fired, its record says so (``armed``/``fired``/
``unreached``), because §12 prices "the harness never arranged it" (PROBE UNAVAILABLE) and
"the app never reached it" (a score) differently.

Each phase name below is the key its observation is stored under; each field's docstring
names the checks that read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from benchwright.probes.host import HostState
from benchwright.probes.http import HttpObservation, JsonRead
from benchwright.services.app import BootObservation
from benchwright.suites.kit.record import PhaseLog

TREE = "tree"
"""Phase: the submitted tree on disk (`TreeObs`)."""
SMOKE = "smoke"
"""Phase: ``python -m app`` booted once, combined (`SmokeObs`)."""
BOOT = "boot"
"""Phase: both services booted separately, the vendor down for the B4 window (`BootObs`)."""
SYNC1 = "sync1"
"""Phase: the first, unprompted sync under the vendor's traps (`Sync1Obs`)."""
READS = "reads"
"""Phase: the API read after the first sync quiesced (`ReadsObs`)."""
MATRIX = "matrix"
"""Phase: the HTTP matrices: validation, auth, error envelopes (`MatrixObs`)."""
RESYNC = "resync"
"""Phase: later syncs: the B3 kill mid-sync and the B5 lying 304 (`ResyncObs`)."""
PARTITION = "partition"
"""Phase: the notifier partition B7 with A1 and B6 inside it (`PartitionObs`)."""
WORKFLOW = "workflow"
"""Phase: the approval kill A2 and the rejected draft's resubmit (`WorkflowObs`)."""
FINAL = "final"
"""Phase: reads at quiescence, the notifier's durable state, the db dir (`FinalObs`)."""
STREAM = "stream"
"""Phase: the read stream sampled through the whole run (`ReadStream`)."""
VENDOR = "vendor"
"""Phase: the vendor's own ledgers, read from the mock after the run (`VendorObs`)."""
PHASES = (TREE, SMOKE, BOOT, SYNC1, READS, MATRIX, RESYNC, PARTITION, WORKFLOW, FINAL,
          STREAM, VENDOR)  # fmt: skip
"""Every phase name, in the order the schedule runs them."""

Json = Mapping[str, Any]
"""A JSON object as the app (or the vendor) sent it."""


# ---------------------------------------------------------------- the fixture's truth


@dataclass(frozen=True)
class LoadRow:
    """One payment as the vendor held it at fixture load."""

    version: int
    amount_minor: int
    currency: str
    status: str
    created_at: str
    day: str
    """The Europe/Berlin calendar date of ``created_at``'s instant (``YYYY-MM-DD``)."""
    note: str = ""


@dataclass(frozen=True)
class Reversal:
    """One reversal the vendor holds (a refunded payment's full amount, its currency)."""

    payment_id: str
    currency: str
    amount_minor: int


@dataclass(frozen=True)
class Truth:
    """The seeded v3 fixture at load: what every expectation is derived from, together with
    the vendor's post-load commits (`VendorObs.commits`).

    Read by: sync_completeness and b_total_field (``total``), b_buckets_dst (``rows``'
    days and statuses, ``days``, ``dst_day``), b_viz_records (``rows``' days and order),
    x_l1 (``rows``' versions), x_m1 (amounts), x_l4/x_m3/x_conservation_residual (the
    final state derived from ``rows``, ``reversals`` and the commits),
    r_notification_multiset (``notifications``, the fallback expectation).
    """

    rows: Mapping[str, LoadRow]
    """Payment id -> its load state, in the vendor's serve order."""
    days: tuple[str, ...]
    """The 96 Berlin days of the span, ascending."""
    dst_day: str
    """The seeded Berlin DST transition day."""
    reversals: tuple[Reversal, ...] = ()
    """The reversals the vendor holds at load (one per refunded payment)."""
    notifications: Mapping[str, int] = field(default_factory=dict)
    """Notification kind -> count the scheduled workflow must materialize (the fixture
    fallback of r_notification_multiset when the app's ledger is empty)."""

    @property
    def total(self) -> int:
        return len(self.rows)


# ---------------------------------------------------------------- the vendor's ledgers


@dataclass(frozen=True)
class Commit:
    """One change the vendor committed after load: a mutation, a create, or a refund.

    Read by: x_l1 (the committed ``(payment_id, version)`` set), x_l4 and x_m3 (final
    state), x_m1 (a created payment's amount), b_buckets_dst and b_total_field (the state
    at a read's ``commit_mark``), x_ooo_dup_forged (final version of the traps' targets).
    """

    seq: int
    """The vendor's global commit sequence."""
    payment_id: str
    version: int
    status: str
    amount_minor: int
    currency: str
    note: str = ""
    created: bool = False
    """The commit created the payment (mid-walk create, an approved draft's send)."""
    day: str | None = None
    """A created payment's Berlin day (its vendor value date)."""
    reversal: bool = False
    """The commit also created the payment's reversal (a refund group)."""
    txn: str | None = None


@dataclass(frozen=True)
class ListRequest:
    """One ``GET /v3/payments`` the vendor answered (or dropped), from its request trace.

    Read by: c_paged_walk (sync #1's pages, params, duplicates), c_b1_drop_resume,
    c_b2_retry_after (the requests after the fault), c_b5_generation_304 (identical
    conditionals and the unconditional refetch), c_conditional_resync (validators on
    re-sync requests).
    """

    seq: int
    at: float
    """Seconds on the vendor's clock (only differences are read)."""
    cursor: str | None
    """The ``cursor`` query value; None asks for the first page."""
    params: tuple[str, ...] = ()
    """Every query parameter name the request carried (``cursor`` included)."""
    if_none_match: str | None = None
    status: int | None = 200
    """None: the vendor dropped the connection unanswered."""
    page: int | None = None
    """The 0-based page the answer served (None when nothing was served)."""
    last: bool = False
    """The answer closed the walk (``next_cursor`` null)."""
    fault: str | None = None
    """The seeded fault this request carried: ``drop`` (B1), ``http500`` (B2),
    ``stale304`` (B5)."""
    retry_after_s: float | None = None
    """The ``Retry-After`` the vendor advertised on a 500."""


@dataclass(frozen=True)
class Delivery:
    """One webhook delivery attempt the vendor made, with the app's answer.

    Read by: c_webhook_discipline (acked fraction, the forged one's status),
    x_no_lost_write (acked ``(payment_id, version)`` pairs).
    """

    event_id: str
    type: str
    """``payment.created``, ``payment.updated``, ``reversal.created``."""
    payment_id: str | None
    version: int | None
    """The payment's version the event carries (None for a reversal)."""
    status: int | None
    """The app's HTTP status; None: no answer (refused, timed out)."""
    forged: bool = False
    txn: str | None = None


@dataclass(frozen=True)
class CreateRecord:
    """One ``POST /v3/payments`` the vendor received.

    Read by: c_send_idempotency (keys, the retry's key), r_no_dupe_effect (payments
    created for the graded approval).
    """

    idempotency_key: str | None
    status: int | None
    payment_id: str | None
    """The payment created or replayed (None when the request failed)."""
    replay: bool
    """The key was already stored: the vendor returned the same payment."""
    amount_minor: int | None = None
    currency: str | None = None
    counterparty_name: str | None = None


@dataclass(frozen=True)
class VendorTrace:
    """The vendor's request trace, sliced by the harness's phase marks."""

    sync1: tuple[ListRequest, ...]
    """List requests of the first sync (from boot until it completed)."""
    resync: tuple[ListRequest, ...]
    """List requests of every later sync (after mutations moved the collection)."""
    load_pages: int = 192
    """Pages the collection had at load (a first visit beyond them may be unconditional)."""


@dataclass(frozen=True)
class VendorObs:
    """The vendor's ground truth, read from the mock after the run (never from the app).

    Kept in the record's own small types rather than the v3 mock's ledger records: the
    phase that reads the mock (``phases.vendor``) converts them once, so a check reads
    plain values (a 0-based page, the record's fault names) and a unit test builds them
    without a mock.
    """

    commits: tuple[Commit, ...]
    """Every post-load commit, in commit order (x_l1, x_l4, x_m1, x_m3, residual)."""
    trace: VendorTrace | None
    """None: no request trace was recorded (C rows are PROBE UNAVAILABLE)."""
    deliveries: tuple[Delivery, ...] | None
    """None: no delivery ledger (c_webhook_discipline, x_no_lost_write unavailable)."""
    creates: tuple[CreateRecord, ...] | None
    """None: no create records (c_send_idempotency unavailable)."""


# ---------------------------------------------------------------- boots and kills


@dataclass(frozen=True)
class KillRecord:
    """One seeded SIGKILL and its restart with the same flags.

    Read by: r_no_row_loss (``before``/``after``), r_b3_sigkill_resync (``restarted``),
    d_peer_absence (``peer_alive``).
    """

    name: str
    """``B3``, ``B6``, ``A1``, ``A2`` (ledgerd) or ``B7`` (notifierd)."""
    service: str
    before: int | None
    """The app-reported payments count immediately before the kill."""
    after: int | None
    """The same count once the restarted service answered (None: it never did)."""
    restarted: bool
    """The restarted service became healthy within its budget."""
    peer_alive: bool | None = None
    """The other service's process was alive throughout (None: not watched)."""


@dataclass(frozen=True)
class B4Window:
    """The vendor refused connections for the first ``down_s`` seconds of boot.

    Read by: r_b4_vendor_down_boot (all four facts), d_client_timeouts (served while down).
    """

    armed: bool
    down_s: float = 0.0
    bound_after_s: float | None = None
    """When ledgerd's port first accepted a connection (None: never)."""
    served_while_down: bool = False
    """A local read answered 2xx while the vendor was down."""
    crashed: bool = False
    """Ledgerd exited during the window or before its first sync."""
    recovered_unattended: bool = False
    """The first sync completed with no ``POST /api/sync`` from the harness."""


@dataclass(frozen=True)
class BootObs:
    """Both services booted separately with the vendor down (B4)."""

    ledgerd: BootObservation
    """Polled on ``GET /``: server_runs (time to healthy, bound, survived, output)."""
    notifierd: BootObservation
    """Polled on ``GET /health``: server_runs (notifierd reported health)."""
    b4: B4Window
    host: HostState | None = None
    """The host from ledgerd's start to its first sync's end: p_sync_wall's window (a busy
    host turns its shortfall UNAVAILABLE, `checks._timing`)."""


@dataclass(frozen=True)
class SmokeObs:
    """``python -m app`` with the full flag set, booted once on a scratch db dir.

    Read by: a_combined_entrypoint.
    """

    booted: bool
    """The process was alive and had bound a port when the probe ended."""
    ledgerd_healthy: bool
    notifierd_healthy: bool
    detail: str = ""
    """What the harness saw (the last output line when it failed)."""


# ---------------------------------------------------------------- what the app served


@dataclass(frozen=True)
class EventsRead:
    """``GET /api/events`` read in full (paged by ``after``), as an admin.

    Read by: b_events_log, x_l1, x_l2, x_ooo_dup_forged, r_no_dupe_effect,
    r_notifier_exactly_once (crossing seqs), r_notification_multiset.
    """

    status: int | None
    """The first page's status (404: the endpoint is absent)."""
    events: tuple[Json, ...]
    """Every event object, in the order served."""
    error: str | None = None


@dataclass(frozen=True)
class SpotRead:
    """``GET /api/payments/<id>`` for one payment.

    Read by: x_l4 (version/status), x_m1 (amount), x_ooo_dup_forged (version, note),
    r_cache_truth and c_b5_generation_304 (the masked rows after B5).
    """

    payment_id: str
    status: int | None
    row: Json | None
    """The payment object (None: no JSON object came back)."""


@dataclass(frozen=True)
class PageObs:
    """The frontend served by ledgerd. Read by: serves_page, a_asset_budget (bodies)."""

    index: HttpObservation
    assets: Mapping[str, HttpObservation]
    """``styles.css``, ``app.js``, ``viz.js`` -> their answer at ``/<name>``."""


@dataclass(frozen=True)
class TreeObs:
    """The submitted tree on disk, read without importing anything."""

    files: frozenset[str]
    """Every file's path relative to the tree (posix): a_package_layout."""
    web_bytes: Mapping[str, int]
    """Web file name (``index.html``, ...) -> size on disk, when present: a_asset_budget,
    serves_page (index.html on disk)."""
    web_text: Mapping[str, str]
    """Web file name -> its text: a_asset_budget's external-reference scan."""
    decisions: str | None
    """DECISIONS.md's text (None: absent): d_decisions_doc."""
    backend: Mapping[str, str]
    """Path -> source of every ``app/**.py``: d_client_timeouts' residual grep."""


@dataclass(frozen=True)
class RefundWindow:
    """The refund transaction group (status flip + reversal, one txn) and the read
    stream's baseline around it.

    Read by: x_l5_group_atomicity, x_m2_pair_conservation.
    """

    armed: bool
    fired: bool = False
    payment_id: str = ""
    currency: str = ""
    amount_minor: int = 0
    version: int = 0
    """The payment's version once refunded."""
    reversals_before: Mapping[str, int] = field(default_factory=dict)
    """Currency -> the app's own summary reversal total read just before the vendor
    committed the group (the baseline each snapshot is compared with)."""


@dataclass(frozen=True)
class Trap:
    """One of the webhook trust traps of sync #1.

    Read by: x_ooo_dup_forged (out-of-order pair, forged signature; the duplicate is
    graded from the event log), c_webhook_discipline (the forged delivery is found in
    the delivery ledger by ``forged``).
    """

    fired: bool
    payment_id: str = ""
    note: str = ""
    """Out-of-order: the stale v+1 note that must not survive; forged: the forged note."""


@dataclass(frozen=True)
class FaultWindow:
    """A vendor-armed fault of a sync (B1 drop, B2 500 + Retry-After, B5 lying 304); the
    request that carried it is marked ``fault`` in the trace.

    Read by: c_b1_drop_resume, c_b2_retry_after, c_b5_generation_304, r_cache_truth.
    """

    armed: bool
    fired: bool = False
    unreached: str | None = None
    """Why an armed app-dependent window never fired (the app never reached it)."""


@dataclass(frozen=True)
class Sync1Obs:
    """The first sync, unprompted, under the vendor's seeded traps."""

    completed: bool
    """The app reported the walk complete (health ``last_sync`` set)."""
    b1: FaultWindow
    b2: FaultWindow
    ooo: Trap
    forged: Trap
    duplicate: Trap
    refund: RefundWindow


@dataclass(frozen=True)
class ReadsObs:
    """The API read after the first sync quiesced."""

    commit_mark: int
    """The vendor's commit seq when these were read: b_total_field and b_buckets_dst
    expect the state at this mark."""
    payments: JsonRead
    """``GET /api/payments`` (default page, limit 50): sync_completeness, b_total_field,
    b_row_shape, b_chronological_order."""
    summary: JsonRead
    """``GET /api/summary``: sync_completeness, b_summary_shape, x_m4."""
    buckets: JsonRead
    """``GET /api/buckets``: b_buckets_dst."""
    viz: JsonRead
    """``GET /api/viz/records``: b_viz_records."""
    page: PageObs
    sample: tuple[JsonRead, ...]
    """Every API answer sampled, success and error paths: b_json_shapes, d_content_types."""
    stream_head: HttpObservation | None
    """``GET /api/stream``'s response head (None: never opened): d_content_types."""


@dataclass(frozen=True)
class Case:
    """One request of a matrix with what the spec documents for it.

    Read by: d_validation (``expected_status``), b_error_envelope (every error answer;
    ``field_paths`` on the cases that expect field errors).
    """

    name: str
    expected_status: int
    response: JsonRead
    expected_code: str | None = None
    """The envelope code the spec names (``approval_forbidden``, ...), when it names one."""
    field_paths: tuple[str, ...] = ()
    """Field-error paths the spec expects (``limit``, ``counterparty.country``); empty
    when the case expects no field errors."""


@dataclass(frozen=True)
class MatrixObs:
    validation: tuple[Case, ...]
    """Bad limit/offset/sort/status, unknown paths, bad draft bodies."""
    auth: tuple[Case, ...]
    """Missing/unknown token, wrong role, self-approval."""


@dataclass(frozen=True)
class MaskedMutation:
    """A mutation the vendor committed behind B5's lying 304."""

    payment_id: str
    version: int
    status: str


@dataclass(frozen=True)
class ResyncObs:
    """Later syncs: ledgerd SIGKILLed mid-sync (B3), and the stale-validator 304 (B5)."""

    b3: FaultWindow
    b3_kill: KillRecord | None
    """The kill after the n-th list response of sync #2 (None: never fired)."""
    b3_total: int | None
    """``GET /api/payments`` total once the restarted app's re-sync completed."""
    b3_expected: int | None
    """The vendor's collection size at that moment."""
    b3_ids: tuple[str, ...] | None
    """The ``id`` column of ``/api/viz/records`` after the re-sync (duplicates)."""
    b5: FaultWindow
    b5_masked: tuple[MaskedMutation, ...] = ()
    b5_after: tuple[SpotRead, ...] = ()
    """The masked rows read from the app once the B5 sync completed (None rows: the
    snapshot is missing)."""
    b5_requests: tuple[ListRequest, ...] = ()
    """The B5 sync's list requests (the lying 304 marked ``stale304``)."""


@dataclass(frozen=True)
class WriteCall:
    """A user write committed while the notifier was down (B7's K = 8)."""

    status: int | None
    elapsed_s: float


@dataclass(frozen=True)
class PartitionObs:
    """Notifierd SIGKILLed (B7); ledgerd commits 8 events, the A1 submit among them, and
    is itself killed with outbox rows pending (B6); then notifierd heals."""

    armed: bool
    notifier_kill: KillRecord | None
    writes: tuple[WriteCall, ...] = ()
    """r_b7_partition: writes never blocked."""
    outbox: tuple[Json | None, ...] = ()
    """``GET /api/outbox/status`` during the outage, in order: r_b7 (down + pending)."""
    proxy: JsonRead | None = None
    """``GET /api/notifications`` during the outage: d_peer_absence (502 + code)."""
    ledgerd_alive: bool | None = None
    """Ledgerd's process lived through the partition: d_peer_absence."""
    catch_up: tuple[tuple[int, ...], ...] = ()
    """Successive ``/notify/processed`` seq snapshots (outage seqs only) after the heal:
    r_b7 (catch-up in seq order)."""
    live_after_s: float | None = None
    """Seconds from the heal until ``/api/notifications`` answered 200 again."""
    ui_states: tuple[str, ...] | None = None
    """``#notifications[data-state]`` values the browser saw (None: no browser probe)."""
    ui_live_after_s: float | None = None
    """Seconds from the heal until the feed read ``live`` again (browser)."""
    b6: FaultWindow = FaultWindow(armed=False)
    b6_kill: KillRecord | None = None
    b6_pending_before: int | None = None
    """Outbox ``pending`` immediately before the B6 kill."""
    b6_pending_seqs: tuple[int, ...] = ()
    """Outbox-crossing seqs committed but undelivered at the kill."""
    b6_outbox_after: Json | None = None
    """Outbox status once the heal settled (the relay resumed: pending drained)."""
    a1: FaultWindow = FaultWindow(armed=False)
    a1_kill: KillRecord | None = None
    a1_draft: str | None = None
    a1_state_after: str | None = None
    """The draft's state read after the restart."""
    drafts_absent: bool = False
    """``POST /api/drafts`` answered 404: the drafts surface is not implemented."""


@dataclass(frozen=True)
class WorkflowObs:
    """Ledgerd SIGKILLed right after an approve's 200 with the send in flight (A2), and a
    rejected draft's resubmit (corner D2)."""

    a2: FaultWindow
    a2_kill: KillRecord | None = None
    a2_draft: str | None = None
    a2_state_after: str | None = None
    a2_payload: Json = field(default_factory=dict)
    """The approved draft's ``amount_minor``, ``currency``, ``counterparty`` (r_no_dupe_effect
    finds the vendor payments created for it)."""
    drafts_absent: bool = False
    resubmit_status: int | None = None
    """Status of re-submitting a rejected draft (d_decisions_doc D2; None: not tried)."""


@dataclass(frozen=True)
class NotifierObs:
    """Notifierd's durable state after the run, read directly from it.

    Read by: r_notifier_exactly_once (processed, health), r_notification_multiset
    (notifications), r_no_dupe_effect (duplicate event_seq), r_b6_outbox_atomic.
    """

    processed: tuple[int, ...] | None
    """Every seq ``/notify/processed?after=0`` listed, repeats kept (None: never read)."""
    notifications: tuple[Json, ...] | None
    """Every notification row (None: the endpoint never answered)."""
    health: Json | None


@dataclass(frozen=True)
class FinalObs:
    """Reads at quiescence, after every kill healed and the last sync completed."""

    payments: JsonRead
    """``GET /api/payments`` total: sync_completeness, x_l4 (final total)."""
    summary: JsonRead
    """``GET /api/summary``: x_m3, x_m4, x_conservation_residual."""
    viz: JsonRead
    """``GET /api/viz/records``: x_conservation_residual (loss/dupe attribution),
    x_no_lost_write (final versions)."""
    spot: tuple[SpotRead, ...]
    """Every touched payment (commits, traps, refund, masked): x_l4, x_m1, x_ooo."""
    events: EventsRead
    notifier: NotifierObs
    db_dir: tuple[str, ...] | None
    """File names in ``--db-dir`` after the run (None: never listed): a_db_ownership."""


@dataclass(frozen=True)
class RowSeen:
    """One payment as one read of the stream served it."""

    payment_id: str
    version: int | None
    amount_minor: int | None
    currency: str | None = None
    status: str | None = None


@dataclass(frozen=True)
class StreamRead:
    """One read of the stream: a payment, a page of payments, or a summary."""

    started: float
    ended: float
    """``time.monotonic()`` around the request (order is read from these)."""
    rows: tuple[RowSeen, ...] = ()
    summary: Json | None = None
    in_refund_window: bool = False


@dataclass(frozen=True)
class ReadStream:
    """The harness's read stream: seeded payments and summaries polled through the run
    (x_l1 invented versions, x_l3 regressions, x_m1 amounts, x_l5/x_m2 snapshots)."""

    reads: tuple[StreamRead, ...]


@dataclass(frozen=True, kw_only=True)
class Observations(PhaseLog):
    """The whole sb-7 grading's evidence: the fixture's truth plus one entry per phase."""

    seed: int
    truth: Truth | None
    """None: the fixture could not be rendered (rows that compare with it are UNAVAILABLE)."""


__all__ = [
    "BOOT", "FINAL", "MATRIX", "PARTITION", "PHASES", "READS", "RESYNC", "SMOKE", "STREAM",
    "SYNC1", "TREE", "VENDOR", "WORKFLOW",
    "B4Window", "BootObs", "Case", "Commit", "CreateRecord", "Delivery", "EventsRead",
    "FaultWindow", "FinalObs", "Json", "KillRecord", "ListRequest", "LoadRow",
    "MaskedMutation", "MatrixObs", "NotifierObs", "Observations", "PageObs", "PartitionObs",
    "ReadStream", "ReadsObs", "RefundWindow", "ResyncObs", "Reversal", "RowSeen",
    "SmokeObs", "SpotRead", "StreamRead", "Sync1Obs", "Trap", "TreeObs", "Truth",
    "VendorObs", "VendorTrace", "WorkflowObs", "WriteCall",
]  # fmt: skip
