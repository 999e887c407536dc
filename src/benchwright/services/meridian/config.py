"""Contract constants and the mock's timing knobs (defaults are the contract's values)."""

from __future__ import annotations

from dataclasses import dataclass

from benchwright.services.vendors import MERIDIAN

LIST_PATH = "/v2/payments"
API_KEY = MERIDIAN.api_key
AMOUNT_LIMIT_MINOR = 5_000_000
BATCH_MAX_ITEMS = 20
CURRENCIES = ("EUR", "USD", "JPY", "KWD")
CONFLICT_MODES = ("off", "once", "always")
FORGED_SECRET = "whsec_not_the_secret"


@dataclass(frozen=True)
class Timing:
    """Every delay the mock imposes or grades; tests shrink them, graders keep the defaults.

    Ledger tolerances follow the methodology: a client that waits the advertised
    ``Retry-After`` may arrive 0.3 s early (seconds form) or 1.3 s early (HTTP-date,
    whose wire granularity is one second), never less than ``floor_secs`` later.
    """

    stall_secs: float = 12.0
    """How long the armed stall holds the end-reaching page (clients time out at 10 s)."""
    retry_after_secs: float = 2
    """``Retry-After`` of the seconds-form 429, and the lead of the HTTP-date form."""
    seconds_tolerance: float = 0.3
    date_tolerance: float = 1.3
    floor_secs: float = 0.1
    ledger_wait_secs: float = 15.0
    """How long `trap_results()` waits for an in-flight stall to resolve."""
    handshake_timeout: float = 5.0
    delivery_timeout: float = 5.0
    documented_client_timeout: float = 10.0

    def retry_header(self) -> str:
        """The seconds-form header value (an integer at the contract's defaults)."""
        value = self.retry_after_secs
        return str(int(value)) if float(value).is_integer() else f"{value:g}"
