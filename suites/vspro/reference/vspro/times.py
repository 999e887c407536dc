"""Instants: strict RFC 3339 parsing, UTC `Z` formatting and Berlin calendar days."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from vspro import TIMEZONE

BERLIN = ZoneInfo(TIMEZONE)
RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def parse_instant(text: object) -> datetime:
    """An aware datetime for an RFC 3339 timestamp with an offset; ValueError otherwise."""
    if not isinstance(text, str) or not RFC3339.fullmatch(text):
        raise ValueError(f"not an RFC 3339 timestamp: {text!r}")
    head, frac, zone = text[:19], "", text[19:]
    if zone.startswith("."):  # keep at most microseconds
        digits = re.match(r"\.(\d+)", zone).group(1)
        frac, zone = "." + digits[:6].ljust(6, "0"), zone[1 + len(digits) :]
    zone = "+00:00" if zone == "Z" else zone
    return datetime.fromisoformat(head + frac + zone)


def micros(instant: datetime) -> int:
    """Microseconds since the Unix epoch: an exact, sortable integer for an instant."""
    delta = instant - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_micros(value: int) -> datetime:
    return datetime.fromtimestamp(value // 1_000_000, UTC).replace(microsecond=value % 1_000_000)


def utc_z(instant: datetime) -> str:
    """``2026-03-22T23:00:00Z`` (fractional seconds only when there are some)."""
    instant = instant.astimezone(UTC)
    fmt = "%Y-%m-%dT%H:%M:%S.%fZ" if instant.microsecond else "%Y-%m-%dT%H:%M:%SZ"
    return instant.strftime(fmt)


def berlin_day(instant: datetime) -> str:
    """The Europe/Berlin calendar date of an instant (DST-correct), as ``YYYY-MM-DD``."""
    return instant.astimezone(BERLIN).date().isoformat()


def now_z() -> str:
    return utc_z(datetime.now(UTC))
