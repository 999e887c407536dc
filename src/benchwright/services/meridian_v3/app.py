"""The v3 vendor's public ASGI app: every route traced, every one but the docs behind the
bearer key. Nothing else is served: no controls, no admin paths."""

from __future__ import annotations

from string import Template
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from benchwright.services.meridian._http import VendorResponse, error
from benchwright.services.meridian.app import Handler, anything_else, traced
from benchwright.services.meridian_v3 import api
from benchwright.services.meridian_v3.config import (
    DOCS_PATH,
    LIST_PATH,
    REVERSALS_PATH,
    WEBHOOKS_PATH,
)
from benchwright.services.meridian_v3.docs import DOCS

if TYPE_CHECKING:
    from benchwright.services.meridian_v3.control import MeridianV3Mock


async def docs(mock: MeridianV3Mock, request: Request, line: dict) -> Response:
    text = Template(DOCS).substitute(base=str(request.base_url).rstrip("/"))
    return VendorResponse(200, text.encode(), content_type="text/markdown; charset=utf-8")


def keyed(handler: Handler) -> Handler:
    """``handler`` behind the bearer key: ``401 unauthorized`` without the right one."""

    async def guarded(mock, request: Request, line: dict) -> Response:
        if not line["authorized"]:
            line["reason"] = "unauthorized"
            return error(401, "unauthorized")
        return await handler(mock, request, line)

    return guarded


def build_app(mock: MeridianV3Mock) -> Starlette:
    """The v3 API, each request one line of the mock's trace."""
    one = LIST_PATH + "/{payment_id}"
    routes = [
        Route(DOCS_PATH, traced(mock, docs), methods=["GET"]),
        *(
            Route(path, traced(mock, keyed(handler)), methods=[method])
            for path, method, handler in (
                (LIST_PATH, "GET", api.list_payments),
                (LIST_PATH, "POST", api.create_payment),
                (one, "GET", api.get_payment),
                (one, "PATCH", api.patch_payment),
                (REVERSALS_PATH, "GET", api.list_reversals),
                (WEBHOOKS_PATH, "POST", api.register_webhook),
            )
        ),
        anything_else(mock),
    ]
    return Starlette(routes=routes)
