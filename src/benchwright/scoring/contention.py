"""A timing row measured on a contended host: what it may still prove.

Contention can only slow an app down, so a timing figure taken while other processes
competed for the CPU is a *bound*: the app is at least that fast. A row whose timing part
earned the top rung anyway stands (a faster host would not score it lower). A row whose
timing part fell short proves nothing about the app -- the host may have cost it the
rung -- so it becomes UNAVAILABLE with the host's state as the reason, never a lower
score (DESIGN principle 9). A row whose loss came from elsewhere (a wrong total, an empty
frame loop, no timing part at all) stands as measured: contention did not decide it.

Checks mark their timing part with the evidence key ``timing_score`` (the rung the timed
figure earned, in [0, 1]); a row without it was not decided by a timing figure. A row may
also say what it would score with its timing part at the top rung (``score_at_top_timing``):
when that is its measured score, its other parts decided it (a console error caps
j_first_use at 0.6 whatever the paint time), and it stands on a contended host too, since
a quiet host could only have raised the timing part.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol

from benchwright.model import CheckResult, Status

TIMING_SCORE = "timing_score"
SCORE_AT_TOP = "score_at_top_timing"
HOST_CONTENDED = "host contended: "
"""How the detail of a row this rule made UNAVAILABLE begins."""
HOST_BOUND = "host-bound: "
"""How the detail begins of a row whose top rung the calibration host could not reach
(`ThresholdsFile.host_bound`): UNAVAILABLE, like a contended one, never a lower score."""
TOP = 1.0 - 1e-9


class HostWindowState(Protocol):
    """The host across a measurement (`benchwright.probes.host.HostState`)."""

    @property
    def contended(self) -> bool: ...

    @property
    def summary(self) -> str: ...

    def as_evidence(self) -> dict[str, Any]: ...


def judge_timed(row: CheckResult, host: HostWindowState | None) -> CheckResult:
    """``row`` with the host's state in its evidence, UNAVAILABLE when a contended host
    may have cost its timing part the top rung."""
    if host is None or row.status not in (Status.PASS, Status.FAIL):
        return row
    evidence = {**row.evidence, "host": host.as_evidence()}
    timing = row.evidence.get(TIMING_SCORE)
    if not host.contended or not isinstance(timing, int | float):
        return replace(row, evidence=evidence)
    if timing >= TOP:
        detail = f"{row.detail} [top rung earned on a contended host: {host.summary}]"
        return replace(row, detail=detail, evidence=evidence)
    at_top = row.evidence.get(SCORE_AT_TOP)
    if isinstance(at_top, int | float) and at_top <= row.score + 1e-9:
        detail = (f"{row.detail} [decided by its other parts: the top timing rung scores the "
                  f"same; host contended: {host.summary}]")  # fmt: skip
        return replace(row, detail=detail, evidence=evidence)
    return CheckResult(
        row.check_id,
        Status.UNAVAILABLE,
        0.0,
        f"{HOST_CONTENDED}{host.summary}; the timing part measured {timing:g} of the top "
        f"rung, which proves nothing about the app (as measured: {row.detail})",
        evidence | {"contended_score": row.score},
        row.duration_s,
    )


def host_bound(row: CheckResult, reference_worst: float, unit: str) -> CheckResult:
    """``row`` on a host whose calibration found its top rung out of reach (the frozen
    reference's own worst figure there, ``reference_worst``, is over it): the top rung
    stands, anything less is UNAVAILABLE (this host cannot show the difference between an
    excellent app and a slower one), naming the reference's figure and the way out."""
    timing = row.evidence.get(TIMING_SCORE)
    if row.status not in (Status.PASS, Status.FAIL) or not isinstance(timing, int | float):
        return row
    if timing >= TOP:
        return row
    return CheckResult(
        row.check_id,
        Status.UNAVAILABLE,
        0.0,
        f"{HOST_BOUND}the frozen reference's worst here is {reference_worst:g} {unit}, over "
        f"the top rung: this host cannot show this rung; calibrate and grade on a faster "
        f"host to decide it (as measured: {row.detail})",
        {**row.evidence, "contended_score": row.score, "reference_worst": reference_worst},
        row.duration_s,
    )
