"""Phase ``idle_perf``: the idle API latency battery. After ``final`` the run is quiet (the
vendor delivered everything, the outbox drained, the read stream stopped), so 20
sequential GETs of each read endpoint measure the app alone. Each endpoint is measured in
its own host window and taken again (bounded) while the host was contended, so a busy
machine costs a retry, never the app's rung."""

from __future__ import annotations

from benchwright.probes.host import measure
from benchwright.probes.http import sample_latency
from benchwright.suites.sb7.context import GradeContext
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.perf_obs import BUDGETS_MS, BatteryObs

SAMPLES = 20
"""Sequential GETs per endpoint (the methodology's battery: 20, p95 by sorted index)."""
VIZ_TIMEOUT_S = 30.0
"""``/api/viz/records`` carries the whole collection: its answer may take longer than a
page's before it is a failure rather than a slow success."""


def idle_perf(ctx: GradeContext, obs: Observations) -> BatteryObs:
    """20 GETs of each battery endpoint, one endpoint per host window."""
    timeout = max(ctx.settings.request_timeout_s, VIZ_TIMEOUT_S)
    timed = {
        path: measure(
            lambda path=path: sample_latency(ctx.base_url, path, n=SAMPLES, timeout_s=timeout)
        )
        for path in BUDGETS_MS
    }
    return BatteryObs({p: t.value for p, t in timed.items()}, {p: t.host for p, t in timed.items()})
