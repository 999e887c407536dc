"""Tier E rows graded from the harness side (§12): the API under the stream burst on the
excellence ladder, and mastery of the T, X and R mechanisms from their own rows. The
browser's E rows are their probes' (`tier_e_viz`, `tier_e_paint`)."""

from __future__ import annotations

from collections.abc import Mapping

from benchwright.model import CheckResult, Status
from benchwright.scoring.attribution import BLOCKED_BY
from benchwright.suites.kit.checks import app_check, g, result, unavailable
from benchwright.suites.sb7.checks._common import PROBE, CheckSettings
from benchwright.suites.sb7.checks._load import under_load_row
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.perf_obs import UNDER_STREAM

MASTERY = 0.90
"""The T+X+R mean at and above which mastery pays in full (§12's cliff)."""
MECHANISM_TIERS = ("t_", "x_", "r_")
"""The id prefixes of the 3D field, consistency and resilience tiers."""


@app_check("e_under_load_latency", needs=(UNDER_STREAM,))
def e_under_load_latency(obs: Observations, s: CheckSettings) -> CheckResult:
    """p_under_stream's measurement on the excellence ladder: overlap >= 0.5 or
    UNAVAILABLE; any wrong read 0; else p95 <=150/300/600/1200 ms."""
    return under_load_row("e_under_load_latency", obs, s)


@app_check("e_mastery", derived=True)
def e_mastery(rows: Mapping[str, CheckResult]) -> CheckResult:
    """T+X+R mean >= 0.90: 1.0; below, (mean / 0.90) x 0.5; nothing measured: UNAVAILABLE.
    A row vacuous because a named root already failed is that root's, not a mechanism's."""
    measured = [r.score for r in rows.values() if r.check_id.startswith(MECHANISM_TIERS)
                and r.status in (Status.PASS, Status.FAIL)
                and BLOCKED_BY not in r.evidence]  # fmt: skip
    if not measured:
        return unavailable("e_mastery", f"{PROBE}no measurable T, X or R row")
    mean = sum(measured) / len(measured)
    score = 1.0 if mean >= MASTERY else mean / MASTERY * 0.5
    rung = "rung >=0.90" if mean >= MASTERY else "below the 0.90 cliff: mean/0.90 x 0.5"
    return result("e_mastery", score, f"{g(score)}: T+X+R mean {mean:.4f} over "
                  f"{len(measured)} measured rows ({rung})", mean=mean)  # fmt: skip
