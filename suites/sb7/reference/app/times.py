"""Instants, not strings: RFC3339 parsing, the Berlin calendar day, UTC rendering.

The vendor's ``created_at`` values carry any UTC offset, so ordering and bucketing go
through the instant. Microseconds since the epoch are stored beside the raw string:
an integer column sorts exactly and indexes cheaply.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

BERLIN = ZoneInfo("Europe/Berlin")
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def parse(value: str) -> datetime:
    """An RFC3339 timestamp (``Z`` or an offset) as an aware datetime."""
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError(f"timestamp without an offset: {value!r}")
    return moment


def epoch_us(value: str) -> int:
    """Microseconds since the epoch of the instant ``value`` names."""
    return (parse(value) - EPOCH) // timedelta(microseconds=1)


def berlin_day(value: str) -> str:
    """The Europe/Berlin calendar date (``YYYY-MM-DD``) of the instant ``value`` names."""
    return parse(value).astimezone(BERLIN).date().isoformat()


def utc_text(moment: datetime) -> str:
    """RFC3339 in UTC with a ``Z`` and whole seconds (milliseconds when present)."""
    moment = moment.astimezone(UTC)
    if moment.microsecond:
        return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def utc_from_us(micros: int) -> str:
    """`utc_text` of an epoch-microsecond instant."""
    return utc_text(EPOCH + timedelta(microseconds=micros))


def now_utc() -> str:
    """The current instant, RFC3339 UTC."""
    return utc_text(datetime.now(UTC))


def days_between(first: str, last: str) -> list[str]:
    """Every calendar day from ``first`` to ``last`` inclusive, ascending, as ISO dates."""
    start, end = date.fromisoformat(first), date.fromisoformat(last)
    return [date.fromordinal(n).isoformat() for n in range(start.toordinal(), end.toordinal() + 1)]
