"""What a browser scenario saw, as frozen data. Observes only; checks decide what it means."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True, slots=True)
class ConsoleMessage:
    """One console message (``console.error`` or a failed resource load)."""

    type: str
    """``error`` (console.error, a failed resource load) or ``assert`` (a failed console.assert)."""
    text: str
    url: str | None = None
    """Where it came from: the script, or the resource that failed to load."""
    filtered: str | None = None
    """Why it was set aside as harmless noise (``favicon``, ``aborted by the probe``)."""


@dataclass(frozen=True, slots=True)
class PageError:
    """An uncaught exception or unhandled rejection in the page."""

    name: str
    message: str
    stack: str | None = None


@dataclass(frozen=True, slots=True)
class WebGLContext:
    """One WebGL context the page created, with its draw calls per entry point."""

    index: int
    """Creation order within the document, from 0."""
    kind: str
    """``webgl`` or ``webgl2`` (``experimental-webgl`` counts as ``webgl``)."""
    canvas_id: str | None
    created_ms: float
    first_draw_ms: float | None
    calls: tuple[tuple[str, int], ...]
    """(entry point, count) pairs, sorted by name: ``drawArrays``, ``drawElementsInstanced``..."""

    @property
    def draw_calls(self) -> int:
        return sum(n for _, n in self.calls)

    def count(self, entry_point: str) -> int:
        return dict(self.calls).get(entry_point, 0)


@dataclass(frozen=True, slots=True)
class RequestAction:
    """A request the probe held or aborted."""

    url: str
    method: str
    action: str
    """``held`` or ``aborted``."""
    hold_ms: float = 0.0
    """For a held request: how long it was held before it went on to the app."""


@dataclass(frozen=True, slots=True)
class Screenshot:
    path: Path
    width: int
    height: int
    selector: str | None = None
    """The element shot, or None for the page."""


@dataclass(frozen=True, slots=True)
class ScenarioTimings:
    """Wall-clock seconds on the grader's side, page-clock milliseconds on the page's."""

    context_s: float
    """Opening the fresh context and page."""
    navigation_s: float | None
    """``goto`` until the load event (None when there was no navigation)."""
    total_s: float
    dom_content_loaded_ms: float | None = None
    load_ms: float | None = None


@dataclass(frozen=True, slots=True)
class ScenarioObservation:
    """Everything one scenario recorded. Never a verdict."""

    name: str
    url: str | None
    status: int | None
    """HTTP status of the main document; None when navigation failed or never happened."""
    navigation_error: str | None
    first_row_ms: float | None
    """When the first visible row matching the selector appeared (page clock), or None."""
    console_errors: tuple[ConsoleMessage, ...]
    console_filtered: tuple[ConsoleMessage, ...]
    page_errors: tuple[PageError, ...]
    webgl_contexts: tuple[WebGLContext, ...]
    webgl_refused: int
    """getContext('webgl'...) calls answered with null because WebGL was disabled."""
    requests: tuple[RequestAction, ...]
    screenshots: tuple[Screenshot, ...]
    timings: ScenarioTimings
    page_crashed: bool = False
    """The renderer crashed (the browser itself survived)."""

    @property
    def draw_calls(self) -> int:
        return sum(ctx.draw_calls for ctx in self.webgl_contexts)


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk; ValueError when it is no PNG."""
    with path.open("rb") as handle:
        head = handle.read(24)
    if len(head) < 24 or not head.startswith(_PNG_SIGNATURE) or head[12:16] != b"IHDR":
        raise ValueError(f"{path}: not a PNG file")
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def webgl_contexts(raw: list[dict[str, Any]]) -> tuple[WebGLContext, ...]:
    """Contexts from the page script's snapshot."""
    return tuple(
        WebGLContext(
            index=int(item["index"]),
            kind=str(item["kind"]),
            canvas_id=item.get("canvas"),
            created_ms=float(item["createdMs"]),
            first_draw_ms=item.get("firstDrawMs"),
            calls=tuple(sorted((str(k), int(v)) for k, v in item.get("calls", {}).items())),
        )
        for item in raw
    )
