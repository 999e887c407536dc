"""What the vendorsync phases saw: the kit's record with the Meridian v1 fixture's truth
(`Truth`), and one frozen observation type per phase (the boot's and the restart's are
the kit's kinds')."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from benchwright.probes.host import HostState
from benchwright.probes.http import (
    HttpObservation,
    JsonRead,
    LatencyObservation,
    MatrixObservation,
)
from benchwright.services.meridian import ContractLedger
from benchwright.suites.kit.kinds import BootObs, RestartObs
from benchwright.suites.kit.record import PhaseLog

LARGEST_PAGE = 100
"""The v1 vendor's largest page (docs/facts/meridian-v1.md)."""


@dataclass(frozen=True)
class Truth:
    """What the v1 fixture of one seed holds: what every check compares against."""

    total: int
    sum_minor: int
    currency: str
    oldest: str
    newest: str
    """The bounds' instants in UTC with ``Z``."""
    true_order: tuple[str, ...]
    """Every id, oldest instant first, ties by id."""
    optimal_requests: int
    """List requests a perfect first sync needs at limit 100, the traps included (7)."""
    mutated: int
    """Statuses the vendor's update pass flips to ``refunded`` (25)."""

    @classmethod
    def of(cls, fixture: Any) -> Truth:
        """The truth of a `V1Fixture`."""
        return cls(
            total=fixture.total,
            sum_minor=fixture.sum_minor,
            currency=fixture.rows[0]["currency"],
            oldest=fixture.oldest,
            newest=fixture.newest,
            true_order=tuple(fixture.true_order),
            optimal_requests=fixture.optimal_requests,
            mutated=len(fixture.mutation_map),
        )


@dataclass(frozen=True)
class StaticObs:
    modules: Mapping[str, bool]
    """Spec path (under ``vendorsync/``) -> is a file."""
    methods: Mapping[str, tuple[str, ...]]
    """Class name -> method names declared in it (AST, no import)."""
    parse_errors: tuple[str, ...]
    store_source: str | None
    meridian_source: str | None
    web: Mapping[str, str]
    """Web file (``index.html``, ``styles.css``, ``app.js``) -> its text, when present."""


@dataclass(frozen=True)
class HealthObs:
    """``GET /api/health`` on the fresh database, before any sync."""

    fresh: JsonRead


@dataclass(frozen=True)
class SyncObs:
    call: JsonRead
    health: JsonRead | None = None
    """``GET /api/health`` right after."""
    host: HostState | None = None
    """The host across the sync (the first sync is timed: ``p_sync_wall``)."""


@dataclass(frozen=True)
class ConcurrentObs:
    calls: tuple[JsonRead, ...]
    health_count: int | None


@dataclass(frozen=True)
class ReadsObs:
    index: HttpObservation
    default: JsonRead
    capped: JsonRead
    page5: JsonRead
    pages: tuple[JsonRead, ...]
    """Every row, in 100-row pages (offset 0, 100, 200)."""
    summary: JsonRead
    health: JsonRead
    sample: tuple[JsonRead, ...]
    """The JSON-everywhere sample: health, the default page, limit=5&offset=5, summary,
    an unknown path, limit=-1."""


@dataclass(frozen=True)
class ValidationObs:
    matrix: MatrixObservation


@dataclass(frozen=True)
class ClientObs:
    """``MeridianClient`` called directly, in a subprocess confined like the app."""

    report: Mapping[str, Any] | None
    """The driver's report (`phases.client_driver`); None when it left none."""
    failure: str | None
    """Why there is no report (the driver never finished, or could not start)."""


@dataclass(frozen=True)
class UpdateObs:
    changed: Mapping[str, str]
    """Id -> the status the vendor now holds (``refunded``)."""
    sync: JsonRead
    seen: Mapping[str, str | None]
    """Changed id -> the status the app's API showed after the third sync (None: absent)."""


@dataclass(frozen=True)
class PerfObs:
    payments: LatencyObservation
    host: HostState | None


@dataclass(frozen=True)
class LedgerObs:
    """The vendor's contract ledger of each graded window (None: never marked)."""

    ledgers: Mapping[str, ContractLedger | None]


@dataclass(frozen=True, kw_only=True)
class Observations(PhaseLog):
    """The whole grading's evidence: the fixture's truth plus one entry per phase."""

    seed: int
    truth: Truth
    build_docs_reads: int | None = None
    """Docs reads in the build-phase vendor trace; None: no such trace was given."""


__all__ = [
    "BootObs",
    "ClientObs",
    "ConcurrentObs",
    "HealthObs",
    "LedgerObs",
    "Observations",
    "PerfObs",
    "ReadsObs",
    "RestartObs",
    "StaticObs",
    "SyncObs",
    "Truth",
    "UpdateObs",
    "ValidationObs",
]
