"""Decimal strings in, decimal strings out: money never passes through a float."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation

CENT = Decimal("0.01")


class BadValue(ValueError):
    """A request value the contract refuses (400); the message names the field."""


def decimal_field(body: dict, name: str) -> Decimal:
    """``body[name]`` as a positive Decimal; only a JSON string holding a decimal is accepted."""
    raw = body.get(name)
    if not isinstance(raw, str):
        raise BadValue(f"{name} must be a decimal string, got {raw!r}")
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise BadValue(f"{name} must be a decimal string, got {raw!r}") from None
    if not value.is_finite() or value <= 0:
        raise BadValue(f"{name} must be positive, got {raw!r}")
    return value


def cents(value: Decimal) -> Decimal:
    """Rounded half-to-even to 2 dp: the contract's one rounding rule."""
    return value.quantize(CENT, rounding=ROUND_HALF_EVEN)


def now_ms() -> datetime:
    """The server's clock, truncated to the millisecond it is rendered with, so an
    instant a client echoes back compares equal to the one stored."""
    now = datetime.now(UTC)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def instant(raw: str) -> datetime:
    """An ``asOf`` query value as a UTC instant truncated to the millisecond."""
    try:
        parsed = datetime.fromisoformat(raw)
    except ValueError:
        raise BadValue(f"asOf must be an ISO-8601 instant, got {raw!r}") from None
    if parsed.tzinfo is None:
        raise BadValue(f"asOf must carry a zone offset, got {raw!r}")
    parsed = parsed.astimezone(UTC)
    return parsed.replace(microsecond=parsed.microsecond // 1000 * 1000)


def stamp(moment: datetime) -> str:
    """``2026-12-01T16:48:04.123Z``: UTC, three fractional digits, a literal Z."""
    utc = moment.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"
