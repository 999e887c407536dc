"""Sequential latency sampling and the seed's p95.

The seed's idle battery sends n (20) sequential GETs, drops the failures and
takes p95 as the sorted value at index ``int(0.95 * (n - 1))`` over the
successes; with fewer than 10 successes the percentile does not exist (None),
which a check reads as "unmeasurable", never as fast.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from benchwright.probes.http._observe import DEFAULT_TIMEOUT_S, HttpObservation, client, fetch

MIN_SUCCESSES = 10


def p95(values: Sequence[float], min_count: int = MIN_SUCCESSES) -> float | None:
    """The sorted value at ``int(0.95 * (n - 1))``; None when fewer than ``min_count``."""
    if len(values) < max(1, min_count):
        return None
    ordered = sorted(values)
    return ordered[int(0.95 * (len(ordered) - 1))]


@dataclass(frozen=True, slots=True)
class LatencyObservation:
    """n sequential requests to one path and the p95 of the successful ones."""

    path: str
    samples: tuple[HttpObservation, ...]
    success_ms: tuple[float, ...]
    """Elapsed times of the 2xx answers, in request order."""
    p95_ms: float | None

    @property
    def errors(self) -> int:
        return len(self.samples) - len(self.success_ms)


def sample_latency(
    base_url: str,
    path: str,
    *,
    n: int = 20,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    min_successes: int = MIN_SUCCESSES,
) -> LatencyObservation:
    """GET ``path`` ``n`` times, one after another, and time each whole exchange."""
    with client(base_url, timeout_s) as http:
        samples = tuple(fetch(http, path) for _ in range(n))
    success_ms = tuple(s.elapsed_ms for s in samples if s.succeeded)
    return LatencyObservation(path, samples, success_ms, p95(success_ms, min_successes))
