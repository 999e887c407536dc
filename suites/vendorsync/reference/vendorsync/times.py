"""Instants, not strings: the vendor writes each ``created_at`` in its own UTC offset."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def parse_instant(value: str) -> datetime:
    """An aware datetime for an RFC 3339 string (``Z`` or a numeric offset)."""
    parsed = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    if parsed.tzinfo is None:
        raise ValueError(f"timestamp without an offset: {value!r}")
    return parsed


def epoch_micros(value: str) -> int:
    """The instant as integer microseconds since the epoch: an exact, sortable key."""
    return (parse_instant(value) - EPOCH) // timedelta(microseconds=1)


def from_micros(micros: int) -> str:
    """RFC 3339 in UTC with a ``Z`` for an `epoch_micros` key."""
    instant = EPOCH + timedelta(microseconds=micros)
    spec = "microseconds" if instant.microsecond else "seconds"
    return instant.isoformat(timespec=spec).replace("+00:00", "Z")


def now_utc() -> str:
    """The current moment as RFC 3339 UTC, to the second."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
