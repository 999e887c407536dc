"""Entries for the page tests: payloads as a poster would send them, real PNG bytes, and the
board app served over real HTTP on 127.0.0.1 from a fresh, migrated SQLite board."""

from __future__ import annotations

import base64
import struct
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from benchwright.board.app import create_app
from benchwright.board.migrate import upgrade
from benchwright.board.payload import Payload
from benchwright.board.store import BoardStore
from benchwright.services._server import BackgroundServer

XSS = '<img src=x onerror="window.__pwned=1;alert(1)">'
INSTALL_PREFIX = "feedc0de"
"""Every seeded install id starts with this, so a test can look for it on every page."""
T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


def png(width: int = 64, height: int = 40, rgb: tuple[int, int, int] = (31, 78, 140)) -> bytes:
    """A real, solid-colour PNG (8-bit RGB) the browser decodes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    row = b"\x00" + bytes(rgb) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


def payload(
    i: int,
    *,
    version: str = "sb-6.0-rc",
    score: float = 0.5,
    handle: str | None = None,
    model: str = "qwen3-coder-30b",
    wall: float = 1000.0,
    detail: str = "1: ok",
    shots: int = 0,
) -> Payload:
    """Entry ``i`` of a board: its own install id, its own times."""
    started = T0 + timedelta(hours=i)
    return Payload.model_validate({
        "scorerVersion": version, "score": score, "tiers": {"A": score, "B": 1.0},
        "composition": {"components": {"inner": score}, "excellenceGate": 0.5,
                        "excellenceMean": 1.0, "excellence": 0.06, "preSeverityScore": score,
                        "multiplier": 1.0, "excellent": score >= 0.9, "partial": False},
        "checks": [{"id": "server_runs", "tier": "A", "status": "PASS", "score": 1.0,
                    "detail": detail, "weight": 1.0},
                   {"id": "b_summary", "tier": "B", "status": "FAIL", "score": 0.0,
                    "detail": "0: summary missing", "weight": 2.0}],
        "model": model, "nodes": 0,
        "run": {"startedAt": started.isoformat(), "finishedAt": (started + timedelta(
                    seconds=wall)).isoformat(), "engineEvents": 10, "repairRounds": 1,
                "wallSecs": wall, "agent": "goose", "suite": "vspro", "treeSha256": "ab" * 32},
        "poster": {"handle": handle or f"calm-otter-{i:04x}",
                   "installId": f"{INSTALL_PREFIX}{i:024x}"},
        "screenshots": [{"name": f"shot-{n}.png",
                         "png": base64.b64encode(png(64 + n, 40)).decode()}
                        for n in range(shots)],
    })  # fmt: skip


def add(store: BoardStore, entry: Payload, i: int) -> str:
    """Post ``entry`` as client ``i`` (own address, posted ``i`` minutes after T0)."""
    return store.add(entry, f"10.0.{i // 250}.{i % 250 + 1}", T0 + timedelta(minutes=i))


def fresh_store(folder: Path) -> BoardStore:
    store = BoardStore(f"sqlite:///{folder / 'board.sqlite'}")
    upgrade(store.engine)  # the schema and the three sb-5.2 baselines
    return store


@contextmanager
def pages_server(store: BoardStore) -> Iterator[str]:
    """The board app (API and pages) over real HTTP; yields the base URL."""
    with BackgroundServer(create_app(store)) as server:
        yield server.base_url


@contextmanager
def seeded_board(directory: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """A fresh board in ``directory`` holding `seed`'s entries, served; yields (URL, ids)."""
    store = fresh_store(directory)
    ids = seed(store)
    with pages_server(store) as url:
        yield url, ids


def seed(store: BoardStore) -> dict[str, Any]:
    """55 sb-6.0-rc entries (two pages), one with an XSS handle, model and detail and three
    screenshots, and two entries of the older sb-5.2. Returns ids worth visiting."""
    ids: dict[str, Any] = {"sb6": []}
    for i in range(55):
        entry = payload(i, score=round(0.3 + i * 0.01, 4), wall=600.0 + (i * 37) % 500)
        ids["sb6"].append(add(store, entry, i))
    hostile = payload(60, score=0.99, model=XSS, detail=XSS, shots=3)
    # a handle no post may carry any more (benchwright.board.names), as a board that
    # stored it before the rule holds it: the pages must still show it as text
    hostile = hostile.model_copy(update={"poster": hostile.poster.model_copy(
        update={"handle": XSS})})  # fmt: skip
    ids["xss"] = add(store, hostile, 60)
    ids["old"] = [add(store, payload(70 + k, version="sb-5.2", score=0.7), 70 + k) for k in (0, 1)]
    return ids
