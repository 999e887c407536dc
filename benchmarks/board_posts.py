"""The board under load: accepted posts per second, and the board page's p95 at 10,000 entries.

Run: ``.venv/bin/python benchmarks/board_posts.py`` (PostgreSQL too when
``BENCHWRIGHT_TEST_PG`` holds a ``postgresql+psycopg://`` URL; a fresh schema is made
and dropped).

1. Posts per second: POSTs over real HTTP on 127.0.0.1, one after another, each a genuine
   sb-6 payload (70 check rows re-composed by the server) with five 600 KB screenshots
   (3.0 MB decoded, about 4 MB on the wire), signed as ``publish`` signs it (the server
   verifies the signature, claims the handle and spends the nonce); each from its own
   address and install id (through a trusted proxy header) so the rate limit does not stop
   the run.
2. Board p95: 10,000 entries of one scorer version bulk-inserted, then ``GET /`` (the
   board page, first page of 50, sorted by score) and ``GET /api/leaderboard`` 200 times
   each, sequentially; p50 and p95 in milliseconds. Target: p95 <= 100 ms.
Figures are printed; nothing is asserted (timing belongs here, not in tests).
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import statistics
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from sqlalchemy import create_engine, insert, text

from benchwright.board._png import PNG_MAGIC
from benchwright.board.app import create_app
from benchwright.board.db import RunRow
from benchwright.board.migrate import upgrade
from benchwright.board.payload import scorecard_fields
from benchwright.board.signing import new_private_key, sign
from benchwright.board.store import BoardStore
from benchwright.reports.scorecard import scorecard_dict
from benchwright.scoring import compose, defect_rows, load_scorer
from benchwright.services._server import BackgroundServer

ROOT = Path(__file__).resolve().parents[1]
POSTS = 30
ENTRIES = 10_000
PAGE_GETS = 200
SHOT_BYTES = 600_000


def _payload(n: int, started: datetime) -> dict:
    scorer = load_scorer(ROOT / "scorers" / "sb6.yaml")
    fields = scorecard_fields(scorecard_dict(compose(defect_rows(scorer, {}), scorer)))
    shot = base64.b64encode(PNG_MAGIC + secrets.token_bytes(SHOT_BYTES - 8)).decode()
    return {
        **fields,
        "model": "qwen3-coder-30b",
        "nodes": 0,
        "run": {
            "startedAt": started.isoformat(),
            "finishedAt": (started + timedelta(hours=1)).isoformat(),
            "engineEvents": 400,
            "repairRounds": 1,
            "wallSecs": 3600.0,
            "agent": "goose",
            "suite": "vspro",
            "treeSha256": "ab" * 32,
        },
        "poster": {"handle": f"bench-heron-{n:04x}", "installId": f"{n:032x}"},
        "screenshots": [{"name": f"s{i}.png", "png": shot} for i in range(5)],
    }


def _databases() -> Iterator[tuple[str, str]]:
    """(label, URL) of each database to measure; a PostgreSQL schema is dropped after."""
    with tempfile.TemporaryDirectory() as folder:
        yield "sqlite", f"sqlite:///{Path(folder) / 'bench.sqlite'}"
    pg = os.environ.get("BENCHWRIGHT_TEST_PG")
    if not pg:
        print("postgresql: skipped (BENCHWRIGHT_TEST_PG not set)")
        return
    schema = f"bw_bench_{secrets.token_hex(4)}"
    admin = create_engine(pg, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        sep = "&" if "?" in pg else "?"
        yield "postgresql", f"{pg}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))


def _posts_per_second(base: str) -> float:
    now = datetime.now(UTC)
    bodies = [json.dumps(_payload(n, now - timedelta(days=1))).encode() for n in range(POSTS)]
    key = new_private_key()
    with httpx.Client(base_url=base, timeout=60) as client:
        start = time.perf_counter()
        for n, body in enumerate(bodies):
            headers = {"Content-Type": "application/json", "X-Forwarded-For": f"10.9.{n}.1"}
            headers |= sign(body, key, datetime.now(UTC))
            answer = client.post("/api/benchmark-runs", content=body, headers=headers)
            answer.raise_for_status()
        return POSTS / (time.perf_counter() - start)


def _fill(store: BoardStore) -> None:
    posted = datetime(2026, 11, 1)
    rows = [
        {
            "id": f"{n:016x}",
            "scorer_version": "sb-6.0",
            "score": (n * 7919 % 10_000) / 10_000,
            "excellent": False,
            "baseline": False,
            "handle": f"bench-otter-{n:04x}",
            "model": "qwen3-coder-30b",
            "nodes": n % 4,
            "tiers": {"A": 0.9, "B": 0.8, "C": 0.7, "D": 0.6, "J": 0.5},
            "wall_secs": 600.0 + n % 3000,
            "posted_at": posted + timedelta(minutes=n),
        }
        for n in range(ENTRIES)
    ]
    with store.engine.begin() as connection:
        connection.execute(insert(RunRow.__table__), rows)


def _p50_p95(client: httpx.Client, path: str) -> tuple[float, float]:
    times = []
    for _ in range(PAGE_GETS):
        start = time.perf_counter()
        client.get(path).raise_for_status()
        times.append((time.perf_counter() - start) * 1000)
    cuts = statistics.quantiles(times, n=100)
    return cuts[49], cuts[94]


def main() -> None:
    for label, url in _databases():
        store = BoardStore(url)
        upgrade(store.engine)
        app = create_app(store, trusted_proxies=("127.0.0.1",))
        with BackgroundServer(app, proxy_headers=False) as server:
            rate = _posts_per_second(server.base_url)
            print(f"{label}: {rate:.1f} posts/s accepted ({POSTS} posts, 5 x 600 KB screenshots)")
            _fill(store)
            with httpx.Client(base_url=server.base_url, timeout=60) as client:
                for path in ("/", "/api/leaderboard?version=sb-6.0"):
                    p50, p95 = _p50_p95(client, path)
                    print(
                        f"{label}: GET {path} with {ENTRIES + POSTS} entries: "
                        f"p50 {p50:.1f} ms, p95 {p95:.1f} ms (target p95 <= 100 ms)"
                    )
        store.engine.dispose()


if __name__ == "__main__":
    main()
