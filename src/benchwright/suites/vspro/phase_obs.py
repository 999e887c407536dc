"""One frozen observation type per vspro phase (the record holding them is in
`observations.py`); the boot's, the restart's and the trace's are the kit's kinds'."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from benchwright.probes.host import HostState
from benchwright.probes.http import (
    HttpObservation,
    JsonRead,
    LatencyObservation,
    LoadObservation,
    MatrixObservation,
)
from benchwright.services.meridian import BatchTrace, ConflictTrace, TrapResults


@dataclass(frozen=True)
class StaticObs:
    root_has_package: bool
    modules: Mapping[str, bool]
    """Spec path (under ``vspro/``) -> is a file."""
    methods: Mapping[str, tuple[str, ...]]
    """Class name -> method names declared in it (AST, no import)."""
    parse_errors: tuple[str, ...]
    asset_bytes: Mapping[str, int]
    """Web file -> size on disk, for the files present."""
    store_source: str | None
    meridian_source: str | None


@dataclass(frozen=True)
class PageObs:
    index: HttpObservation
    index_on_disk: bool
    assets: Mapping[str, HttpObservation]
    """Asset -> the answer at its bare path (``/app.js``)."""
    on_disk: Mapping[str, int]
    """Asset -> bytes on disk (0 when absent)."""
    web_assets: Mapping[str, HttpObservation]
    """Asset -> the answer under ``/web/`` (``/web/app.js``): spec §6.9 asks for both."""


@dataclass(frozen=True)
class SyncObs:
    call: JsonRead
    health_count: int | None = None
    """``payments`` from /api/health right after, where the phase reads it."""
    ran: bool = True
    """False for the fill sync when health already showed the full count."""


@dataclass(frozen=True)
class ReadsObs:
    default: JsonRead
    page5: JsonRead
    capped: JsonRead
    sorted_desc: JsonRead
    filtered: JsonRead
    summary: JsonRead
    buckets: JsonRead
    raw_pages: tuple[JsonRead, ...]


@dataclass(frozen=True)
class ValidationObs:
    matrix: MatrixObservation
    note_row: JsonRead | None = None
    """The row the too-long note was sent to, read back (§6.7: it must not be stored)."""
    vendor_fault: JsonRead | None = None
    """``POST /api/sync`` while every vendor list request answers 500 (§7: 502
    ``vendor_error``)."""
    vendor_outage: JsonRead | None = None
    """``POST /api/sync`` while the vendor gives no answer at all (§7: 503
    ``vendor_unavailable``); None when the app is not sandboxed, where nothing can cut the
    vendor (the mock itself owns the port the app dials), so the cell is not in the matrix."""


@dataclass(frozen=True)
class BatchObs:
    response: JsonRead
    trace: BatchTrace
    invalid: JsonRead


@dataclass(frozen=True)
class ConflictObs:
    payment_id: str | None
    first: JsonRead | None
    second: JsonRead | None
    row_after: JsonRead | None
    second_note: str
    trace: ConflictTrace


@dataclass(frozen=True)
class LoadObs:
    load: LoadObservation
    expect_rows: int
    host: HostState | None = None
    """The host across the readers' window (not repeated: the stall it arms is a trap the
    vendor's ledger records once)."""


@dataclass(frozen=True)
class TrapsObs:
    results: TrapResults


@dataclass(frozen=True)
class PerfObs:
    payments: LatencyObservation
    buckets: LatencyObservation
    summary: LatencyObservation
    page: HttpObservation
    sync: JsonRead
    host: Mapping[str, HostState] = field(default_factory=dict)
    """``payments``, ``buckets``, ``summary``, ``sync`` -> the host across that measurement
    (the least contended of its attempts)."""


@dataclass(frozen=True)
class ConcurrencyObs:
    calls: tuple[JsonRead, ...]
    health_count: int | None


@dataclass(frozen=True)
class JsonSampleObs:
    reads: tuple[JsonRead, ...]


@dataclass(frozen=True)
class MutationObs:
    changed: Mapping[str, str]
    sync3: JsonRead
    seen: Mapping[str, str | None]
    """Id -> the status the app showed after sync #3 (None: no row)."""
    sync4: JsonRead


@dataclass(frozen=True)
class HostileObs:
    """A counterparty name that is markup, sent as a signed vendor update before the
    browser phase (which renders it on the first page)."""

    sent: Mapping[str, Any] | None
    """The delivery (event id, payment, status, error, ms, data); None when not sent."""
    refused: str | None
    """Why it was not sent (no webhook registered)."""
    row: JsonRead | None
    """The app's row for the payment, read back after the delivery."""


@dataclass(frozen=True)
class RegisterAttempt:
    """One ``POST /v2/webhooks`` naming the watched instance's port, from the vendor trace."""

    after_s: float
    """Seconds after the fault was armed (just before the instance booted)."""
    status: int
    by_fault: bool
    """Refused by the armed fault (no handshake was sent)."""


@dataclass(frozen=True)
class RegisterRetryObs:
    """The browser phase's second instance, whose first webhook registration the vendor
    refused as it refuses a failed handshake (issue #13). Spec §3.4 asks an app to keep
    trying until the vendor accepts: a real app often registers before it listens."""

    port: int
    boot_failure: str | None
    """Why the instance never became healthy; None when it did."""
    attempts: tuple[RegisterAttempt, ...]
    watched_s: float
    """Seconds from arming the fault until the trace was read (the instance had stopped)."""

    @property
    def refused(self) -> RegisterAttempt | None:
        """The attempt the fault refused (the instance's first); None: it never registered."""
        return next((a for a in self.attempts if a.by_fault), None)

    @property
    def retries(self) -> tuple[RegisterAttempt, ...]:
        """The attempts after the refused one."""
        refused = self.refused
        return () if refused is None else self.attempts[self.attempts.index(refused) + 1 :]

    @property
    def accepted(self) -> RegisterAttempt | None:
        """The first retry the vendor accepted (200)."""
        return next((a for a in self.retries if a.status == 200), None)


@dataclass(frozen=True)
class WebhookObs:
    registered_after_s: float | None
    """Seconds after the restart until the app held the vendor's webhook slot."""
    script: Mapping[str, Any] | None
    """The delivery script's report; None when it could not run."""
    refused: str | None
    """Why the script did not run (no registration: the app's doing)."""
    health: Mapping[str, Any] | None
    rows: Mapping[str, Mapping[str, Any] | None]
    """Touched id -> the app's row after the script."""
