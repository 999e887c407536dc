"""The mock's public ASGI app (the vendor's API, in the mock's version), and the wrapper
that traces every request."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from string import Template
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from benchwright.services.meridian import config
from benchwright.services.meridian._http import VendorResponse, error, first_query
from benchwright.services.meridian.api_list import get_payment, list_payments
from benchwright.services.meridian.api_writes import create_batch, create_payment, patch_payment
from benchwright.services.meridian.webhooks import register

if TYPE_CHECKING:
    from benchwright.services.meridian.control import MeridianMock

Handler = Callable[["MeridianMock", Request, dict], Awaitable[Response]]
ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


async def docs(mock: MeridianMock, request: Request, line: dict) -> Response:
    """The API reference every client is expected to read first."""
    api = mock.api
    base = str(request.base_url).rstrip("/")
    values = api.docs_values(mock.timing)
    text = Template(api.docs).substitute(values, base=base, api_key=config.API_KEY)
    return VendorResponse(200, text.encode(), content_type="text/markdown; charset=utf-8")


async def not_found(mock: MeridianMock, request: Request, line: dict) -> Response:
    return error(404, "not_found")


def traced(
    mock: MeridianMock, handler: Handler, **marks: object
) -> Callable[[Request], Awaitable[Response]]:
    """``handler`` as an endpoint whose request is one line of the mock's trace, carrying
    ``marks`` (the control listener's lines say ``control: true``)."""

    async def endpoint(request: Request) -> Response:
        query = first_query(request)
        line = mock.trace.begin(request.method, request.url.path, query, request.headers)
        line.update(marks)
        try:
            response = await handler(mock, request, line)
            if line["status"] is None:
                line["status"] = response.status_code
            return response
        except Exception:
            line["status"] = 500
            raise
        finally:
            if line["status"] is not None:  # None: cancelled (shutdown), never answered
                mock.trace.write(line)
            if "stall_began_t" in line:  # the hold ends once its line can be read:
                mock.store.hold_ended()  # trap_results() waits for exactly this

    return endpoint


def anything_else(mock: MeridianMock, **marks: object) -> Route:
    """Every path and method no other route takes: ``404 not_found``, traced."""
    return Route("/{path:path}", traced(mock, not_found, **marks), methods=ALL_METHODS)


def _v2_routes(mock: MeridianMock) -> list[Route]:
    """What v2 answers beyond v1: batch creates, one payment, PATCH, webhooks."""
    payments = mock.api.list_path
    one = payments + "/{payment_id}"
    return [
        Route(payments + "/batch", traced(mock, create_batch), methods=["POST"]),
        Route(one, traced(mock, get_payment), methods=["GET"]),
        Route(one, traced(mock, patch_payment), methods=["PATCH"]),
        Route("/v2/webhooks", traced(mock, register), methods=["POST"]),
    ]


MORE_ROUTES: dict[str, Callable[[MeridianMock], list[Route]]] = {
    "v1": lambda mock: [],
    "v2": _v2_routes,
}
"""Per version, the routes beyond the docs, the list and the create every version has."""


def build_app(mock: MeridianMock) -> Starlette:
    """The Meridian API in the mock's version, each request traced: what an app under
    test reaches.

    Nothing else: the controls are a separate app on a listener of their own
    (`admin.build_control_app`), so ``/admin/...`` here, in any spelling, is an
    unknown path like any other.
    """
    api = mock.api
    routes = [
        Route(api.docs_path, traced(mock, docs), methods=["GET"]),
        Route("/docs", traced(mock, docs), methods=["GET"]),
        Route(api.list_path, traced(mock, list_payments), methods=["GET"]),
        Route(api.list_path, traced(mock, create_payment), methods=["POST"]),
        *MORE_ROUTES[api.name](mock),
        anything_else(mock),
    ]
    return Starlette(routes=routes)
