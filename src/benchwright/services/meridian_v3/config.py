"""Meridian API v3 constants (frozen by the contract) and the mock's timing knobs."""

from __future__ import annotations

from dataclasses import dataclass

from benchwright.services.vendors import MERIDIAN

API_KEY = MERIDIAN.api_key
"""The key the mock accepts unless told another (``Authorization: Bearer <key>``)."""
PREFIX = "/v3"
LIST_PATH = f"{PREFIX}/payments"
REVERSALS_PATH = f"{PREFIX}/reversals"
WEBHOOKS_PATH = f"{PREFIX}/webhooks"
DOCS_PATH = f"{PREFIX}/docs"
PAGE_SIZE = 64
"""Server-fixed: v3 has no ``limit`` (one sent is ignored and traced)."""
TOTAL = 12_288
"""Payments at load: 192 pages of 64."""
PAGES = TOTAL // PAGE_SIZE
DAYS = 96
"""Consecutive Europe/Berlin calendar days the fixture spans."""
MAX_PER_DAY = 180
EDGE_DAYS = 7
"""The DST transition is at least this many days from either end of the span."""
STATUSES = ("settled", "pending", "refunded", "failed")
EXPONENTS = {"EUR": 2, "USD": 2, "JPY": 0, "KWD": 3}
CURRENCIES = tuple(EXPONENTS)
NOTE_MAX = 280


@dataclass(frozen=True)
class V3Timing:
    """Every delay the v3 mock imposes or grades. Graders keep the defaults (the
    contract's values); tests shrink them so a run of the suite stays short."""

    retry_after_secs: float = 2.0
    """``Retry-After`` of the scheduled 500 (delta-seconds on the wire, rounded up)."""
    retry_tolerance_secs: float = 0.3
    """How early a retry may land and still count as having waited (clock granularity)."""
    create_hold_secs: float = 6.0
    """How long an armed create is held open AFTER committing (the A2 kill window)."""
    delivery_timeout: float = 10.0
    """Per delivery attempt: the docs tell receivers deliveries time out at 10 s."""
    delivery_attempts: int = 4
    """A genuine delivery that gets no 2xx is retried up to this many attempts in all."""
    delivery_backoff_secs: float = 0.5
    handshake_timeout: float = 10.0
    barrier_timeout: float = 30.0
    """The longest a list response waits on its race barrier (deliveries it must follow)."""
    down_poll_secs: float = 0.05
    """How often paused deliveries look whether the vendor is back up."""
