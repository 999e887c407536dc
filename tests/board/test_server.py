"""The body cap (413 before parsing) over real HTTP, and the ``benchwright board`` commands
as real subprocesses: migrate (empty, repeated, outdated), serve, remove."""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from conftest import BENCHWRIGHT, CliRunner

from benchwright.board.app import BODY_CAP, create_app
from benchwright.board.store import BoardStore
from benchwright.services._server import BackgroundServer
from board._posts import Clock, Signer, post

API = "/api/benchmark-runs"
JSON = {"Content-Type": "application/json"}


@pytest.fixture
def small_cap(store: BoardStore) -> Iterator[str]:
    app = create_app(store, clock=Clock(), body_cap=1000)
    with BackgroundServer(app, proxy_headers=False) as server:
        yield server.base_url + API


def test_a_declared_length_over_the_cap_is_413_before_parsing(small_cap: str) -> None:
    answer = httpx.post(small_cap, content=b"x" * 1001, headers=JSON, timeout=30)
    assert answer.status_code == 413
    assert answer.json()["error"] == {
        "code": "body_too_large",
        "message": "body is 1001 bytes; the cap is 1000",
    }


def test_a_body_of_exactly_the_cap_is_read_and_checked(small_cap: str) -> None:
    answer = httpx.post(small_cap, content=b"x" * 1000, headers=JSON, timeout=30)
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "unsigned"


def test_a_chunked_body_is_counted_as_it_arrives(small_cap: str) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(5):
            yield b"y" * 300

    answer = httpx.post(small_cap, content=chunks(), headers=JSON, timeout=30)
    assert answer.status_code == 413
    message = answer.json()["error"]["message"]
    counted = re.fullmatch(r"body is at least (\d+) bytes; the cap is 1000", message)
    assert counted and 1000 < int(counted.group(1)) <= 1500, answer.text


def test_the_default_cap_refuses_a_larger_body(store: BoardStore) -> None:
    with BackgroundServer(create_app(store), proxy_headers=False) as server:
        answer = httpx.post(server.base_url + API, content=b"z" * (BODY_CAP + 1), headers=JSON,
                            timeout=60)  # fmt: skip
    assert answer.status_code == 413 and f"the cap is {BODY_CAP}" in answer.text


def test_migrate_on_an_empty_sqlite_then_again_is_a_no_op(cli: CliRunner, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'b.sqlite'}"
    first = cli("board", "migrate", "--db", url)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == f"{url}: upgraded from empty to revision 0004"
    again = cli("board", "migrate", "--db", url)
    assert again.stdout.strip() == f"{url}: already at revision 0004"
    rows = sqlite3.connect(tmp_path / "b.sqlite").execute(
        "SELECT id, score, baseline FROM runs WHERE scorer_version = 'sb-5.2' ORDER BY score"
    )
    assert rows.fetchall() == [
        ("baseline-claude-haiku-4-5", 0.7861, 1),
        ("baseline-claude-sonnet-5", 0.9692, 1),
        ("baseline-claude-opus-5", 0.9755, 1),
    ]


def test_migrate_defaults_to_the_data_dir(cli: CliRunner, tmp_path: Path) -> None:
    done = cli("board", "migrate", env={"XDG_DATA_HOME": str(tmp_path / "data")})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "data" / "benchwright" / "board.sqlite").is_file()


def test_remove_a_run_and_a_missing_one(cli: CliRunner, db_url: str) -> None:
    assert cli("board", "migrate", "--db", db_url).returncode == 0
    gone = cli("board", "remove", "baseline-claude-opus-5", "--db", db_url)
    assert gone.returncode == 0 and gone.stdout.strip() == "removed run baseline-claude-opus-5"
    assert BoardStore(db_url).run("baseline-claude-opus-5") is None
    again = cli("board", "remove", "baseline-claude-opus-5", "--db", db_url)
    assert again.returncode == 1
    assert again.stderr.strip().endswith("no run 'baseline-claude-opus-5'")


def test_removing_a_run_removes_its_rows_and_screenshots(store: BoardStore) -> None:
    from benchwright.board.payload import Payload

    run_id = store.add(Payload.model_validate(post()), "127.0.0.1", Clock()())
    assert store.screenshot(run_id, 0) is not None
    assert store.remove(run_id) and store.run(run_id) is None
    assert store.screenshot(run_id, 0) is None
    with store.engine.connect() as connection:
        left = connection.exec_driver_sql(
            f"SELECT count(*) FROM check_rows WHERE run_id = '{run_id}'"
        ).scalar()
    assert left == 0


def test_serve_refuses_a_database_behind_head(cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)")
        db.execute("INSERT INTO alembic_version VALUES ('0000')")
    url = f"sqlite:///{path}"
    refused = cli("board", "serve", "--db", url, "--port", "1")
    assert refused.returncode == 3
    assert refused.stderr.strip() == (
        f"error: {url}: database is at revision 0000, not 0004; "
        f"run 'benchwright board migrate --db {url}' first"
    )


def test_serve_refuses_a_scorers_folder_with_no_scorer(cli: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    refused = cli("board", "serve", "--scorers", str(tmp_path / "empty"), "--port", "1")
    assert refused.returncode == 2
    assert refused.stderr.strip() == (
        f"error: --scorers {tmp_path / 'empty'}: no scorer config here, so every post would be "
        "refused as an unknown scorer version; pass the folder holding sb6.yaml and the rest"
    )


def _now() -> datetime:
    return datetime.now(UTC)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.slow
def test_serve_migrates_an_empty_database_and_accepts_a_post(tmp_path: Path) -> None:
    port = _free_port()
    url = f"sqlite:///{tmp_path / 'served.sqlite'}"
    server = subprocess.Popen(
        [str(BENCHWRIGHT), "board", "serve", "--db", url, "--port", str(port)],
        cwd=Path(__file__).resolve().parents[2],
        env={**os.environ},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                scorers = httpx.get(f"{base}/api/scorers", timeout=5)
                break
            except httpx.TransportError:
                assert server.poll() is None and time.monotonic() < deadline
                time.sleep(0.2)
        assert scorers.json()["versions"] == ["sb-5.2"]
        answer = httpx.post(f"{base}{API}", json=post(), timeout=30, auth=Signer(_now))
        assert answer.status_code == 201, answer.text
        assert httpx.get(answer.json()["url"].replace("/runs/", f"{API}/")).status_code == 200
    finally:
        server.terminate()
        server.wait(timeout=30)
