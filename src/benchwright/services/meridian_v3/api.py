"""The v3 routes' handlers: list (with the first walk's schedule), one payment, PATCH,
create, reversals and webhook registration. Each is ``handler(mock, request, line)``,
``line`` being the request's trace line (see `meridian.app.traced`)."""

from __future__ import annotations

import asyncio
import math
import re
import threading
import time
from typing import TYPE_CHECKING

from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from benchwright.services.meridian._http import VendorResponse, error, json_object, reply
from benchwright.services.meridian.webhooks import Registration, send_handshake
from benchwright.services.meridian_v3.config import EXPONENTS, NOTE_MAX, PAGE_SIZE
from benchwright.services.meridian_v3.courier import Job
from benchwright.services.meridian_v3.paging import (
    BadCursor,
    ExpiredCursor,
    decode_cursor,
    encode_cursor,
    page_etag,
)
from benchwright.services.meridian_v3.schedule import WEBHOOK_FIRST
from benchwright.services.meridian_v3.walk import DROP, race_jobs
from benchwright.services.meridian_v3.wire import Dropped

if TYPE_CHECKING:
    from benchwright.services.meridian_v3.control import MeridianV3Mock

ID_RE = re.compile(r"pay_[0-9]{5,}")
COUNTRY_RE = re.compile(r"[A-Z]{2}")
IF_MATCH_RE = re.compile(r'(?:W/)?"?([0-9]+)"?')
_POLL_S = 0.05


