"""Readers of what an app answered, as every suite's checks read it: the JSON object of a
response, the rows of a list response, the health a boot saw. None always means "not
there" (no answer, not JSON, not the expected shape): a check scores that, never raises."""

from __future__ import annotations

from benchwright.probes.http import JsonRead, parse_wire_json
from benchwright.services.app import BootObservation


def body(read: JsonRead | None) -> dict | None:
    """The JSON object a read carried, or None (no answer, not JSON, not an object)."""
    if read is None or not read.json.parseable or not isinstance(read.json.value, dict):
        return None
    return read.json.value


def integer(found: dict | None, key: str) -> int | None:
    """``found[key]`` when it is an integer (a bool is not one), else None."""
    value = (found or {}).get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def rows_of(read: JsonRead | None) -> list | None:
    """``data`` of a list response when it is a list, else None."""
    found = (body(read) or {}).get("data")
    return found if isinstance(found, list) else None


def health_json(boot: BootObservation) -> dict | None:
    """The health answer a boot saw, as a JSON object (None: none, or not an object)."""
    parsed = parse_wire_json(boot.health_body) if boot.health_body else None
    if parsed is None or not parsed.parseable or not isinstance(parsed.value, dict):
        return None
    return parsed.value
