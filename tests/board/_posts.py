"""Genuine posts: rows composed by the shipped sb-6 scorer, as `benchwright publish` sends
them, plus PNG bytes of an exact size and a clock the tests move by hand."""

from __future__ import annotations

import base64
import copy
import hashlib
import secrets
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from benchwright.board._png import PNG_MAGIC
from benchwright.board.app import create_app
from benchwright.board.payload import scorecard_fields
from benchwright.board.store import BoardStore
from benchwright.reports.scorecard import scorecard_dict
from benchwright.scoring import Scorer, compose, defect_rows, load_scorer
from benchwright.services._server import BackgroundServer

ROOT = Path(__file__).resolve().parents[2]
SB6 = ROOT / "scorers" / "sb6.yaml"
STARTED = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)
INSTALL_ID = "0f6e4c1d9b8a47e3a2c5d7f9e1b3a5c7"
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
"""The key of the install that posts `post()`'s handle."""


@cache
def sb6() -> Scorer:
    return load_scorer(SB6)


@cache
def _card() -> dict[str, Any]:
    """sb-6 fields of a run that lost half of server_runs and a third of a T check."""
    rows = defect_rows(sb6(), {"server_runs": 0.5, "t_camera": 0.6})
    return scorecard_fields(scorecard_dict(compose(rows, sb6())))


def png_of_size(size: int) -> bytes:
    """``size`` bytes that pass the magic-byte check (the board reads no further)."""
    return PNG_MAGIC + b"\0" * (size - len(PNG_MAGIC))


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def post(
    install_id: str = INSTALL_ID, handle: str = "crimson-heron-7f3a", **changes: Any
) -> dict[str, Any]:
    """A genuine payload (JSON-ready dict, camelCase); ``changes`` replace top-level keys."""
    body = {
        **copy.deepcopy(_card()),
        "model": "qwen3-coder-30b",
        "nodes": 0,
        "run": {
            "startedAt": STARTED.isoformat(),
            "finishedAt": (STARTED + timedelta(seconds=3720)).isoformat(),
            "engineEvents": 412,
            "repairRounds": 2,
            "wallSecs": 3720.0,
            "agent": "goose",
            "suite": "vspro",
            "treeSha256": "ab" * 32,
        },
        "poster": {"handle": handle, "installId": install_id},
        "screenshots": [{"name": "load.png", "png": b64(png_of_size(2048))}],
    }
    body.update(changes)
    return body


class Clock:
    """A clock that moves only when told."""

    def __init__(self, now: datetime = STARTED + timedelta(days=1)) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@contextmanager
def serve_board(
    store: BoardStore, clock: Clock | None = None, trusted: Collection[str] = ()
) -> Iterator[str]:
    """The board app over real HTTP on 127.0.0.1 (uvicorn leaves ``X-Forwarded-For`` to the
    app, as ``benchwright board serve`` does); yields the base URL."""
    app = create_app(store, clock=clock or Clock(), trusted_proxies=trusted)
    with BackgroundServer(app, proxy_headers=False) as server:
        yield server.base_url


def signed_headers(
    body: bytes, key: Ed25519PrivateKey, now: datetime, nonce: str | None = None
) -> dict[str, str]:
    """The headers that prove ``body`` comes from ``key``'s install, written from the wire
    format in docs/board.md (not imported from the board), so a change of it fails here."""
    nonce = nonce or secrets.token_hex(16)
    at = str(int(now.timestamp()))
    message = f"benchwright-board-post/1\n{at}\n{nonce}\n{hashlib.sha256(body).hexdigest()}"
    return {
        "Content-Type": "application/json",
        "X-Benchwright-Key": key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex(),
        "X-Benchwright-Time": at,
        "X-Benchwright-Nonce": nonce,
        "X-Benchwright-Signature": key.sign(message.encode()).hex(),
    }


class Signer(httpx.Auth):
    """Signs every request of an httpx client with ``key`` at the board's (fake) time."""

    requires_request_body = True

    def __init__(self, clock: Callable[[], datetime], key: Ed25519PrivateKey = KEY) -> None:
        self.clock, self.key = clock, key

    def auth_flow(self, request: httpx.Request) -> Iterator[httpx.Request]:
        request.headers.update(signed_headers(request.content, self.key, self.clock()))
        yield request


def board_client(store: BoardStore) -> Iterator[tuple[httpx.Client, BoardStore]]:
    """A client of a real board over ``store`` that trusts 127.0.0.1 as its proxy and
    signs every post (a fixture's body); the store's engine is disposed of at the end."""
    clock = Clock()
    with (
        serve_board(store, clock, trusted=("127.0.0.1",)) as url,
        httpx.Client(base_url=url, timeout=60, auth=Signer(clock)) as client,
    ):
        yield client, store
    store.engine.dispose()
