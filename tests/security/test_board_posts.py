"""Red team, issue #24 items 10, 11 and 17: posts the board must refuse, and what it stores.

A real board (uvicorn on 127.0.0.1 over a migrated SQLite file, and PostgreSQL when
``BENCHWRIGHT_TEST_PG`` is set) and real Ed25519 keypairs. Each attack asserts the status
and rule code, that its message names why, and that nothing was stored.

- 10: a handle belongs to the key that first posted it; a second install, a signature over
  another body, an old signature with a new nonce, a stale time or no signature is 403.
- 11: the same signed post twice is 409 (also when sent at once from several threads);
  a post that is not ``application/json`` is 415; a post a browser sent is 403.
- 17: the stored address digest is an HMAC keyed by a secret each board makes when it is
  migrated; a board migrated from 0001 drops the digests made with the public salt.
"""

# ruff: noqa: F811 (the db_url and store fixtures are imported, then named as parameters)

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from alembic import command
from board._posts import KEY, Clock, post, serve_board, signed_headers
from board.conftest import db_url, store  # noqa: F401 (fixtures: SQLite, and PostgreSQL if set)
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import text

from benchwright.board.migrate import _config, head, upgrade
from benchwright.board.store import BoardStore

API = "/api/benchmark-runs"
HANDLE = "crimson-heron-7f3a"
SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def board(store: BoardStore, clock: Clock) -> Iterator[str]:
    with serve_board(store, clock) as url:
        yield url + API


def send(url: str, body: bytes, headers: dict[str, str]) -> httpx.Response:
    return httpx.post(url, content=body, headers=headers, timeout=30)


def encoded(**changes: object) -> bytes:
    return json.dumps(post(**changes)).encode()


def refused(answer: httpx.Response, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code, error
    return str(error["message"])


def runs_of(store: BoardStore, handle: str) -> int:
    with store.engine.connect() as connection:
        return connection.execute(
            text("SELECT count(*) FROM runs WHERE handle = :h"), {"h": handle}
        ).scalar_one()


# --- 10: a handle is bound to the install that claimed it ----------------------------------


def test_a_second_install_cannot_post_under_a_claimed_handle(board, store, clock) -> None:
    mine = encoded()
    assert send(board, mine, signed_headers(mine, KEY, clock())).status_code == 201
    intruder = Ed25519PrivateKey.generate()
    theirs = encoded(install_id="ab" * 16)
    message = refused(send(board, theirs, signed_headers(theirs, intruder, clock())), 403,
                      "handle_claimed")  # fmt: skip
    assert message.startswith(f"handle '{HANDLE}' is claimed by another key")
    # the claimant's own body, re-signed by the intruder: the key decides, not the body
    stolen = refused(send(board, mine, signed_headers(mine, intruder, clock())), 403,
                     "handle_claimed")  # fmt: skip
    assert HANDLE in stolen
    assert runs_of(store, HANDLE) == 1
    again = encoded(model="another-model")
    assert send(board, again, signed_headers(again, KEY, clock())).status_code == 201


def test_a_signature_over_another_body_is_403(board, store, clock) -> None:
    signed_for = encoded(model="model-a")
    headers = signed_headers(signed_for, KEY, clock())
    message = refused(send(board, encoded(model="model-b"), headers), 403, "bad_signature")
    assert "X-Benchwright-Signature" in message
    assert runs_of(store, HANDLE) == 0


def test_an_old_signature_with_a_new_nonce_is_403(board, store, clock) -> None:
    body = encoded()
    headers = signed_headers(body, KEY, clock())
    assert send(board, body, headers).status_code == 201
    forged = {**headers, "X-Benchwright-Nonce": "f" * 32}
    refused(send(board, body, forged), 403, "bad_signature")
    later = {**headers, "X-Benchwright-Time": str(int(headers["X-Benchwright-Time"]) + 1)}
    refused(send(board, body, later), 403, "bad_signature")
    assert runs_of(store, HANDLE) == 1


def test_an_unsigned_post_is_403_naming_the_missing_header(board, store) -> None:
    body = encoded()
    message = refused(send(board, body, {"Content-Type": "application/json"}), 403, "unsigned")
    assert "X-Benchwright-Signature" in message
    half = {"Content-Type": "application/json", "X-Benchwright-Key": "00" * 32}
    assert "X-Benchwright-Time" in refused(send(board, body, half), 403, "unsigned")
    assert runs_of(store, HANDLE) == 0


@pytest.mark.parametrize("skew", [-301, 301])
def test_a_signature_outside_five_minutes_is_403(board, store, clock, skew: int) -> None:
    body = encoded()
    headers = signed_headers(body, KEY, clock() + timedelta(seconds=skew))
    message = refused(send(board, body, headers), 403, "signature_expired")
    assert f"{abs(skew)} s" in message and "300 s" in message
    assert runs_of(store, HANDLE) == 0


@pytest.mark.parametrize(
    ("header", "value"),
    [("X-Benchwright-Key", "zz" * 32), ("X-Benchwright-Nonce", "short"),
     ("X-Benchwright-Time", "soon"), ("X-Benchwright-Signature", "00" * 10)],
)  # fmt: skip
def test_a_malformed_signature_header_is_403_naming_it(board, clock, header, value) -> None:
    body = encoded()
    headers = {**signed_headers(body, KEY, clock()), header: value}
    assert header in refused(send(board, body, headers), 403, "bad_signature_header")


def test_the_baseline_handle_is_reserved(board, store, clock) -> None:
    body = encoded(handle="baseline")
    message = refused(send(board, body, signed_headers(body, KEY, clock())), 403,
                      "handle_reserved")  # fmt: skip
    assert message.startswith("handle 'baseline' is reserved")
    assert runs_of(store, "baseline") == 3  # the three sb-5.2 baselines, nothing more


# --- 11: replays and cross-site posts ------------------------------------------------------


def test_the_same_signed_post_twice_is_409(board, store, clock) -> None:
    body = encoded()
    headers = signed_headers(body, KEY, clock())
    assert send(board, body, headers).status_code == 201
    clock.advance(seconds=299)  # still inside the window: only the nonce refuses it
    message = refused(send(board, body, headers), 409, "replayed")
    assert headers["X-Benchwright-Nonce"] in message
    clock.advance(seconds=2)  # now outside the window (the nonce may be pruned): still refused
    refused(send(board, body, headers), 403, "signature_expired")
    assert runs_of(store, HANDLE) == 1


def test_a_replay_sent_at_once_from_several_threads_is_accepted_once(board, store, clock) -> None:
    body = encoded()
    headers = signed_headers(body, KEY, clock())
    start = threading.Barrier(4)
    statuses: list[int] = []

    def replay() -> None:
        start.wait()
        statuses.append(send(board, body, headers).status_code)

    threads = [threading.Thread(target=replay) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201, 409, 409, 409]
    assert runs_of(store, HANDLE) == 1


def test_nonces_are_kept_through_the_window_and_pruned_after(board, store, clock) -> None:
    def nonces() -> int:
        with store.engine.connect() as connection:
            return connection.execute(text("SELECT count(*) FROM nonces")).scalar_one()

    for minutes in (0, 9, 2):  # posts at +0, +9 and +11 minutes
        clock.advance(minutes=minutes)
        body = encoded(model=f"m{minutes}")
        assert send(board, body, signed_headers(body, KEY, clock())).status_code == 201
    assert nonces() == 2  # the first is 11 minutes old: past twice the window, pruned


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
     "multipart/form-data; boundary=x", None],
)  # fmt: skip
def test_a_post_that_is_not_application_json_is_415(board, store, clock, content_type) -> None:
    """What a hostile page can send cross-site without a preflight, body valid and signed."""
    body = encoded()
    headers = signed_headers(body, KEY, clock())
    del headers["Content-Type"]
    if content_type:
        headers["Content-Type"] = content_type
    message = refused(send(board, body, headers), 415, "unsupported_media_type")
    assert "application/json" in message
    assert runs_of(store, HANDLE) == 0


