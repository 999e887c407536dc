"""Red team, issue #24 item 14: a DNS-rebinding page reading the local viewer or a board.

Once ``evil.example`` resolves to 127.0.0.1, a browser sends that page's requests to the
server with ``Host: evil.example:<port>`` as same-origin requests. Here ``benchwright
view`` and ``benchwright board serve`` run as real processes, the requests carry the
rebinding page's ``Host``, and each must be refused (421, or 400 for a header that is
not one) with none of the served data in the answer; the server's own names still work.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from conftest import BENCHWRIGHT
from viewer.conftest import make_card, serving

ROOT = Path(__file__).resolve().parents[2]
REBOUND = ["evil.example", "127.0.0.1.evil.example", "localhost.evil.example", "10.0.0.1"]


@pytest.fixture(scope="module")
def viewer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    folder = tmp_path_factory.mktemp("cards") / "secret-card"
    folder.mkdir()
    make_card(folder, "secret-card", {"server_runs": 0.5})
    with serving(folder) as url:
        yield url, int(url.rsplit(":", 1)[1])


def raw_get(port: int, request: bytes) -> bytes:
    """One request as raw bytes (httpx always sends a Host header of its own)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


@pytest.mark.parametrize("name", REBOUND)
@pytest.mark.parametrize("path", ["/", "/cards/secret-card"])
def test_the_viewer_refuses_a_rebound_host_and_shows_nothing(viewer, name, path) -> None:
    url, port = viewer
    answer = httpx.get(url + path, headers={"Host": f"{name}:{port}"})
    assert answer.status_code == 421, answer.text[:300]
    assert "secret-card" not in answer.text and "server_runs" not in answer.text
    assert f"does not answer to '{name}'" in answer.text


def test_the_viewer_refuses_a_missing_or_malformed_host(viewer) -> None:
    _, port = viewer
    missing = raw_get(port, b"GET / HTTP/1.0\r\n\r\n")
    assert missing.startswith(b"HTTP/1.1 400") and b"secret-card" not in missing
    malformed = raw_get(port, b"GET / HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n")
    assert malformed.startswith(b"HTTP/1.1 400") and b"secret-card" not in malformed


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "LOCALHOST", "[::1]"])
def test_the_viewer_answers_its_own_names_with_or_without_port(viewer, name) -> None:
    url, port = viewer
    for host in (name, f"{name}:{port}"):
        answer = httpx.get(url + "/", headers={"Host": host})
        assert answer.status_code == 200 and "secret-card" in answer.text, host


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``board serve`` allowing one extra name, ``board.example``; yields its base URL."""
    port = _free_port()
    url = f"sqlite:///{tmp_path_factory.mktemp('board') / 'b.sqlite'}"
    command = [
        "board",
        "serve",
        "--db",
        url,
        "--port",
        str(port),
        "--allowed-host",
        "board.example",
    ]
    server = subprocess.Popen([str(BENCHWRIGHT), *command], cwd=ROOT, env={**os.environ})
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:  # readiness: the first answer (the port was free a moment ago)
            try:
                httpx.get(f"{base}/api/scorers", timeout=5)
                break
            except httpx.TransportError:
                assert server.poll() is None and time.monotonic() < deadline
                time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.parametrize("name", REBOUND)
@pytest.mark.parametrize("path", ["/", "/api/leaderboard", "/runs/baseline-claude-opus-5"])
def test_board_serve_refuses_a_rebound_host_and_shows_nothing(board, name, path) -> None:
    answer = httpx.get(board + path, headers={"Host": name})
    assert answer.status_code == 421, answer.text[:300]
    assert "claude" not in answer.text.lower() and "0.9755" not in answer.text


def test_board_serve_refuses_a_rebound_post(board) -> None:
    answer = httpx.post(board + "/api/benchmark-runs", headers={"Host": "evil.example"}, json={})
    assert answer.status_code == 421 and "does not answer to 'evil.example'" in answer.text


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "localhost:8000", "board.example", "Board.Example:443"]
)
def test_board_serve_answers_its_own_and_allowed_names(board, host) -> None:
    answer = httpx.get(board + "/runs/baseline-claude-opus-5", headers={"Host": host})
    assert answer.status_code == 200 and "0.9755" in answer.text, host


def test_view_allowed_host_adds_a_name_and_refuses_the_rest(tmp_path: Path) -> None:
    folder = tmp_path / "lan-card"
    folder.mkdir()
    make_card(folder, "lan-card", {})
    with serving(folder, "--allowed-host", "mybox.lan") as url:
        mine = httpx.get(url + "/cards/lan-card", headers={"Host": "MyBox.lan:8080"})
        assert mine.status_code == 200 and "lan-card" in mine.text
        other = httpx.get(url + "/cards/lan-card", headers={"Host": "evil.example"})
        assert other.status_code == 421 and "lan-card" not in other.text
