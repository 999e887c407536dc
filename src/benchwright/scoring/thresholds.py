"""Pinned thresholds: calibration numbers a scorer trusts only when their hash matches.

A thresholds file holds what calibration fits (gammas, k_P, the critical floor m,
latency rungs). A file that *claims* ``calibrated: true`` must hash to the sha256
pinned in the scorer config, or the scorer refuses to produce any number: a
tampered or stale calibration would otherwise move every score silently. An
uncalibrated file is used as is, and every verdict says so.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from pydantic import ConfigDict, Field

from benchwright.errors import RefusedError
from benchwright.model import StrictInput
from benchwright.scoring.config import GAMMA_CAP


class LatencyRung(StrictInput):
    model_config = ConfigDict(frozen=True)

    at_most: float = Field(gt=0)
    """Budget of the rung, in the ladder's unit (ms, s, frames...)."""
    score: float = Field(ge=0, le=1)


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
    note: str = ""


@dataclass(frozen=True, slots=True)
class PinnedThresholds:
    """A thresholds file that passed its pin check, with both hashes for provenance."""

    values: ThresholdsFile
    sha256: str
    pin: str

    @property
    def matches_pin(self) -> bool:
        return self.sha256 == self.pin


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def pin_thresholds(values: ThresholdsFile, data: bytes, pin: str, source: str) -> PinnedThresholds:
    """Accept ``values`` (parsed from ``data``) or refuse when a calibrated claim is unpinned.

    Raises:
        RefusedError: ``calibrated: true`` and the sha256 of ``data`` differs from ``pin``.
    """
    actual = sha256_hex(data)
    if values.calibrated and actual != pin:
        raise RefusedError(
            f"{source}: claims calibrated: true but its sha256 is {actual}, "
            f"not the pinned {pin}; refusing to score with unpinned calibration"
        )
    return PinnedThresholds(values, actual, pin)
