"""JSON read from the raw bytes on the wire, with floats caught as they are spelled.

``json.loads`` turns ``1500`` and ``1500.0`` into numbers Python compares equal,
so "amounts are integers" cannot be judged after decoding. Here the raw body is
parsed with a ``parse_float`` sentinel: every number the wire spelled with a
``.`` or an exponent becomes a ``WireFloat`` that remembers its literal, and the
JSON path of each one is listed. ``NaN``/``Infinity`` (not JSON) are listed too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from benchwright.probes.http._observe import DEFAULT_TIMEOUT_S, HttpObservation, client, fetch


class WireFloat(float):
    """A number written as a float on the wire; ``literal`` is exactly as written."""

    literal: str

    def __new__(cls, literal: str) -> WireFloat:
        number = super().__new__(cls, literal)
        number.literal = literal
        return number


@dataclass(frozen=True, slots=True)
class WireJson:
    """A body parsed from bytes; ``value`` holds ``WireFloat`` where floats were."""

    parseable: bool
    value: Any
    """None when the body did not parse (and when it parsed as ``null``)."""
    error: str | None
    floats: tuple[tuple[str, str], ...]
    """(JSON path, literal) of every float, e.g. ``("$.rows[3].amount_minor", "1.5")``."""
    constants: tuple[str, ...]
    """Non-JSON constants the body used: NaN, Infinity, -Infinity."""


def parse_wire_json(body: bytes) -> WireJson:
    """Parse raw bytes (any JSON encoding); never raises for a bad body."""
    constants: list[str] = []

    def constant(name: str) -> float:
        constants.append(name)
        return float(name)

    try:
        value = json.loads(body, parse_float=WireFloat, parse_constant=constant)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        return WireJson(False, None, f"{type(exc).__name__}: {exc}", (), ())
    floats = tuple((path, number.literal) for path, number in _walk_floats(value, "$"))
    return WireJson(True, value, None, floats, tuple(constants))


def _walk_floats(value: Any, path: str) -> Iterable[tuple[str, WireFloat]]:
    """Depth-first; iterative so a deeply nested body cannot exhaust the stack."""
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, WireFloat):
            yield where, node
        elif isinstance(node, dict):
            stack.extend((v, f"{where}.{k}") for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((v, f"{where}[{i}]") for i, v in reversed(list(enumerate(node))))


@dataclass(frozen=True, slots=True)
class JsonRead:
    """One response and its body as wire JSON."""

    response: HttpObservation
    json: WireJson

    @property
    def status(self) -> int | None:
        return self.response.status

    @property
    def content_type(self) -> str | None:
        return self.response.content_type

    @property
    def parseable(self) -> bool:
        return self.json.parseable


def read_json(
    base_url: str,
    path: str,
    *,
    method: str = "GET",
    json_body: Any = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    headers: dict[str, str] | None = None,
) -> JsonRead:
    """Send one request (with ``headers``, e.g. a bearer token) and parse its raw body as
    wire JSON."""
    with client(base_url, timeout_s) as http:
        response = fetch(http, path, method=method, json=json_body, headers=headers)
    return JsonRead(response, parse_wire_json(response.body))


def sample_json(
    base_url: str, paths: Iterable[str], *, timeout_s: float = DEFAULT_TIMEOUT_S
) -> tuple[JsonRead, ...]:
    """GET each path once: the JSON-everywhere sample (parseability, content type)."""
    with client(base_url, timeout_s) as http:
        responses = [fetch(http, path) for path in paths]
    return tuple(JsonRead(r, parse_wire_json(r.body)) for r in responses)
