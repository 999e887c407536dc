"""Accounts, orders and holdings in memory; every rule of the contract's "Behaviour" section.

The API's handlers are coroutines that never await while they touch the ledger, so
each call runs to completion on the event loop before the next begins: no lock needed.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from trading.money import cents, now_ms

IDEMPOTENCY_WINDOW_S = 60.0


class Refused(Exception):
    """A request the state forbids; ``status`` is the HTTP status the contract gives it."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Account:
    account_id: str
    currency: str
    created_at: datetime
    balance: Decimal = Decimal("0.00")
    positions: dict[str, Decimal] = field(default_factory=dict)
    """Current holdings, moved by every fill; the asOf replay never reads them."""


@dataclass(frozen=True)
class OrderRequest:
    account_id: str
    symbol: str
    side: str
    quantity: Decimal
    limit_price: Decimal


@dataclass
class Order:
    order_id: str
    request: OrderRequest
    status: str
    executed_at: datetime


@dataclass
class Ledger:
    accounts: dict[str, Account] = field(default_factory=dict)
    orders: dict[str, Order] = field(default_factory=dict)
    keys: dict[str, tuple[str, float]] = field(default_factory=dict)
    """Idempotency-Key -> (orderId, monotonic second it was first used)."""

    def open(self, currency: str) -> Account:
        account = Account(str(uuid.uuid4()), currency, now_ms())
        self.accounts[account.account_id] = account
        return account

    def account(self, account_id: str) -> Account:
        if account_id not in self.accounts:
            raise Refused(404, f"no account {account_id}")
        return self.accounts[account_id]

    def order(self, order_id: str) -> Order:
        if order_id not in self.orders:
            raise Refused(404, f"no order {order_id}")
        return self.orders[order_id]

    def deposit(self, account_id: str, amount: Decimal) -> Account:
        account = self.account(account_id)
        account.balance += cents(amount)
        return account

    def place(self, request: OrderRequest, key: str | None) -> tuple[Order, bool]:
        """The filled order and whether this call executed it (False: a remembered key)."""
        prior = self._remembered(key)
        if prior is not None:
            return prior, False
        account = self.account(request.account_id)
        cost = cents(request.quantity * request.limit_price)
        held = account.positions.get(request.symbol, Decimal(0))
        if request.side == "BUY":
            if cost > account.balance:
                raise Refused(422, f"insufficient funds: cost {cost}, available {account.balance}")
            account.balance -= cost
            account.positions[request.symbol] = held + request.quantity
        else:
            if request.quantity > held:
                raise Refused(422, f"insufficient holdings: {request.symbol} held {held}")
            account.balance += cost
            account.positions[request.symbol] = held - request.quantity
        order = Order(str(uuid.uuid4()), request, "FILLED", now_ms())
        self.orders[order.order_id] = order
        if key is not None:
            self.keys[key] = (order.order_id, time.monotonic())
        return order, True

    def cancel(self, order_id: str) -> Order:
        order = self.order(order_id)
        if order.status != "NEW":
            raise Refused(409, f"order {order_id} is {order.status}: only a NEW order cancels")
        order.status = "CANCELLED"
        return order

    def holdings_at(self, account_id: str, as_of: datetime) -> dict[str, Decimal]:
        """Replay the account's fills executed strictly before ``as_of``."""
        self.account(account_id)
        totals: dict[str, Decimal] = {}
        for order in self.orders.values():
            request = order.request
            if request.account_id != account_id or order.status != "FILLED":
                continue
            if order.executed_at < as_of:
                signed = request.quantity if request.side == "BUY" else -request.quantity
                totals[request.symbol] = totals.get(request.symbol, Decimal(0)) + signed
        return totals

    def _remembered(self, key: str | None) -> Order | None:
        if key is None or key not in self.keys:
            return None
        order_id, first_used = self.keys[key]
        if time.monotonic() - first_used >= IDEMPOTENCY_WINDOW_S:
            del self.keys[key]
            return None
        return self.orders[order_id]