async def list_payments(mock: MeridianV3Mock, request: Request, line: dict) -> Response:
    """One page of 64, the first walk's faults and races, ETag and the generation rule."""
    state, walk = mock.state, mock.walk
    cursor = line["query"].get("cursor") or None
    extra = sorted(set(line["query"]) - {"cursor"})
    if extra:
        line["undocumented"] = extra
    barrier = walk.barrier
    if barrier is not None and not barrier.is_set():  # page-first deliveries still going
        held = await run_in_threadpool(barrier.wait, mock.timing.barrier_timeout)
        line["barrier_waited"] = True if held else "timed out"
    with state.lock:
        try:
            offset, bound = (
                decode_cursor(cursor, len(state.order), state.epoch)
                if cursor
                else (0, len(state.order))
            )
        except ExpiredCursor:
            line["reason"] = "cursor_expired"
            return error(410, "cursor_expired")
        except BadCursor:
            line["reason"] = "bad_cursor"
            return error(400, "bad_cursor")
        line.update(offset=offset, page=offset // PAGE_SIZE + 1, bound=bound)
        fault = walk.take_fault()
    if fault == DROP:
        line.update(status=0, fault="drop", first_walk=True)
        return Dropped(mock.gate)
    if fault is not None:
        secs = math.ceil(mock.timing.retry_after_secs)
        line.update(fault="error", retry_after_secs=secs, first_walk=True)
        return reply({"error": "internal_error"}, 500, headers={"Retry-After": str(secs)})
    return await _page(mock, request, line, offset, bound)


async def _page(
    mock: MeridianV3Mock, request: Request, line: dict, offset: int, bound: int
) -> Response:
    state, walk = mock.state, mock.walk
    take = min(PAGE_SIZE, bound - offset)
    presented = request.headers.get("if-none-match")
    last = offset + take >= bound
    with state.lock:
        tag = page_etag(offset, last, state.epoch, state.page(offset, take))
        lie = mock.stale.lie(state, offset, presented, tag)
        generation = lie or str(state.generation)
        if lie is not None or presented == tag:
            line.update(not_modified=True, stale_lie=lie is not None, generation=generation)
            headers = {"ETag": presented or tag, "X-Collection-Generation": generation}
            return VendorResponse(304, headers=headers)
        page = walk.serve(last)
        jobs = race_jobs(state, mock.schedule, page) if page is not None else []
        rows = state.page(offset, take)
        tag, generation = page_etag(offset, last, state.epoch, rows), str(state.generation)
        next_cursor = None if last else encode_cursor(offset + take, bound, state.epoch)
        race = mock.schedule.race_at(page) if jobs and page is not None else None
        hold_next = threading.Event()
        if race is not None and race.order != WEBHOOK_FIRST:
            walk.barrier = hold_next  # the next list request waits on it
    line.update(
        returned=len(rows),
        last=last,
        first_walk=page is not None,
        walk_page=page,
        etag=tag,
        generation=generation,
    )
    headers = {"ETag": tag, "X-Collection-Generation": generation}
    response = reply({"data": rows, "next_cursor": next_cursor, "total": bound}, headers=headers)
    if race is None:
        return response
    line.update(race_page=page, race_order=race.order, race_events=[j.event.id for j in jobs])
    if race.order == WEBHOOK_FIRST:
        done = mock.courier.send(jobs)
        line["race_delivered"] = await run_in_threadpool(done.wait, mock.timing.barrier_timeout)
    else:
        response.background = BackgroundTask(_deliver_then_release, mock, jobs, hold_next)
    return response


def _deliver_then_release(mock: MeridianV3Mock, jobs: list[Job], barrier: threading.Event) -> None:
    """After the page's bytes are out: deliver, then let the next list request through."""
    try:
        mock.courier.send(jobs).wait(mock.timing.barrier_timeout)
    finally:
        barrier.set()


async def get_payment(mock: MeridianV3Mock, request: Request, line: dict) -> Response:
    payment_id = request.path_params["payment_id"]
    line["payment_id"] = payment_id
    with mock.state.lock:
        if payment_id not in mock.state.rows:
            return error(404, "not_found")
        row = mock.state.public(payment_id)
    line["version"] = row["version"]
    return reply(row)


async def patch_payment(mock: MeridianV3Mock, request: Request, line: dict) -> Response:
    """The note, under ``If-Match`` (428 without, 412 on a stale version)."""
    payment_id, state = request.path_params["payment_id"], mock.state
    payload = await json_object(request)
    line["payment_id"] = payment_id
    with state.lock:
        if payment_id not in state.rows:
            return error(404, "not_found")
        current = state.rows[payment_id]["version"]
        line["current_version"] = current
        raw = request.headers.get("if-match")
        if raw is None:
            line["reason"] = "precondition_required"
            return error(428, "precondition_required")
        note = payload.get("note")
        if not isinstance(note, str) or not 1 <= len(note) <= NOTE_MAX:
            line["reason"] = "invalid_note"
            return error(400, "invalid_note")
        wanted = IF_MATCH_RE.fullmatch(raw.strip())
        if wanted is None or int(wanted.group(1)) != current:
            line["reason"] = "version_conflict"
            return error(412, "version_conflict")
        commit, _ = state.commit(payment_id, source="patch", note=note, announce=False)
        line["new_version"] = commit.version
        return reply(state.public(payment_id))


def create_problem(draft: dict) -> str | None:
    """The first validation error of a create body, or None."""
    amount, party, note = draft.get("amount_minor"), draft.get("counterparty"), draft.get("note")
    if type(amount) is not int or amount <= 0:
        return "invalid_amount"
    if draft.get("currency") not in EXPONENTS:
        return "unsupported_currency"
    if not (
        isinstance(party, dict)
        and isinstance(party.get("name"), str)
        and party["name"].strip()
        and isinstance(party.get("country"), str)
        and COUNTRY_RE.fullmatch(party["country"])
    ):
        return "invalid_counterparty"
    if note is not None and (not isinstance(note, str) or len(note) > NOTE_MAX):
        return "invalid_note"
    return None


async def create_payment(mock: MeridianV3Mock, request: Request, line: dict) -> Response:
    """201 for a key's first create, 200 with the same payment for any replay of it;
    held open after committing while `hold_creates` is on."""
    state, draft = mock.state, await json_object(request)
    key = request.headers.get("idempotency-key", "")
    with state.lock:
        replay = key in state.idempotency
        code = "idempotency_key_required" if not key else None if replay else create_problem(draft)
        if code is not None:
            state.refused_create(key, code, draft)
            line["reason"] = code
            return error(400, code)
        payment_id, event = state.create(draft, key)
        row = state.public(payment_id)
    line.update(payment_id=payment_id, replayed=replay)
    if event is not None:
        mock.courier.send([Job(event)])
    hold = mock.create_hold
    if hold is not None:
        line["held_secs"], line["client_gone"] = await _hold(request, hold)
    return reply(row, 200 if replay else 201)


async def _hold(request: Request, secs: float) -> tuple[float, bool]:
    """Keep the request open ``secs`` seconds or until the client hangs up."""
    began = time.monotonic()
    while (left := secs - (time.monotonic() - began)) > 0:
        if await request.is_disconnected():
            return round(time.monotonic() - began, 3), True
        await asyncio.sleep(min(_POLL_S, left))
    return round(time.monotonic() - began, 3), False


async def list_reversals(mock: MeridianV3Mock, request: Request, line: dict) -> Response:
    with mock.state.lock:
        data = [dict(rev) for rev in mock.state.reversals]
    line["returned"] = len(data)
    return reply({"data": data, "total": len(data)})


async def register_webhook(mock: MeridianV3Mock, request: Request, line: dict) -> Response:
    """Idempotent by URL: the unsigned ``webhook.verify`` challenge must be echoed."""
    url = (await json_object(request)).get("url")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        line["reason"] = "bad_url"
        return error(400, "bad_url")
    reg = Registration.for_url(url, salt=f"v3-{mock.seed}-")
    line.update(webhook_url=url, webhook_id=reg.id)
    line["handshake"] = await send_handshake(reg, mock.timing.handshake_timeout)
    if line["handshake"] != "ok":
        return error(400, "verification_failed")
    with mock.state.lock:
        mock.state.webhook = reg
    return reply({"id": reg.id, "secret": reg.secret})
