"""The vendor's request trace as the phases slice it: phase marks, and the list requests
(``GET /v3/payments``) between two marks, as the observation record keeps them."""

from __future__ import annotations

from benchwright.services.meridian_v3 import LIST_PATH
from benchwright.suites.sb7.context import GradeContext
from benchwright.suites.sb7.observations import ListRequest

MARK = "__phase__"


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
    """One trace line as the record's `ListRequest` (a status of 0 or none: dropped)."""
    query = line.get("query") or {}
    retry = line.get("retry_after")
    return ListRequest(
        seq=line["seq"],
        at=float(line.get("t") or 0.0),
        cursor=query.get("cursor"),
        params=tuple(sorted(query)),
        if_none_match=line.get("if_none_match"),
        status=line.get("status") or None,
        page=line.get("page"),
        last=bool(line.get("last")),
        fault=line.get("fault"),
        retry_after_s=float(retry) if retry is not None else None,
    )


def marks(ctx: GradeContext) -> dict[str, int]:
    """Phase name -> the ``seq`` of its (last) mark."""
    return {line[MARK]: line["seq"] for line in ctx.mock.trace.lines() if MARK in line}
