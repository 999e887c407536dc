"""Records of sb-7's harness-side performance phases, built in code (no servers): the
idle battery and the reads under the stream burst as a fast, correct app leaves them, with
knobs for the one defect a test proves a check catches. `sb7_observations.perfect()`
carries the fast, correct ones."""

from __future__ import annotations

import json

from benchwright.probes.host import HostState
from benchwright.probes.http import (
    HttpObservation,
    Interval,
    LatencyObservation,
    LoadObservation,
    LoadSample,
    p95,
)
from benchwright.suites.sb7.observations import Observations, Truth
from benchwright.suites.sb7.perf_obs import (
    BUDGETS_MS,
    IDLE_PERF,
    LIST_50,
    UNDER_STREAM,
    BatteryObs,
    StreamListen,
    UnderStreamObs,
)

CALM = HostState(3.0, 2, 0.02, 0.0, 0.01, 0.3)
BUSY = HostState(3.0, 2, 0.70, 0.0, 0.6, 5.2)


def _get(path: str, ms: float, status: int = 200, body: bytes = b"{}", at: float = 0.0):
    return HttpObservation("GET", path, status, (("content-type", "application/json"),), body,
                           at, ms / 1000)  # fmt: skip


def latency(path: str, ms: float, *, failed: int = 0) -> LatencyObservation:
    samples = tuple(_get(path, ms) for _ in range(20 - failed)) + tuple(
        _get(path, ms, status=500) for _ in range(failed)
    )
    ok = tuple(s.elapsed_ms for s in samples if s.succeeded)
    return LatencyObservation(path, samples, ok, p95(ok))


def battery(host: HostState = CALM, **ms: float) -> BatteryObs:
    """Every endpoint at 20 ms unless ``ms`` names it (by its last path word)."""
    found = {p: latency(p, ms.get(p.split("/")[-1].split("?")[0], 20.0)) for p in BUDGETS_MS}
    return BatteryObs(found, dict.fromkeys(BUDGETS_MS, host))


def with_perf(obs: Observations, *, idle: BatteryObs | None = None,
              load: UnderStreamObs | None = None) -> Observations:  # fmt: skip
    obs = obs.with_phase(IDLE_PERF, idle or battery())
    return obs.with_phase(UNDER_STREAM, load or under(20.0))


def page(truth: Truth, total: int | None = None, rows: list | None = None) -> bytes:
    """The default page as a correct app serves it (the fixture's first 50 payments)."""
    first = list(truth.rows.items())[:50]
    data = rows if rows is not None else [
        {"id": pid, "amount_minor": r.amount_minor, "currency": r.currency,
         "created_at": r.created_at, "status": r.status, "version": r.version, "note": r.note}
        for pid, r in first
    ]  # fmt: skip
    return json.dumps({"data": data, "total": total or truth.total, "limit": 50}).encode()


def under(ms: float, *, overlap: float = 1.0, body: bytes | None = None,
          host: HostState = CALM) -> UnderStreamObs:  # fmt: skip
    """48 reads of ``ms`` each; the first ``overlap`` share inside the burst [0, 10]."""
    from sb7_observations import truth  # `perfect()` is built from these records

    content = body if body is not None else page(truth())
    inside = round(48 * overlap)
    samples = tuple(
        LoadSample(i % 8, i // 8, Interval(at, at + ms / 1000), _get(LIST_50, ms, body=content))
        for i, at in enumerate([1.0] * inside + [20.0] * (48 - inside))
    )
    ok = [s.response.elapsed_ms for s in samples]
    load = LoadObservation(LIST_50, samples, Interval(0.0, 10.0), None, overlap, p95(ok))
    burst = tuple(f"pay_{n:05d}" for n in range(100, 148))
    return UnderStreamObs(load, truth().total, burst, StreamListen(200, 48, 48), host)
