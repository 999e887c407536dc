"""Reading the vendor trace: list requests, and the windows between phase markers."""

from __future__ import annotations

from collections.abc import Iterable

from benchwright.services.meridian import LIST_PATH


def list_requests(lines: Iterable[dict]) -> list[dict]:
    """GET /v2/payments lines (the app's list calls, traps and 304s included)."""
    return [x for x in lines if x.get("method") == "GET" and x.get("path") == LIST_PATH]


def window(lines: Iterable[dict], start: str, end: str | None = None) -> list[dict]:
    """Lines after the marker ``start`` and before the marker ``end`` (or the next marker
    when ``end`` is None); empty when ``start`` never appears."""
    inside, found = False, []
    for line in lines:
        marker = line.get("__phase__")
        if marker is not None:
            if inside and (end is None or marker == end):
                break
            inside = inside or marker == start
            continue
        if inside:
            found.append(line)
    return found
