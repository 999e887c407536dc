"""The contract's calls as small steps the scenarios compose: open, deposit, trade, read back.

Every step checks the status the contract gives the call and raises `Finding` with
the call and what came back otherwise. Instants are taken from the server's answers
and shifted with `shifted`, never from the oracle's clock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal, InvalidOperation

from benchwright.checks.ace._exchange import Exchange, Finding, Recorder

ACCOUNT = "/accounts/{accountId}"


def open_account(api: Recorder, deposit: str | None = None) -> str:
    """A fresh account's id, funded with ``deposit`` when given."""
    account = str(api.call("POST", "/accounts", body={"currency": "USD"}).expect(201).field(
        "accountId"))  # fmt: skip
    if deposit is not None:
        deposit_into(api, account, deposit)
    return account


def deposit_into(api: Recorder, account: str, amount: str) -> Exchange:
    body = {"amount": amount}
    return api.call("POST", ACCOUNT + "/deposits", body=body, accountId=account).expect(200)


def balance(api: Recorder, account: str) -> str:
    """``availableBalance`` exactly as the server wrote it."""
    return api.call("GET", ACCOUNT, accountId=account).expect(200).field("availableBalance")


def order(
    api: Recorder, account: str, side: str, symbol: str, quantity: int, price: str,
    key: str | None = None,
) -> Exchange:  # fmt: skip
    """``POST /orders`` whatever its status (the caller expects one)."""
    body = {"accountId": account, "symbol": symbol, "side": side,
            "quantity": str(quantity), "limitPrice": price}  # fmt: skip
    headers = {"Idempotency-Key": key} if key is not None else None
    return api.call("POST", "/orders", body=body, headers=headers)


def holdings(api: Recorder, account: str, as_of: str | None = None) -> dict[str, Decimal]:
    """Symbol -> quantity, zero positions dropped (absent and ``"0"`` mean the same)."""
    query = {"asOf": as_of} if as_of is not None else None
    answer = api.call("GET", ACCOUNT + "/holdings", query=query, accountId=account).expect(200)
    return positions(answer)


def positions(answer: Exchange) -> dict[str, Decimal]:
    raw = answer.field("holdings")
    if not isinstance(raw, dict):
        raise Finding(f"{answer.call}: holdings is {raw!r}, not an object")
    found = {}
    for symbol, quantity in raw.items():
        try:
            value = Decimal(str(quantity))
        except InvalidOperation:
            raise Finding(f"{answer.call}: {symbol} quantity {quantity!r} is no number") from None
        if value != 0:
            found[symbol] = value
    return found


def instant(answer: Exchange, name: str) -> datetime:
    """A timestamp field of ``answer`` as an aware datetime."""
    raw = answer.field(name)
    try:
        moment = datetime.fromisoformat(str(raw))
    except ValueError:
        raise Finding(f"{answer.call}: {name} {raw!r} is not an ISO-8601 instant") from None
    if moment.tzinfo is None:
        raise Finding(f"{answer.call}: {name} {raw!r} has no zone")
    return moment


def shifted(moment: datetime, ms: int) -> str:
    """``moment`` plus ``ms`` milliseconds in UTC, written as the contract writes instants
    (sub-millisecond digits truncated, which still leaves it after ``moment`` for ms >= 1)."""
    utc = (moment + timedelta(milliseconds=ms)).astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def expect_equal(what: str, seen: object, wanted: object) -> None:
    """A Finding naming ``what`` unless ``seen == wanted`` (numbers compare by value)."""
    if seen != wanted:
        raise Finding(f"{what}: expected {_plain(wanted)}, got {_plain(seen)}")


def _plain(value: object) -> str:
    """Strings quoted (exact text matters), quantities bare, maps as ``{AAPL: 5}``."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_plain(v)}" for k, v in value.items()) + "}"
    return repr(value)
