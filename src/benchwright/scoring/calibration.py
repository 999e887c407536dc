"""The calibration fit: N gradings of the frozen reference on one host -> a thresholds file.

Pure: the caller grades, describes the host, supplies the date and writes the bytes.
The fit reads one figure per calibration-owned check per run (a `Measurement` says
which evidence key, in which unit) and keeps the WORST figure of each over the runs:
a bar the reference clears on its worst run on this host is one it clears with
certainty, and the file says how much room it had. `METHOD` is the method in words;
every number the fit writes can be re-derived from the file's own ``evidence``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from benchwright.errors import RefusedError
from benchwright.model import CheckResult, Status
from benchwright.scoring.contention import HOST_BOUND
from benchwright.scoring.rungs import Rung
from benchwright.scoring.thresholds import (
    CalibrationEvidence,
    HostDescription,
    LatencyRung,
    ThresholdsFile,
)

HEADROOM = 1.25
"""The reference's worst figure must fit its bar this many times over. 1.25 turns the
reference's 60 drag frames into the 48/36/24/12 floors of the public frozen sb-6 file."""
K_P_MAX = 1.5
"""k_P takes at most a third off a top budget. The reference's own figures moved 5.8x
between two gradings minutes apart on a shared 2-core host (first frame 464 vs 2710 ms),
so a deeper cut fitted on a good run would cost the reference its own full marks on the
next; the public frozen sb-6 file kept k_P at 1."""
FLOOR_SHARES = (1.0, 0.75, 0.5, 0.25)
"""Count floors below the top one, as shares of it (the methodology's quarters)."""
UNFITTED = ("gamma_core", "gamma_hard", "m")
METHOD = (
    f"worst figure per measurement over the runs (max for latencies, min for counts); "
    f"k_P = clamp(floor2(min over k_P-tightened ladders of top budget / (worst x "
    f"{HEADROOM:g})), 1, {K_P_MAX:g}), the printed budgets kept and a reference worse than "
    f"a printed top refused (recorded host-bound where the row's rung may be out of a "
    f"host's reach); spec-kept ladders unchanged, refused when worst x {HEADROOM:g} "
    f"exceeds their top; count floors floor(worst / {HEADROOM:g}) x "
    f"{'/'.join(f'{s:g}' for s in FLOOR_SHARES)}; {', '.join(UNFITTED)} copied (no fit defined)"
)


class Role(StrEnum):
    """What the fit may do with one calibration-owned ladder."""

    TIGHTENED = "tightened"
    """A latency ladder whose top budget k_P divides (P tier, under-load latency)."""
    SPEC = "spec"
    """A latency ladder k_P does not touch: kept as printed (paint, tooltip)."""
    FLOORS = "floors"
    """Higher-is-better count floors set from the reference (drag frames)."""


@dataclass(frozen=True, slots=True)
class Measurement:
    """Where one calibration-owned check's figure is in its row, and how the fit uses it."""

    check: str
    """The row id; also the name of its ladder or floors in the thresholds file."""
    key: str
    """The evidence key holding the figure."""
    role: Role
    scale: float = 1.0
    """Evidence unit -> ladder unit (seconds -> ms: 1000)."""
    may_be_out_of_reach: bool = False
    """An excellence rung a host may be physically too slow for (a software renderer's
    frame is over the budget): a reference worse than the printed top is recorded as
    ``host_bound`` (the row UNAVAILABLE on this host's gradings, never a lower score)
    instead of refusing the whole calibration."""

    def figure(self, row: CheckResult | None) -> float | str:
        """The figure in the ladder's unit, or why this row proves nothing."""
        if row is None:
            return f"{self.check}: no row"
        bound = row.status is Status.UNAVAILABLE and row.detail.startswith(HOST_BOUND)
        if row.status not in (Status.PASS, Status.FAIL) and not bound:  # host-bound: measured
            return f"{self.check} is {row.status.value} ({row.detail})"
        value = row.evidence.get(self.key)
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            return f"{self.check}: evidence {self.key} is {value!r}, not a measured figure"
        return round(value * self.scale, 3)


def run_figures(
    rows: Iterable[CheckResult], measurements: Sequence[Measurement]
) -> tuple[dict[str, float], list[str]]:
    """One run's figures, and every reason a calibration-owned row proves nothing.

    An UNAVAILABLE row (a contended host, an overlap that was not proven), an INFRA
    row or a missing figure is a problem: never fit on an unproven measurement.
    """
    by_id = {r.check_id: r for r in rows}
    figures: dict[str, float] = {}
    problems: list[str] = []
    for m in measurements:
        got = m.figure(by_id.get(m.check))
        if isinstance(got, str):
            problems.append(got)
        else:
            figures[m.check] = got
    return figures, problems


@dataclass(frozen=True, slots=True)
class FitContext:
    """What the fit records but does not compute: where, when and on what it measured."""

    host: HostDescription
    date: str
    reference_tree_sha256: str


def _worst(m: Measurement, runs: Sequence[Mapping[str, float]]) -> float:
    values = [run[m.check] for run in runs]
    return min(values) if m.role is Role.FLOORS else max(values)


def _spread(m: Measurement, runs: Sequence[Mapping[str, float]], top: float) -> str | None:
    """A note when one more run as much worse than the worst as the worst was than the best
    would miss the top rung ``top`` (the runs disagree more than the fit can absorb)."""
    low, high = min(run[m.check] for run in runs), max(run[m.check] for run in runs)
    if low <= 0:
        return None
    spread = high / low
    projected = low / spread if m.role is Role.FLOORS else high * spread
    if (projected >= top) if m.role is Role.FLOORS else (projected <= top):
        return None
    return (
        f"{m.check} varied {spread:.1f}x over the runs ({low:g} to {high:g}): one more run "
        f"that much worse ({projected:.4g}) would miss the {top:g} top rung; calibrate on a "
        "quieter host or with more runs"
    )


