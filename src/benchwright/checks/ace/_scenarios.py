"""The black-box scenarios F1-F5 and F7-F9, each on its own fresh account.

A scenario returns its PASS detail or raises `Finding` with the FAIL detail. The
waits F2 and F8 need are real sleeps (the server's clock must move); every instant
compared is one the server wrote.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from decimal import Decimal

from benchwright.checks.ace._exchange import Finding, Recorder
from benchwright.checks.ace._trades import (
    balance,
    deposit_into,
    expect_equal,
    holdings,
    instant,
    open_account,
    order,
    positions,
    shifted,
)

F2_GAP_S = 1.5
F8_GAP_S = 1.2

Scenario = Callable[[Recorder], str]


def f1_round_trip(api: Recorder) -> str:
    account = open_account(api, "1000.00")
    start, start_held = balance(api, account), holdings(api, account)
    expect_equal("F1 balance after depositing 1000.00", start, "1000.00")
    order(api, account, "BUY", "TSLA", 2, "250.00").expect(201)
    expect_equal("F1 balance after buying 2 TSLA @ 250.00", balance(api, account), "500.00")
    bought = {**start_held, "TSLA": start_held.get("TSLA", Decimal(0)) + 2}
    expect_equal("F1 holdings after the buy", holdings(api, account), bought)
    order(api, account, "SELL", "TSLA", 2, "250.00").expect(201)
    expect_equal("F1 balance after selling the 2 back", balance(api, account), start)
    expect_equal("F1 holdings after selling the 2 back", holdings(api, account), start_held)
    return "buy 2 TSLA @ 250.00 took 1000.00 to 500.00; the sell restored balance and holdings"


def f2_point_in_time(api: Recorder) -> str:
    account = open_account(api, "1000.00")
    buy = order(api, account, "BUY", "AAPL", 5, "10.00").expect(201)
    time.sleep(F2_GAP_S)
    sell = order(api, account, "SELL", "AAPL", 5, "10.00").expect(201)
    after_buy = shifted(instant(buy, "executedAt"), 1)
    after_sell = shifted(instant(sell, "executedAt"), 1)
    held = holdings(api, account, after_buy).get("AAPL", Decimal(0))
    expect_equal(f"F2 AAPL held as of {after_buy} (just after the buy)", held, Decimal(5))
    held = holdings(api, account, after_sell).get("AAPL", Decimal(0))
    expect_equal(f"F2 AAPL held as of {after_sell} (just after the sell)", held, Decimal(0))
    return "asOf just after the buy shows 5 AAPL, just after the sell 0"


def f3_refusals(api: Recorder) -> str:
    account = open_account(api, "100.00")
    before = balance(api, account)
    order(api, account, "BUY", "AAPL", 1_000_000, "10.00").expect(422)
    order(api, account, "SELL", "TSLA", 1, "250.00").expect(422)
    expect_equal("F3 balance after two refused orders", balance(api, account), before)
    return f"BUY beyond funds and SELL without holdings both 422; balance still {before!r}"


def f4_cancel_filled(api: Recorder) -> str:
    account = open_account(api, "100.00")
    order_id = str(order(api, account, "BUY", "AAPL", 1, "10.00").expect(201).field("orderId"))
    api.call("POST", "/orders/{orderId}/cancel", orderId=order_id).expect(409)
    status = api.call("GET", "/orders/{orderId}", orderId=order_id).expect(200).field("status")
    expect_equal("F4 order status after the refused cancel", status, "FILLED")
    return "cancelling a filled order answered 409 and it still reads FILLED"


def f5_no_float(api: Recorder) -> str:
    account = open_account(api)
    deposit_into(api, account, "0.10")
    deposit_into(api, account, "0.20")
    expect_equal("F5 balance after depositing 0.10 then 0.20", balance(api, account), "0.30")
    return "0.10 + 0.20 reads back as the string '0.30'"


ROUNDINGS = {("0.00", "0.02"): "HALF_EVEN", ("0.01", "0.02"): "HALF_UP",
             ("0.00", "0.01"): "truncation"}  # fmt: skip


def f7_half_even(api: Recorder) -> str:
    seen = []
    for amount in ("0.005", "0.015"):
        account = open_account(api)
        deposit_into(api, account, amount)
        seen.append(balance(api, account))
    pair = (seen[0], seen[1])
    if pair != ("0.00", "0.02"):
        looks = ROUNDINGS.get(pair, "no known rule")
        raise Finding(f"F7 deposits 0.005/0.015 read back {pair}, expected ('0.00', '0.02') "
                      f"(HALF_EVEN); that is {looks}")  # fmt: skip
    return "0.005 reads back '0.00' and 0.015 '0.02' (HALF_EVEN)"


def f8_exclusive_as_of(api: Recorder) -> str:
    account = open_account(api, "1000.00")
    order(api, account, "BUY", "AAPL", 1, "10.00").expect(201)
    time.sleep(F8_GAP_S)
    second = order(api, account, "BUY", "AAPL", 2, "10.00").expect(201)
    as_of = str(second.field("executedAt"))
    answer = api.call("GET", "/accounts/{accountId}/holdings", query={"asOf": as_of},
                      accountId=account).expect(200)  # fmt: skip
    held = positions(answer).get("AAPL", Decimal(0))
    if held != 1:
        extra = " (the order executed exactly at asOf was counted)" if held == 3 else ""
        raise Finding(f"F8 AAPL held as of the second buy's executedAt {as_of}: "
                      f"expected 1, got {held}{extra}")  # fmt: skip
    applied = str(answer.field("asOfApplied"))
    gap = abs((instant(answer, "asOfApplied") - instant(second, "executedAt")).total_seconds())
    if not applied.endswith("Z") or gap >= 0.001:
        raise Finding(f"F8 asOfApplied {applied!r} does not echo {as_of!r} to the ms with a Z")
    return f"asOf={as_of} excludes the order executed at it; asOfApplied echoes it"


def f9_idempotent(api: Recorder) -> str:
    account = open_account(api, "1000.00")
    key = f"ace-f9-{uuid.uuid4()}"
    first = order(api, account, "BUY", "AAPL", 2, "10.00", key=key).expect(201)
    expect_equal("F9 balance after the first call", balance(api, account), "980.00")
    repeat = order(api, account, "BUY", "AAPL", 2, "10.00", key=key).expect(200)
    expect_equal("F9 orderId of the repeat", repeat.field("orderId"), first.field("orderId"))
    expect_equal("F9 balance after the repeat", balance(api, account), "980.00")
    expect_equal("F9 holdings after the repeat", holdings(api, account), {"AAPL": Decimal(2)})
    return "the repeat answered 200 with the same orderId and executed nothing"


SCENARIOS: dict[str, Scenario] = {
    "F1": f1_round_trip,
    "F2": f2_point_in_time,
    "F3": f3_refusals,
    "F4": f4_cancel_filled,
    "F5": f5_no_float,
    "F7": f7_half_even,
    "F8": f8_exclusive_as_of,
    "F9": f9_idempotent,
}
