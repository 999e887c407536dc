"""Pinned thresholds: calibration numbers a scorer trusts only when their hash matches.

A thresholds file holds what calibration fits (gammas, k_P, the critical floor m,
latency rungs, count floors) and, once fitted, the evidence of the fit. A file that
*claims* ``calibrated: true`` must hash to the sha256 pinned in the scorer config (or
given with ``--thresholds-sha256``), or the scorer refuses to produce any number: a
tampered or stale calibration would otherwise move every score silently. An
uncalibrated file is used as is, and every verdict says so.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from pydantic import ConfigDict, Field, field_validator

from benchwright.errors import RefusedError
from benchwright.model import StrictInput
from benchwright.scoring.config import GAMMA_CAP


class LatencyRung(StrictInput):
    model_config = ConfigDict(frozen=True)

    at_most: float = Field(gt=0)
    """Budget of the rung, in the ladder's unit (ms, s, frames...)."""
    score: float = Field(ge=0, le=1)


class HostDescription(StrictInput):
    """The machine a calibration measured on: its figures hold for this host class only."""

    model_config = ConfigDict(frozen=True)

    cpu_model: str
    cpu_count: int = Field(ge=1)
    kernel: str
    python: str
    chromium: str | None = None
    """``chromium --version``, or None when it could not be asked."""


class CalibrationEvidence(StrictInput):
    """What a fit read, so anyone can re-derive the file's numbers from the file alone."""

    model_config = ConfigDict(frozen=True)

    method: str
    """The fit in words (`benchwright.scoring.calibration.METHOD`)."""
    date: str
    host: HostDescription
    reference_tree_sha256: str
    headroom: float = Field(gt=1)
    k_p_max: float = Field(ge=1)
    runs: list[dict[str, float]] = Field(min_length=1)
    """Per grading of the reference: measurement -> figure in its ladder's unit."""
    worst: dict[str, float]
    """Per measurement: the worst figure over the runs (the one the fit used)."""
    notes: list[str] = Field(default_factory=list)
    """What the fit did not fit and why, and measurements close to their printed budget."""


class ThresholdsFile(StrictInput):
    """The calibration-owned numbers of one scorer."""

    model_config = ConfigDict(frozen=True)

    calibrated: bool
    """True only once the calibration fit is frozen; False puts UNCALIBRATED on verdicts."""
    gamma_core: float = Field(1.0, gt=0, le=GAMMA_CAP)
    gamma_hard: float = Field(1.0, gt=0, le=GAMMA_CAP)
    k_P: float = Field(1.0, gt=0)
    """Tightens only the top rung of each latency ladder (top budget / k_P)."""
    m: float | None = Field(None, ge=0, le=1)
    """Critical-factor floor; overrides the scorer config's criticals.m when given."""
    ladders: dict[str, list[LatencyRung]] = Field(default_factory=dict)
    floors: dict[str, list[int]] = Field(default_factory=dict)
    """Higher-is-better count rungs, top first (``e_frames_under_drag: [48, 36, 24, 12]``);
    the check owns each rung's score, the file owns only where the rungs sit."""
    host_bound: dict[str, float] = Field(default_factory=dict)
    """Row -> the reference's worst figure on the calibration host, for an excellence
    rung that host cannot reach (the figure is over the printed top): on gradings pinned
    to this file the row is UNAVAILABLE ``host-bound`` unless it earns the top rung."""
    note: str = ""
    evidence: CalibrationEvidence | None = None
    """How a calibrated file was fitted (absent from the rc defaults)."""

    @field_validator("floors")
    @classmethod
    def _floors_descend(cls, floors: dict[str, list[int]]) -> dict[str, list[int]]:
        for name, rungs in floors.items():
            if not rungs or rungs[-1] < 1 or any(a <= b for a, b in pairwise(rungs)):
                raise ValueError(f"{name}: floors must be positive and strictly decreasing")
        return floors


@dataclass(frozen=True, slots=True)
class PinnedThresholds:
    """A thresholds file that passed its pin check, with both hashes for provenance."""

    values: ThresholdsFile
    sha256: str
    pin: str
    source: str = ""
    """The file, for provenance (``--thresholds`` may point anywhere)."""

    @property
    def matches_pin(self) -> bool:
        return self.sha256 == self.pin


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class ThresholdsPin:
    """A thresholds file and the sha256 it must have, given for one invocation
    (``--thresholds FILE --thresholds-sha256 HEX``) instead of the scorer config's block."""

    path: Path
    sha256: str


def pin_thresholds(
    values: ThresholdsFile, data: bytes, pin: str, source: str, *, binding: bool = False
) -> PinnedThresholds:
    """Accept ``values`` (parsed from ``data``) or refuse when a calibrated claim is unpinned.

    Args:
        binding: the pin was given for this file on the command line, so it binds
            whatever the file claims (an uncalibrated file must match it too).

    Raises:
        RefusedError: ``calibrated: true`` (or ``binding``) and the sha256 of ``data``
            differs from ``pin``.
    """
    actual = sha256_hex(data)
    if actual != pin and (binding or values.calibrated):
        claim = "claims calibrated: true" if values.calibrated else "was pinned"
        raise RefusedError(
            f"{source}: {claim} but its sha256 is {actual}, "
            f"not the pinned {pin}; refusing to score with unpinned calibration"
        )
    return PinnedThresholds(values, actual, pin, source)
