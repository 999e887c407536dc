"""Phase ``reads``: the API and the page once the first sync has quiesced: the wire shapes
(payments, summary, buckets, viz records), the frontend and its assets, a sample of
success and error answers across the API, and the head of the SSE stream."""

from __future__ import annotations

import re
import time
from urllib.parse import urljoin, urlsplit

import httpx

from benchwright.probes.http import HttpObservation, client, fetch
from benchwright.services.tls import shared_tls_context
from benchwright.suites.sb7.context import GradeContext
from benchwright.suites.sb7.observations import Observations, PageObs, ReadsObs

ASSETS = ("styles.css", "app.js", "viz.js")
VIZ_TIMEOUT_S = 30.0
"""The full columnar fetch of 12,288 records (its 400 ms budget is a P row of part two)."""
STREAM_HEAD_S = 5.0
SAMPLE = (
    "/api/health", "/api/payments", "/api/payments?limit=5&offset=40",
    "/api/payments?status=settled&currency=EUR", "/api/payments?sort=-amount_minor&limit=3",
    "/api/summary", "/api/buckets", "/api/outbox/status", "/api/notifications",
    "/api/payments?limit=abc", "/api/payments?offset=-1", "/api/payments?sort=sideways",
    "/api/no-such-path", "/api/payments/pay_no_such_payment", "/api/events",
)  # fmt: skip
"""GETs without a token: successes and documented errors (400, 404, 401) alike, each of
which must be JSON with a JSON content type."""


def reads(ctx: GradeContext, obs: Observations) -> ReadsObs:
    """Read the API's shapes, the page and assets, the sample, the stream's head."""
    mark = ctx.mock.commit_ledger().last_seq
    vendor = ctx.mock.schedule
    sample = [ctx.call(path) for path in SAMPLE]
    sample.append(ctx.call(f"/api/payments/{vendor.refund.payment_id}"))
    sample += [ctx.call(path, role="admin") for path in ("/api/events?limit=5", "/api/drafts")]
    return ReadsObs(
        commit_mark=mark,
        payments=ctx.call("/api/payments"),
        summary=ctx.call("/api/summary"),
        buckets=ctx.call("/api/buckets"),
        viz=ctx.call("/api/viz/records", timeout_s=VIZ_TIMEOUT_S),
        page=page(ctx.base_url, ctx.settings.request_timeout_s),
        sample=tuple(sample),
        stream_head=stream_head(ctx.base_url),
    )


def page(base_url: str, timeout_s: float) -> PageObs:
    """``GET /`` and each asset where the page references it (``/<name>`` when it does
    not: the spec's relative path from ``/``)."""
    with client(base_url, timeout_s) as http:
        index = fetch(http, "/")
        html = index.body.decode("utf-8", errors="replace")
        assets = {name: fetch(http, asset_path(html, name)) for name in ASSETS}
    return PageObs(index, assets)


def asset_path(html: str, name: str) -> str:
    """The path the page's ``src``/``href`` gives for ``name`` (resolved against ``/``,
    query kept), or ``/<name>``."""
    for ref in re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", html, re.IGNORECASE):
        if urlsplit(ref).path.rsplit("/", 1)[-1] == name and not urlsplit(ref).netloc:
            resolved = urlsplit(urljoin("http://app/", ref))
            return resolved.path + (f"?{resolved.query}" if resolved.query else "")
    return f"/{name}"


def stream_head(base_url: str) -> HttpObservation:
    """``GET /api/stream``: the status and headers of its response, the body left unread
    (it never ends); a transport failure is an observation too."""
    started = time.perf_counter()
    try:
        with httpx.Client(base_url=base_url, timeout=STREAM_HEAD_S, trust_env=False,
                          verify=shared_tls_context()) as http, \
                http.stream("GET", "/api/stream") as answer:  # fmt: skip
            headers = tuple(answer.headers.multi_items())
            return HttpObservation("GET", "/api/stream", answer.status_code, headers, b"",
                                   started, time.perf_counter() - started)  # fmt: skip
    except httpx.HTTPError as exc:
        why = f"{type(exc).__name__}: {exc}"
        return HttpObservation("GET", "/api/stream", None, (), b"", started,
                               time.perf_counter() - started, why)  # fmt: skip
