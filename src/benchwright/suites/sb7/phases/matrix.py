"""Phase ``matrix``: requests the spec documents an answer for, each with that answer:
invalid parameters and bodies (400 with ``field_errors`` naming the field), unknown paths
and payments (404), one valid note written through to the vendor (200: the vendor
refuses a write without If-Match, 428), and the bearer-token rules of the approval
workflow (401 without a known token, 403 for a wrong role, 403 ``approval_forbidden``
for the submitter's own approve or reject)."""

from __future__ import annotations

import random
from typing import Any

from benchwright.probes.http import JsonRead
from benchwright.services.meridian_v3 import PAGE_SIZE
from benchwright.suites.kit.wire import body
from benchwright.suites.sb7.context import GradeContext
from benchwright.suites.sb7.observations import Case, MatrixObs, Observations
from benchwright.suites.sb7.phases.stream import targets

NOTE = "checked by the harness"
BAD_QUERIES = (
    ("limit is not a number", "?limit=abc", "limit"),
    ("limit is negative", "?limit=-1", "limit"),
    ("offset is not a number", "?offset=x", "offset"),
    ("offset is negative", "?offset=-5", "offset"),
    ("sort is unknown", "?sort=sideways", "sort"),
    ("status is unknown", "?status=bogus", "status"),
    ("currency is unknown", "?currency=XXX", "currency"),
)  # fmt: skip
"""``GET /api/payments`` with one bad parameter: 400 naming it."""


def matrix(ctx: GradeContext, obs: Observations) -> MatrixObs:
    """The validation matrix, then the auth matrix (two drafts of its own)."""
    return MatrixObs(validation=validation(ctx), auth=auth(ctx))


def validation(ctx: GradeContext) -> tuple[Case, ...]:
    some = note_target(ctx)
    cases = [_bad(name, ctx.call(f"/api/payments{query}"), field)
             for name, query, field in BAD_QUERIES]  # fmt: skip
    cases += [
        Case("unknown path", 404, ctx.call("/api/no-such-path"), "not_found"),
        Case("unknown payment", 404, ctx.call("/api/payments/pay_no_such"), "not_found"),
        _bad("drafts state is unknown", ctx.call("/api/drafts?state=bogus", role="admin"),
             "state"),
        _bad("note is empty", ctx.call(f"/api/payments/{some}/note", method="POST",
                                       json={"note": ""}), "note"),
        Case("note is written through", 200, ctx.call(f"/api/payments/{some}/note",
                                                      method="POST", json={"note": NOTE})),
    ]  # fmt: skip
    valid = ctx.schedule.rejected.body()
    for name, field, broken in _broken_drafts(valid):
        answer = ctx.call("/api/drafts", method="POST", json=broken, role="maker")
        cases.append(_bad(f"draft {name}", answer, field))
    return tuple(cases)


def note_target(ctx: GradeContext) -> str:
    """The payment whose note the matrix writes (a seeded one no vendor-side schedule
    entry touches and off B5's stale page, so the write races nothing of the schedule):
    the one cell that must reach the vendor, with its If-Match."""
    vendor = ctx.mock.schedule
    taken = targets(vendor)
    stale = range((vendor.stale.page - 1) * PAGE_SIZE, vendor.stale.page * PAGE_SIZE)
    free = [row["id"] for i, row in enumerate(ctx.mock.fixture.payments)
            if row["id"] not in taken and i not in stale]  # fmt: skip
    return random.Random(f"sb7-note-{ctx.mock.seed}").choice(free)


def _bad(name: str, answer: JsonRead, field: str) -> Case:
    return Case(name, 400, answer, "bad_request", (field,))


def _broken_drafts(valid: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(what is wrong, the field path, the body) for one broken field each."""
    party = valid["counterparty"]
    return [
        ("amount is not an integer", "amount_minor", {**valid, "amount_minor": "12"}),
        ("amount is not positive", "amount_minor", {**valid, "amount_minor": 0}),
        ("currency is unsupported", "currency", {**valid, "currency": "XXX"}),
        ("country is not two upper-case letters", "counterparty.country",
         {**valid, "counterparty": {**party, "country": "de"}}),
        ("counterparty name is missing", "counterparty.name",
         {**valid, "counterparty": {"country": party["country"]}}),
        ("note is too long", "note", {**valid, "note": "n" * 281}),
    ]  # fmt: skip


def auth(ctx: GradeContext) -> tuple[Case, ...]:
    """Missing and unknown tokens, roles, and four-eyes on a draft the checker submitted."""
    draft = ctx.schedule.approved.body() | {"note": "auth matrix"}

    def as_(role: str | None, path: str, method: str = "GET", json: Any = None) -> JsonRead:
        return ctx.call(path, method=method, json=json, role=role)

    own = _draft_id(as_("checker", "/api/drafts", "POST", draft))
    as_("checker", f"/api/drafts/{own}/submit", "POST")
    fresh = _draft_id(as_("maker", "/api/drafts", "POST", draft))
    bogus = ctx.call("/api/events", headers={"Authorization": "Bearer " + "0" * 32})
    cases = [
        Case("events without a token", 401, as_(None, "/api/events"), "unauthorized"),
        Case("events with an unknown token", 401, bogus, "unauthorized"),
        Case("drafts without a token", 401, as_(None, "/api/drafts"), "unauthorized"),
        Case("events as admin", 200, as_("admin", "/api/events?limit=1")),
        Case("drafts as admin", 200, as_("admin", "/api/drafts")),
        Case("create as admin", 403, as_("admin", "/api/drafts", "POST", draft), "forbidden"),
        Case("submit as admin", 403, as_("admin", f"/api/drafts/{fresh}/submit", "POST"),
             "forbidden"),
        Case("approve as maker", 403, as_("maker", f"/api/drafts/{own}/approve", "POST"),
             "forbidden"),
        Case("approve by its submitter", 403,
             as_("checker", f"/api/drafts/{own}/approve", "POST"), "approval_forbidden"),
        Case("reject by its submitter", 403,
             as_("checker", f"/api/drafts/{own}/reject", "POST"), "approval_forbidden"),
    ]  # fmt: skip
    return tuple(cases)


def _draft_id(answer: JsonRead) -> str:
    """The created draft's id (``none``, which no draft has, when it was not created:
    the cases on it then read the app's answer for an unknown draft)."""
    found = (body(answer) or {}).get("id")
    return str(found) if found is not None else "none"
