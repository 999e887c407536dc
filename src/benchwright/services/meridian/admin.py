"""``POST /admin/<action>``: the mock's controls over HTTP, on a listener of their own.

The app under test reaches the vendor's public API (`app.build_app`) and nothing else:
a relay that forwards its vendor connections there carries no control, whatever the
bytes say. This app is served apart (`MeridianMock.start_control`), on its own port,
for whoever steers the mock by hand (``benchwright vendor meridian`` prints where); graders
steer in-process and never start it. Each mock draws its own bearer token, so neither an
app that learns the port nor the mock's own webhook calls (a URL the app chose) can use it.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from benchwright.services.meridian._http import error, json_object, reply
from benchwright.services.meridian.app import ALL_METHODS, anything_else, traced
from benchwright.services.meridian.delivery import NoWebhookRegistered

if TYPE_CHECKING:
    from benchwright.services.meridian.control import MeridianMock


def _halfset(mock: MeridianMock, body: dict) -> dict:
    on = bool(body.get("on", True))
    cap = mock.fixture.total // 2
    visible = mock.set_visible_cap(cap) if on else mock.clear_visible_cap()
    return {"ok": True, "visible_rows": visible}


def _conflict(mock: MeridianMock, body: dict) -> dict:
    mock.set_conflict_mode(str(body.get("mode")))
    return {"ok": True, "mode": body.get("mode")}


def _stall(mock: MeridianMock, body: dict) -> dict:
    secs = body.get("secs")
    mock.arm_stall(bool(body.get("on", True)), float(secs) if secs is not None else None)
    return {"ok": True, "secs": secs if secs is not None else mock.timing.stall_secs}


def _register_fault(mock: MeridianMock, body: dict) -> dict:
    port = body.get("port")
    on = bool(body.get("on", True))
    mock.arm_register_fault(int(port) if port is not None else None, on)
    return {"ok": True, "on": on, "port": port}


def _phase(mock: MeridianMock, body: dict) -> dict:
    mock.mark_phase(str(body.get("name") or "phase"), body.get("reset"))
    return {"ok": True}


def _ledgers(mock: MeridianMock, body: dict) -> dict:
    return {
        "trap_results": mock.trap_results().as_dict(),
        "batch_trace": mock.batch_trace().as_dict(),
        "conflict_trace": mock.conflict_trace().as_dict(),
        "contract_ledger": mock.contract_ledger().as_dict(),
    }


ACTIONS: dict[str, Callable[[MeridianMock, dict], Any]] = {
    "deliver-script": lambda mock, body: mock.run_delivery_script(),
    "halfset": _halfset,
    "conflict": _conflict,
    "stall": _stall,
    "phase": _phase,
    "register-fault": _register_fault,
    "mutate": lambda mock, body: {"ok": True, "mutated": mock.mutate_statuses()},
    "unmutate": lambda mock, body: {"ok": True, "restored": mock.unmutate_statuses()},
    "restore": lambda mock, body: mock.restore_payments() or {"ok": True},
    "ledgers": _ledgers,
}


def authorized(mock: MeridianMock, header: str | None) -> bool:
    """Whether ``header`` (``Authorization``) carries this mock's control token."""
    expected = f"Bearer {mock.control_token}".encode()
    return hmac.compare_digest((header or "").encode("latin-1", "replace"), expected)


async def admin(mock: MeridianMock, request: Request, line: dict) -> Response:
    """One control, for a caller holding the token; traced with ``admin`` once it runs."""
    action = request.path_params["action"]
    if not authorized(mock, request.headers.get("authorization")):
        return error(401, "unauthorized")
    if request.method != "POST":
        return error(405, "method_not_allowed")
    if action not in ACTIONS:
        return error(404, "not_found")
    line["admin"] = action
    body = await json_object(request)
    try:
        return reply(await run_in_threadpool(ACTIONS[action], mock, body))
    except NoWebhookRegistered:
        return error(409, "no_webhook_registered")
    except ValueError:
        return error(400, "bad_mode" if action == "conflict" else "bad_request")


def build_control_app(mock: MeridianMock) -> Starlette:
    """``/admin/<action>`` and nothing else (any other path is ``404``), each request traced
    with ``control: true``."""
    return Starlette(
        routes=[
            Route("/admin/{action}", traced(mock, admin, control=True), methods=ALL_METHODS),
            anything_else(mock, control=True),
        ]
    )