@pytest.mark.parametrize(
    "browser",
    [{"Origin": "https://evil.example"}, {"Origin": "null"},
     {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Mode": "no-cors"}, "own-origin"],
)  # fmt: skip
def test_a_post_sent_by_a_browser_is_403(board, store, clock, browser) -> None:
    """Even from the board's own origin: the board's pages never post, and a page on a
    rebound DNS name is 'same-origin' to the browser."""
    if browser == "own-origin":
        browser = {"Origin": board.removesuffix(API), "Sec-Fetch-Site": "same-origin"}
    body = encoded()
    headers = {**signed_headers(body, KEY, clock()), **browser}
    assert "browser" in refused(send(board, body, headers), 403, "browser_post")
    assert runs_of(store, HANDLE) == 0


# --- 17: the stored address digest is keyed by a per-board secret --------------------------


def _address_digests(store: BoardStore) -> tuple[list[str], bytes]:
    with store.engine.connect() as connection:
        digests = connection.execute(text("SELECT ip_digest FROM posts")).scalars().all()
        secret = connection.execute(
            text("SELECT value FROM settings WHERE name = 'digest_key'")
        ).scalar_one()
    return list(digests), bytes.fromhex(secret)


def test_the_address_digest_is_keyed_by_a_secret_each_board_makes(tmp_path, clock) -> None:
    found = []
    for name in ("one", "two"):
        board = BoardStore(f"sqlite:///{tmp_path / name}.sqlite")
        upgrade(board.engine)
        with serve_board(board, clock) as url:
            body = encoded()
            assert send(url + API, body, signed_headers(body, KEY, clock())).status_code == 201
        found.append(_address_digests(board))
        board.engine.dispose()
    (one, key_one), (two, key_two) = found
    assert key_one != key_two and len(key_one) == 32 and one != two
    assert one == [hmac.new(key_one, b"127.0.0.1", hashlib.sha256).hexdigest()]
    public = hashlib.sha256(b"benchwright-board/1:127.0.0.1").hexdigest()  # the old scheme
    assert public not in one + two
    for source in SRC.rglob("*.py"):
        assert key_one.hex() not in source.read_text(encoding="utf-8")


def test_migrating_a_0001_board_drops_its_reversible_digests(tmp_path) -> None:
    board = BoardStore(f"sqlite:///{tmp_path / 'old.sqlite'}")
    config = _config()
    with board.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(
            text("INSERT INTO posts (ip_digest, install_digest, at) VALUES (:ip, :i, :at)"),
            {"ip": hashlib.sha256(b"benchwright-board/1:203.0.113.9").hexdigest(),
             "i": "0" * 64, "at": "2026-12-01 10:00:00"},
        )  # fmt: skip
    assert upgrade(board.engine) == ("0001", head())  # later revisions keep 0003's drop
    digests, secret = _address_digests(board)
    assert digests == [] and len(secret) == 32
    assert len(board.leaderboard("sb-5.2").rows) == 3  # the board's entries are kept
