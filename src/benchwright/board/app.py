"""The board's web application: the posting API beside the HTML pages.

Routes (JSON errors are ``{"error": {"code", "message"}}`` under ``/api``):

- ``POST /api/benchmark-runs``: a `benchwright.board.payload.Payload`; 201 with
  ``{"id", "url"}`` and ``Location`` (the run card page, ``/runs/{id}``). Refusals in
  order: 403 ``browser_post`` and 415 ``unsupported_media_type`` (`guards`, from the
  headers alone), 413 ``body_too_large`` (``Content-Length`` over `BODY_CAP` at once,
  otherwise counted while the body streams in, before any parsing), 403 for a missing,
  stale or wrong signature (`signing`), 400 malformed JSON or an unknown key, 422 shape
  and consistency rules (`validation`), screenshots (`_png`), re-composition
  (`recompose`), then 409 ``replayed`` and 403 ``handle_claimed`` (`claims`), then 429
  ``rate_limited`` with ``Retry-After``.
- ``GET /api/benchmark-runs/{id}``: the run card JSON (never the install id).
- ``GET /api/benchmark-runs/{id}/screenshots/{n}``: one PNG.
- ``GET /api/leaderboard?version=&sort=&order=asc|desc&page=&perPage=``: one board page.
- ``GET /api/scorers``: ``versions`` with entries (newest first) and the ``accepted``
  scorer versions this board can re-compose.

The pages router (``benchwright.board.pages.router``) is included when present; a page
reads the store as ``request.app.state.store``. A request whose ``Host`` is not one of
the board's names is answered 421 before any route runs (`benchwright.web.hosts`).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Collection, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from benchwright.board import guards, ratelimit, signing
from benchwright.board._png import decoded_screenshots
from benchwright.board.errors import Rejected
from benchwright.board.params import PageNumber, RunId, ScreenshotNumber, Version
from benchwright.board.recompose import load_scorers, recompose
from benchwright.board.store import MAX_PER_PAGE, BoardStore, UnknownSort
from benchwright.board.validation import check_rules, parse
from benchwright.scoring import Scorer
from benchwright.web import LOOPBACK_NAMES, HostGuard

BODY_CAP = 6_000_000
"""Bytes. Five screenshots fit (3.5 MB decoded in total is 4.67 MB as base64) with
room for every check row; anything larger cannot be a valid post."""
RUN_PAGE = "/runs/{id}"
Clock = Callable[[], datetime]


def default_scorers_dir() -> Path:
    """``scorers/`` of the working directory, else of this checkout."""
    here = Path.cwd() / "scorers"
    return here if here.is_dir() else Path(__file__).resolve().parents[3] / "scorers"


def create_app(
    store: BoardStore,
    *,
    clock: Clock = lambda: datetime.now(UTC),
    trusted_proxies: Collection[str] = (),
    scorers: Mapping[str, Scorer] | None = None,
    body_cap: int = BODY_CAP,
    allowed_hosts: Collection[str] = LOOPBACK_NAMES,
) -> FastAPI:
    """The board app over ``store``.

    Args:
        clock: the time a post is stamped and rate-limited at (tests pass a fake).
        trusted_proxies: addresses or networks whose ``X-Forwarded-For`` is believed.
        scorers: the pinned scorers by version (default: `default_scorers_dir`).
        body_cap: the largest request body accepted, in bytes.
        allowed_hosts: the ``Host`` names answered (`benchwright.web.allowed_names`;
            ``*``: any); every other name is 421.
    """
    app = FastAPI(title="benchwright board", docs_url=None, redoc_url=None)
    app.add_middleware(HostGuard, allowed=allowed_hosts)
    app.state.store = store
    app.state.clock = clock
    known = dict(scorers) if scorers is not None else load_scorers(default_scorers_dir())
    app.state.scorers = known
    _errors(app)

    @app.post("/api/benchmark-runs", status_code=201)
    async def post_run(request: Request) -> JSONResponse:
        guards.refuse_browsers(request.headers)
        guards.require_json(request.headers)
        body = await _capped_body(request, body_cap)
        address = ratelimit.client_address(
            request.client.host if request.client else None,
            request.headers.get("x-forwarded-for"),
            trusted_proxies,
        )
        run_id = await run_in_threadpool(
            _accept, store, known, body, request.headers, address, clock()
        )
        url = str(request.base_url).rstrip("/") + RUN_PAGE.format(id=run_id)
        return JSONResponse({"id": run_id, "url": url}, status_code=201, headers={"Location": url})

    @app.get("/api/benchmark-runs/{run_id}")
    def get_run(run_id: RunId) -> JSONResponse:
        card = store.run(run_id)
        if card is None:
            raise Rejected(404, "not_found", f"no run '{run_id}'")
        return JSONResponse(card.json_dict())

    @app.get("/api/benchmark-runs/{run_id}/screenshots/{n}")
    def get_screenshot(run_id: RunId, n: ScreenshotNumber) -> Response:
        png = store.screenshot(run_id, n)
        if png is None:
            raise Rejected(404, "not_found", f"run '{run_id}' has no screenshot {n}")
        # nosniff: the bytes are a poster's, checked only by their magic number
        return Response(png, media_type="image/png", headers={"X-Content-Type-Options": "nosniff"})

    @app.get("/api/leaderboard")
    def get_leaderboard(
        version: Version = None,
        sort: str = "score",
        order: str = "desc",
        page: PageNumber = 1,
        per_page: Annotated[int, Query(alias="perPage", ge=1, le=MAX_PER_PAGE)] = 50,
    ) -> JSONResponse:
        chosen = version or next(iter(store.versions()), None)
        if chosen is None:
            raise Rejected(404, "not_found", "the board has no entries yet")
        if order not in ("asc", "desc"):
            raise Rejected(400, "bad_order", f"order '{order}': choose asc or desc")
        try:
            found = store.leaderboard(chosen, sort, order == "desc", page, per_page)
        except UnknownSort as exc:
            raise Rejected(400, "bad_sort", str(exc)) from None
        return JSONResponse(found.json_dict())

    @app.get("/api/scorers")
    def get_scorers() -> JSONResponse:
        return JSONResponse({"versions": store.versions(), "accepted": sorted(known)})

    if importlib.util.find_spec("benchwright.board.pages") is not None:
        from benchwright.board.pages import router

        app.include_router(router)
    return app


def _accept(
    store: BoardStore,
    scorers: Mapping[str, Scorer],
    body: bytes,
    headers: Mapping[str, str],
    address: str,
    now: datetime,
) -> str:
    """Off the event loop: hashing a 6 MB body for its signature takes milliseconds."""
    proof = signing.verify(headers, body, now)
    payload = parse(body)
    check_rules(payload)
    decoded_screenshots(payload.screenshots)
    recompose(payload, scorers)
    try:
        return store.add(payload, address, now, proof)
    except ratelimit.RateLimited as exc:
        raise _Limited(exc) from None


class _Limited(Rejected):
    def __init__(self, exc: ratelimit.RateLimited) -> None:
        super().__init__(429, "rate_limited", str(exc))
        self.retry_after = exc.retry_after


async def _capped_body(request: Request, cap: int) -> bytes:
    """The body, refused (413) once it is known to exceed ``cap``: at once from
    ``Content-Length``, else while counting the streamed chunks (chunked uploads)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > cap:
        raise _too_large(int(declared), cap)
    chunks: list[bytes] = []
    seen = 0
    async for chunk in request.stream():
        seen += len(chunk)
        if seen > cap:
            raise _too_large(seen, cap, "at least ")
        chunks.append(chunk)
    return b"".join(chunks)


def _too_large(size: int, cap: int, qualifier: str = "") -> Rejected:
    return Rejected(413, "body_too_large", f"body is {qualifier}{size} bytes; the cap is {cap}")


def _errors(app: FastAPI) -> None:
    @app.exception_handler(Rejected)
    async def rejected(_request: Request, exc: Rejected) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, _Limited) else None
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def bad_query(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return JSONResponse(
            Rejected(422, "invalid_request", f"{where}: {first['msg']}").body(), status_code=422
        )

    default = app.exception_handlers[StarletteHTTPException]

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Any:
        if not request.url.path.startswith("/api/"):
            return await default(request, exc)
        code = "not_found" if exc.status_code == 404 else f"http_{exc.status_code}"
        return JSONResponse(
            Rejected(exc.status_code, code, str(exc.detail)).body(), status_code=exc.status_code
        )
