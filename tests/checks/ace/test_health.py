"""C2 against the reference service, a dead URL, and a real server that answers 503 first."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from benchwright.checks.ace import health
from benchwright.checks.ace._env import AceEnv
from benchwright.model import Status

from ._trading_builders import DEAD_URL, NO_ENGINE, env_for, materialize, serving

FAST = 0.01


@pytest.fixture
def flapping() -> Iterator[tuple[str, list[int]]]:
    """A real HTTP server whose /health answers the statuses in ``plan`` in turn (then 503)."""
    plan: list[int] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(plan.pop(0) if plan else 503)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", plan
    finally:
        server.shutdown()
        server.server_close()


def test_the_reference_is_healthy_on_the_first_poll(tmp_path):
    with serving(materialize(None, tmp_path), tmp_path) as base_url:
        rows = health.run(env_for(tmp_path, base_url), {"C2", "F1"}, backoff_s=FAST)

    assert list(rows) == ["C2"]
    assert rows["C2"].status is Status.PASS
    assert rows["C2"].detail == f"GET {base_url}/health -> 200 on attempt 1"


def test_a_stack_that_turns_healthy_within_six_polls_passes(tmp_path, flapping):
    base_url, plan = flapping
    plan.extend([503, 502, 200])

    row = health.run(env_for(tmp_path, base_url), {"C2"}, backoff_s=FAST)["C2"]

    assert row.status is Status.PASS
    assert row.detail.endswith("-> 200 on attempt 3")
    assert row.evidence["seen"] == ["status 503", "status 502"]


def test_a_stack_that_stays_unhealthy_fails_after_six_polls(tmp_path, flapping):
    base_url, plan = flapping
    plan.extend([503] * 6 + [200])  # healthy only on a seventh poll, which never comes

    row = health.run(env_for(tmp_path, base_url), {"C2"}, backoff_s=FAST)["C2"]

    assert row.status is Status.FAIL
    assert row.detail == f"GET {base_url}/health: no 200 in 6 attempts; last: status 503"


def test_a_dead_url_fails_with_the_reason(tmp_path):
    row = health.run(env_for(tmp_path, DEAD_URL), {"C2"}, backoff_s=FAST)["C2"]

    assert row.status is Status.FAIL
    assert row.detail.endswith("no 200 in 6 attempts; last: connection refused")
    assert len(row.evidence["seen"]) == health.ATTEMPTS


def test_no_base_url_is_skipped_and_unwanted_is_silent(tmp_path):
    env = AceEnv(tmp_path, NO_ENGINE)

    row = health.run(env, {"C2"})["C2"]

    assert row.status is Status.SKIPPED
    assert row.detail == f"no stack: {NO_ENGINE.reason}"
    assert health.run(env, {"F1"}) == {}
