"""Phases ``reads``, ``validation`` and ``json_sample``: the local API on the wire."""

from __future__ import annotations

import math

from benchwright.probes.http import JsonRead, MatrixCell, run_matrix, sample_json
from benchwright.suites.vspro.context import GradeContext
from benchwright.suites.vspro.observations import (
    JsonSampleObs,
    Observations,
    ReadsObs,
    ValidationObs,
)

RAW_PAGE = 200
BAD_GETS = (
    ("limit=-1", "/api/payments?limit=-1"),
    ("limit=abc", "/api/payments?limit=abc"),
    ("offset=-5", "/api/payments?offset=-5"),
    ("sort=bogus", "/api/payments?sort=bogus"),
    ("status=bogus", "/api/payments?status=bogus"),
    ("limit=0", "/api/payments?limit=0"),
    ("nope", "/api/nope"),
)
NOTE_PROBE_ID = "pay_1500"
"""A row no other phase, scenario or script step writes, far from the first page."""
LONG_NOTE = "n" * 281
"""One character over the 280 that spec §6.7 allows."""
UNKNOWN_ID = "pay_9999"
"""Shaped like a vendor id, absent from every fixture (spec §6.4: 404 ``not_found``)."""
WRITE_CELLS = (
    MatrixCell("note>280", f"/api/payments/{NOTE_PROBE_ID}/note", "POST", {"note": LONG_NOTE}),
    MatrixCell("unknown id", f"/api/payments/{UNKNOWN_ID}"),
    MatrixCell("PUT /api/summary", "/api/summary", "PUT"),
)
"""After the bad GETs: a too-long note, an unknown id, a method a known path does not
serve (§7: 405); their status codes and error envelopes are graded like the GETs'."""
VENDOR_FAULT_TIMEOUT_S = 30.0
"""Room for a client's bounded retries of a failing or silent vendor; an app still syncing
after this has not reported the fault (§7 asks for an answer: 502, or 503 when unreachable)."""
JSON_SAMPLE = (
    "/api/health", "/api/payments", "/api/summary", "/api/buckets",
    "/api/nope", "/api/payments?limit=-1",
)  # fmt: skip


def reads(ctx: GradeContext, obs: Observations) -> ReadsObs:
    """The paging cells, summary, buckets, then every row in raw 200-row pages."""
    pages = math.ceil(obs.expect.total / RAW_PAGE)
    return ReadsObs(
        default=ctx.call("/api/payments"),
        page5=ctx.call("/api/payments?limit=5&offset=5"),
        capped=ctx.call("/api/payments?limit=500"),
        sorted_desc=ctx.call("/api/payments?sort=-created_at&limit=10"),
        filtered=ctx.call("/api/payments?status=refunded&limit=10"),
        summary=ctx.call("/api/summary"),
        buckets=ctx.call("/api/buckets"),
        raw_pages=tuple(
            ctx.call(f"/api/payments?limit={RAW_PAGE}&offset={k * RAW_PAGE}") for k in range(pages)
        ),
    )


def validation(ctx: GradeContext, obs: Observations) -> ValidationObs:
    """Seven bad GETs, a note over 280 characters, an unknown id, a PUT; the note's row after;
    then a sync while the vendor answers every list request 500, and one while it gives no
    answer at all (each restored however it ends)."""
    cells = [MatrixCell(name, path) for name, path in BAD_GETS] + list(WRITE_CELLS)
    matrix = run_matrix(ctx.base_url, cells, timeout_s=ctx.settings.request_timeout_s)
    note_row = ctx.call(f"/api/payments/{NOTE_PROBE_ID}")
    ctx.mock.fail_lists(True)
    try:
        fault = ctx.sync(timeout_s=VENDOR_FAULT_TIMEOUT_S)
    finally:
        ctx.mock.fail_lists(False)
    return ValidationObs(matrix, note_row, fault, _sync_while_vendor_down(ctx))


def _sync_while_vendor_down(ctx: GradeContext) -> JsonRead | None:
    """The sync while every connection to the vendor is closed unanswered, or None when the
    app is not sandboxed (nothing stands between it and the mock to cut)."""
    if not ctx.app.can_cut_vendor:
        return None
    with ctx.app.vendor_outage():
        return ctx.sync(timeout_s=VENDOR_FAULT_TIMEOUT_S)


def json_sample(ctx: GradeContext, obs: Observations) -> JsonSampleObs:
    """Six responses, success and error paths, for parseability and content type."""
    return JsonSampleObs(
        sample_json(ctx.base_url, JSON_SAMPLE, timeout_s=ctx.settings.request_timeout_s)
    )