@dataclass(slots=True)
class _Fit:
    """The fit's working state while it walks the measurements."""

    ladders: dict[str, list[LatencyRung]]
    floors: dict[str, list[int]]
    k_p_bounds: list[float]
    refusals: list[str]
    notes: list[str]
    host_bound: dict[str, float] = field(default_factory=dict)

    def add_floors(self, check: str, worst: float) -> None:
        top = math.floor(worst / HEADROOM)
        floors = [math.floor(top * share) for share in FLOOR_SHARES]
        if floors[-1] < 1:
            self.refusals.append(
                f"{check}: the reference's worst {worst:g} / {HEADROOM:g} headroom = {top} "
                f"leaves no room for {len(FLOOR_SHARES)} distinct floors"
            )
        else:
            self.floors[check] = floors

    def add_ladder(self, m: Measurement, worst: float, rungs: Sequence[Rung]) -> None:
        self.ladders[m.check] = [LatencyRung(at_most=r.at_most, score=r.score) for r in rungs]
        top, needed = rungs[0].at_most, worst * HEADROOM
        say = f"{m.check}: the reference's worst {worst:g} x {HEADROOM:g} headroom = {needed:g}"
        if m.role is Role.SPEC:
            if needed > top:
                self.refusals.append(f"{say} exceeds the {top:g} top rung")
        elif worst > top and m.may_be_out_of_reach:
            self.host_bound[m.check] = worst
            self.notes.append(
                f"{m.check}: the reference's worst {worst:g} exceeds the printed {top:g} top "
                "rung: out of this host's reach, so the row is UNAVAILABLE (host-bound) on "
                "gradings pinned to this file unless it earns the top rung; the printed "
                "ladder stands"
            )
        elif worst > top:
            self.refusals.append(
                f"{m.check}: the reference's worst {worst:g} exceeds the printed {top:g} top rung"
            )
        else:
            self.k_p_bounds.append(top / needed if needed > 0 else math.inf)
            if needed > top:
                self.notes.append(
                    f"{say} is over the {top:g} top rung: k_P cannot tighten it and the printed "
                    "budget stands; a contended host may cost the reference this rung"
                )

    def top(self, m: Measurement) -> float:
        """The top rung the reference must clear under the fitted numbers."""
        if m.role is Role.FLOORS:
            return self.floors[m.check][0]
        top = self.ladders[m.check][0].at_most
        return top / self.k_p if m.role is Role.TIGHTENED else top

    @property
    def k_p(self) -> float:
        tightest = math.floor(min(self.k_p_bounds, default=1.0) * 100) / 100
        return min(max(tightest, 1.0), K_P_MAX)


def fit(
    runs: Sequence[Mapping[str, float]],
    measurements: Sequence[Measurement],
    base: ThresholdsFile,
    ladders: Mapping[str, Sequence[Rung]],
    context: FitContext,
) -> ThresholdsFile:
    """The calibrated thresholds of ``runs`` (each: measurement -> figure, from `run_figures`).

    Args:
        base: the scorer's current thresholds; what the fit does not own is copied.
        ladders: the printed ladders of the latency measurements (their spec rungs).

    Raises:
        RefusedError: no runs, or the host is too slow to calibrate on (each reason names
            the measurement and its figures).
    """
    if not runs:
        raise RefusedError("calibration needs at least one run of the reference")
    worst = {m.check: _worst(m, runs) for m in measurements}
    unfitted = (f"{', '.join(UNFITTED)} copied from the scorer's thresholds: the suite's "
                "scorer defines no fit for them")  # fmt: skip
    state = _Fit({}, {}, [], [], [unfitted])
    for m in measurements:
        if m.role is Role.FLOORS:
            state.add_floors(m.check, worst[m.check])
        else:
            state.add_ladder(m, worst[m.check], ladders[m.check])
    if state.refusals:
        raise RefusedError("this host is too slow to calibrate on", state.refusals)
    for m in measurements:  # a host-bound row has no top rung the reference must clear
        note = None if m.check in state.host_bound else _spread(m, runs, state.top(m))
        state.notes += [note] if note else []
    evidence = CalibrationEvidence(
        method=METHOD,
        date=context.date,
        host=context.host,
        reference_tree_sha256=context.reference_tree_sha256,
        headroom=HEADROOM,
        k_p_max=K_P_MAX,
        runs=[dict(run) for run in runs],
        worst=worst,
        notes=state.notes,
    )
    fitted = {
        "calibrated": True,
        "k_P": state.k_p,
        "ladders": {**base.ladders, **state.ladders},
        "floors": {**base.floors, **state.floors},
        "host_bound": state.host_bound,
        "note": f"fitted by benchwright calibrate from {len(runs)} grading(s) of the "
        f"reference on {context.host.cpu_model} ({context.date}); see evidence",
        "evidence": evidence,
    }
    return ThresholdsFile.model_validate(base.model_dump() | fitted)


def thresholds_bytes(values: ThresholdsFile) -> bytes:
    """The file's bytes: the same values always give the same bytes (and so the same pin)."""
    return (json.dumps(values.model_dump(mode="json"), indent=2) + "\n").encode()
