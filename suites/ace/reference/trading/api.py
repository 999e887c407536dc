"""The HTTP face of the ledger: parse, call one ledger method, render the contract's shapes."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from decimal import Decimal
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from trading.ledger import Account, Ledger, Order, OrderRequest, Refused
from trading.money import BadValue, decimal_field, instant, now_ms, stamp

Handler = Callable[[Request], Awaitable[JSONResponse]]


def _account(account: Account) -> dict[str, Any]:
    return {
        "accountId": account.account_id,
        "currency": account.currency,
        "availableBalance": str(account.balance),
        "createdAt": stamp(account.created_at),
    }


def _order(order: Order) -> dict[str, Any]:
    request = order.request
    return {
        "orderId": order.order_id,
        "accountId": request.account_id,
        "symbol": request.symbol,
        "side": request.side,
        "quantity": str(request.quantity),
        "limitPrice": str(request.limit_price),
        "status": order.status,
        "executedAt": stamp(order.executed_at),
    }


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if not raw:
        return {}
    try:
        body = json.loads(raw)
    except ValueError:
        raise BadValue("the body is not JSON") from None
    if not isinstance(body, dict):
        raise BadValue("the body must be a JSON object")
    return body


def _order_request(body: dict[str, Any]) -> OrderRequest:
    side, symbol, account_id = body.get("side"), body.get("symbol"), body.get("accountId")
    if side not in ("BUY", "SELL"):
        raise BadValue(f"side must be BUY or SELL, got {side!r}")
    if not isinstance(symbol, str) or not symbol:
        raise BadValue("symbol must be a non-empty string")
    if not isinstance(account_id, str):
        raise BadValue("accountId must be a string")
    quantity = decimal_field(body, "quantity")
    if quantity != quantity.to_integral_value():
        raise BadValue(f"quantity must be a whole number, got {body['quantity']!r}")
    return OrderRequest(account_id, symbol, side, quantity, decimal_field(body, "limitPrice"))


def build_app() -> Starlette:
    """A fresh service with an empty ledger."""
    ledger = Ledger()

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"status": "UP"})

    async def open_account(request: Request) -> JSONResponse:
        currency = (await _body(request)).get("currency", "USD")
        if not isinstance(currency, str) or len(currency) != 3:
            raise BadValue(f"currency must be a 3-letter code, got {currency!r}")
        return JSONResponse(_account(ledger.open(currency)), status_code=201)

    async def get_account(request: Request) -> JSONResponse:
        return JSONResponse(_account(ledger.account(request.path_params["account_id"])))

    async def deposit(request: Request) -> JSONResponse:
        amount = decimal_field(await _body(request), "amount")
        return JSONResponse(_account(ledger.deposit(request.path_params["account_id"], amount)))

    async def holdings(request: Request) -> JSONResponse:
        raw = request.query_params.get("asOf")
        as_of = now_ms() if raw is None else instant(raw)
        account_id = request.path_params["account_id"]
        if raw is None:
            positions = dict(ledger.account(account_id).positions)
        else:
            positions = ledger.holdings_at(account_id, as_of)
        shown = {symbol: str(qty) for symbol, qty in positions.items() if qty != Decimal(0)}
        body = {"accountId": account_id, "asOfApplied": stamp(as_of), "holdings": shown}
        return JSONResponse(body)

    async def place_order(request: Request) -> JSONResponse:
        order_request = _order_request(await _body(request))
        order, executed = ledger.place(order_request, request.headers.get("Idempotency-Key"))
        return JSONResponse(_order(order), status_code=201 if executed else 200)

    async def get_order(request: Request) -> JSONResponse:
        return JSONResponse(_order(ledger.order(request.path_params["order_id"])))

    async def cancel(request: Request) -> JSONResponse:
        return JSONResponse(_order(ledger.cancel(request.path_params["order_id"])))

    def guarded(handler: Handler) -> Handler:
        async def call(request: Request) -> JSONResponse:
            try:
                return await handler(request)
            except BadValue as exc:
                return JSONResponse({"error": str(exc)}, status_code=400)
            except Refused as exc:
                return JSONResponse({"error": str(exc)}, status_code=exc.status)

        return call

    routes = [
        ("/health", health, "GET"),
        ("/accounts", open_account, "POST"),
        ("/accounts/{account_id}", get_account, "GET"),
        ("/accounts/{account_id}/deposits", deposit, "POST"),
        ("/accounts/{account_id}/holdings", holdings, "GET"),
        ("/orders", place_order, "POST"),
        ("/orders/{order_id}", get_order, "GET"),
        ("/orders/{order_id}/cancel", cancel, "POST"),
    ]
    return Starlette(
        routes=[Route(path, guarded(fn), methods=[method]) for path, fn, method in routes]
    )
