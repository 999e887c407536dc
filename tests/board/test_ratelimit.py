"""Five accepted posts per rolling 24 h per client address and per install id, counted in
the database, with a clock the test moves; X-Forwarded-For believed only from a trusted
proxy. Served over real HTTP on 127.0.0.1, so the socket peer is 127.0.0.1."""

from __future__ import annotations

import httpx
import pytest

from benchwright.board.ratelimit import client_address
from benchwright.board.store import BoardStore
from board._posts import Clock, Signer, post, serve_board

API = "/api/benchmark-runs"
DAY = 24 * 3600


def install(n: int) -> str:
    return f"{n:032x}"


def send(url: str, clock: Clock, body: dict, forwarded_for: str | None = None) -> httpx.Response:
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    return httpx.post(url + API, json=body, headers=headers, timeout=30, auth=Signer(clock))


def test_the_sixth_post_from_one_address_is_429_with_retry_after(store: BoardStore) -> None:
    clock = Clock()
    with serve_board(store, clock) as url:
        for n in range(5):
            assert send(url, clock, post(install_id=install(n))).status_code == 201
            clock.advance(minutes=1)
        clock.advance(minutes=5)  # the first post was 10 minutes ago
        sixth = send(url, clock, post(install_id=install(9)))
        assert sixth.status_code == 429
        assert sixth.headers["retry-after"] == str(DAY - 600)
        assert sixth.json()["error"] == {
            "code": "rate_limited",
            "message": f"rate limit: 5 posts per rolling 24 h per client address; "
            f"retry after {DAY - 600} s",
        }
        clock.advance(seconds=DAY - 601)
        assert send(url, clock, post(install_id=install(9))).status_code == 429
        clock.advance(seconds=1)  # the first post has left the window
        assert send(url, clock, post(install_id=install(9))).status_code == 201


def test_the_sixth_post_of_one_install_id_is_429_from_any_address(store: BoardStore) -> None:
    clock = Clock()
    with serve_board(store, clock, trusted=("127.0.0.1",)) as url:
        for n in range(5):
            assert send(url, clock, post(), forwarded_for=f"198.51.100.{n}").status_code == 201
        sixth = send(url, clock, post(), forwarded_for="198.51.100.77")
        assert sixth.status_code == 429 and "per install id" in sixth.json()["error"]["message"]
        assert sixth.headers["retry-after"] == str(DAY)
        other = send(url, clock, post(install_id=install(1)), forwarded_for="198.51.100.77")
        assert other.status_code == 201


def test_x_forwarded_for_from_an_untrusted_peer_is_ignored(store: BoardStore) -> None:
    clock = Clock()
    with serve_board(store, clock) as url:
        for n in range(5):
            forged = f"203.0.113.{n}"
            assert send(url, clock, post(install_id=install(n)), forged).status_code == 201
        sixth = send(url, clock, post(install_id=install(7)), forwarded_for="203.0.113.99")
        assert sixth.status_code == 429
        assert "per client address" in sixth.json()["error"]["message"]


def test_rejected_posts_do_not_use_up_the_day(store: BoardStore) -> None:
    clock = Clock()
    with serve_board(store, clock) as url:
        for _ in range(6):
            assert send(url, clock, post(score=0.99)).status_code == 422
        assert send(url, clock, post()).status_code == 201


def test_the_window_survives_a_restart_and_a_removed_run(store: BoardStore) -> None:
    clock = Clock()
    with serve_board(store, clock) as url:
        ids = [send(url, clock, post(install_id=install(n))).json()["id"] for n in range(5)]
    assert store.remove(ids[0])
    with serve_board(
        BoardStore(store.engine.url.render_as_string(hide_password=False)), clock
    ) as url:
        assert send(url, clock, post(install_id=install(8))).status_code == 429


@pytest.mark.parametrize(
    ("peer", "header", "trusted", "address"),
    [
        ("10.0.0.1", "1.2.3.4", (), "10.0.0.1"),
        ("10.0.0.1", "1.2.3.4", ("10.0.0.0/8",), "1.2.3.4"),
        ("10.0.0.1", "6.6.6.6, 1.2.3.4", ("10.0.0.1",), "1.2.3.4"),
        ("10.0.0.1", "6.6.6.6, 1.2.3.4, 10.0.0.2", ("10.0.0.0/8",), "1.2.3.4"),
        ("192.0.2.9", "1.2.3.4", ("10.0.0.0/8",), "192.0.2.9"),
        ("10.0.0.1", None, ("10.0.0.0/8",), "10.0.0.1"),
    ],
)
def test_the_client_address_is_the_right_most_untrusted_hop(
    peer: str, header: str | None, trusted: tuple[str, ...], address: str
) -> None:
    assert client_address(peer, header, trusted) == address
