"""``GET /vN/payments`` (paging, traps, stall, ETag) and ``GET /v2/payments/<id>``."""

from __future__ import annotations

import asyncio
import math
import re
import time
from email.utils import formatdate
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import Response

from benchwright.services.meridian import paging
from benchwright.services.meridian._http import VendorResponse, error, reply
from benchwright.services.meridian.store import public
from benchwright.services.meridian.traps import Trap

if TYPE_CHECKING:
    from benchwright.services.meridian.control import MeridianMock

ID_RE = re.compile(r"[A-Za-z0-9_]+")
_POLL_S = 0.05


async def list_payments(mock: MeridianMock, request: Request, line: dict) -> Response:
    store, p = mock.store, mock.fixture.params
    cursor = line["query"].get("cursor") or None
    with store.lock:
        if store.failing:
            line["reason"] = "failing"
            return error(500, "internal_error")
        trap = store.traps.on_list(cursor is not None)
    if trap is not None:
        return _trapped(mock, trap, line)
    limit = paging.parse_limit(line["query"].get("limit"))
    with store.lock:
        try:
            offset = paging.decode_cursor(cursor, store.visible) if cursor else 0
        except paging.BadCursor:
            return error(400, "bad_cursor")
        page = paging.page(offset, limit, store.visible, p.short_offset, p.short_take)
        stall = store.traps.take_stall(page.last)
        stall_secs = store.traps.stall_secs or mock.timing.stall_secs
        line.update(offset=offset, halfset=store.cap is not None)
    if stall and await _held(mock, request, line, stall_secs):
        line.update(status=0, stall_client_dropped=True)
        return VendorResponse(499)  # never read: the client has gone
    with store.lock:
        tag = paging.etag(store.generation, page.offset, page.take, mock.api.etag_salt)
        rows = store.visible_rows(page.offset, page.take)
    if request.headers.get("if-none-match") == tag:
        return VendorResponse(304, headers={"ETag": tag})
    line.update(returned=len(rows), limit=limit, last=page.last)
    body = {"data": rows, "next_cursor": page.next_cursor, "total": page.visible}
    return reply(body, headers={"ETag": tag})


async def _held(mock: MeridianMock, request: Request, line: dict, secs: float) -> bool:
    """Hold the request ``secs`` seconds; True when the client hung up meanwhile.

    The hold is counted from here until the traced endpoint has written the line (it
    calls ``hold_ended``), so a ledger read after ``wait_for_holds`` always sees it.
    """
    line.update(stall_began_t=line["t"], stall_secs=secs)
    mock.store.hold_started()
    began, dropped = time.monotonic(), False
    try:
        while (left := secs - (time.monotonic() - began)) > 0:
            if await request.is_disconnected():
                dropped = True
                break
            await asyncio.sleep(min(_POLL_S, left))
    finally:
        line["stall_held_secs"] = round(time.monotonic() - began, 3)
    return dropped


def _trapped(mock: MeridianMock, trap: Trap, line: dict) -> Response:
    timing = mock.timing
    if trap is Trap.CURSOR_EXPIRED:
        line["reason"] = "cursor_expired"
        return error(410, "cursor_expired")
    if trap is Trap.RATE_SECONDS:
        header = timing.retry_header()
    else:  # the HTTP-date form, rounded up so an honest client never arrives early
        header = formatdate(math.ceil(time.time() + timing.retry_after_secs), usegmt=True)
    line.update(retry_after=header, form=trap.value, retry_after_secs=timing.retry_after_secs)
    return reply({"error": "rate_limited"}, 429, headers={"Retry-After": header})


async def get_payment(mock: MeridianMock, request: Request, line: dict) -> Response:
    payment_id = request.path_params["payment_id"]
    line["payment_id"] = payment_id
    with mock.store.lock:
        row = mock.store.find(payment_id) if ID_RE.fullmatch(payment_id) else None
        if row is None:
            return error(404, "not_found")
        line["version"] = row["version"]
        return reply(public(row))
