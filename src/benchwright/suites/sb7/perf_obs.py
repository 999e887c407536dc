"""What the harness-side performance phases saw (methodology §12, tier P and E): the idle
API latency battery and the reads raced against a vendor-driven stream burst.

Evidence only, never a verdict: latencies, intervals, answers and the host's state over
each measurement window (the contention rule, `checks._timing`, judges a row against it).
Each phase stores its record under its own name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from benchwright.probes.host import HostState
from benchwright.probes.http import LatencyObservation, LoadObservation

IDLE_PERF = "idle_perf"
"""Phase: the idle API latency battery (`BatteryObs`)."""
UNDER_STREAM = "under_stream"
"""Phase: 8 readers racing a vendor-driven stream burst (`UnderStreamObs`)."""

LIST_50 = "/api/payments?limit=50"
BUDGETS_MS: Mapping[str, float] = {
    LIST_50: 150.0,
    "/api/buckets": 200.0,
    "/api/summary": 150.0,
    "/api/viz/records": 400.0,
}
"""The read endpoints of the battery and their p95 budgets, frozen by the spec (§12); the
first is also what the readers under load read."""


@dataclass(frozen=True)
class BatteryObs:
    """Sequential GETs of each battery endpoint with nothing else running.

    Read by: p_api_latency (every endpoint's p95 against its budget)."""

    endpoints: Mapping[str, LatencyObservation]
    """Path -> its samples, in `BUDGETS_MS` order."""
    host: Mapping[str, HostState]
    """Path -> the host across the attempt kept (a contended one is taken again)."""


@dataclass(frozen=True)
class StreamListen:
    """A harness listener on ``GET /api/stream`` while the burst landed: proof the app's
    fan-out was live during the reads (evidence for the detail, never a gate)."""

    status: int | None
    """The stream's status (None: it never answered)."""
    messages: int = 0
    """Batch messages (heartbeats aside) received from connecting until the burst ended."""
    burst_ids_seen: int = 0
    """How many of the burst's payments came through the stream."""
    error: str | None = None


@dataclass(frozen=True)
class UnderStreamObs:
    """Readers of ``GET /api/payments?limit=50`` racing a burst of vendor commits, each
    delivered to the app as a signed webhook and fanned out on its stream.

    Read by: p_under_stream and e_under_load_latency (overlap, correctness, p95)."""

    load: LoadObservation
    """Every read with its interval; ``background`` is the burst: first commit until the
    vendor delivered the last webhook (and the listener saw it, bounded)."""
    expect_total: int
    """The vendor's payment count during the burst (a note change creates nothing)."""
    burst: tuple[str, ...]
    """The payments the burst committed to (one note change each)."""
    listener: StreamListen
    host: HostState | None
