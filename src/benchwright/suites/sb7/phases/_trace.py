"""The vendor's request trace as the phases slice it: phase marks, and the list requests
(``GET /v3/payments``) between two marks, as the observation record keeps them."""

from __future__ import annotations

from benchwright.services.meridian_v3 import LIST_PATH
from benchwright.suites.sb7.context import GradeContext
from benchwright.suites.sb7.observations import ListRequest

MARK = "__phase__"
FAULTS = {"drop": "drop", "error": "http500"}
"""The vendor trace's fault names -> the record's."""


def mark(ctx: GradeContext, name: str) -> int:
    """Mark the trace (a new window starts) and return the mark's ``seq``."""
    ctx.mock.mark_phase(name)
    return max(line["seq"] for line in ctx.mock.trace.lines() if line.get(MARK) == name)


def list_lines(ctx: GradeContext, after: int, before: int | None = None) -> list[dict]:
    """The answered or dropped list requests with ``after < seq < before``."""
    return [line for line in ctx.mock.trace.lines()
            if line.get("method") == "GET" and line.get("path") == LIST_PATH
            and after < line["seq"] and (before is None or line["seq"] < before)]  # fmt: skip


def list_request(line: dict) -> ListRequest:
    """One trace line as the record's `ListRequest`: a status of 0 (or none) is a dropped
    connection; ``page`` is 0-based, set when the vendor answered for a page (200 or 304);
    the vendor's fault names become the record's (``drop``, ``http500``, ``stale304``)."""
    query = line.get("query") or {}
    status = line.get("status") or None
    retry = line.get("retry_after_secs")
    fault = FAULTS.get(line.get("fault") or "") or ("stale304" if line.get("stale_lie") else None)
    page = line.get("page") if status in (200, 304) else None
    return ListRequest(
        seq=line["seq"],
        at=float(line.get("t") or 0.0),
        cursor=query.get("cursor") or None,
        params=tuple(sorted(query)),
        if_none_match=line.get("if_none_match"),
        status=status,
        page=page - 1 if isinstance(page, int) else None,
        last=bool(line.get("last")),
        fault=fault,
        retry_after_s=float(retry) if retry is not None else None,
    )


def marks(ctx: GradeContext) -> dict[str, int]:
    """Phase name -> the ``seq`` of its (last) mark."""
    return {line[MARK]: line["seq"] for line in ctx.mock.trace.lines() if MARK in line}
