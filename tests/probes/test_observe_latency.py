"""fetch records every exchange; sample_latency and p95 follow the seed's rules."""

from __future__ import annotations

import json
import socket

import pytest

from benchwright.probes.http import client, fetch, p95, sample_latency


def test_fetch_records_status_headers_body_and_timing(base_url):
    with client(base_url) as http:
        obs = fetch(http, "/ok")
    assert obs.status == 200 and obs.succeeded and obs.error is None
    assert obs.header("X-TRACE") == "t1"
    assert obs.content_type == "application/json"
    assert obs.body == b'{"ok":true}'
    assert 0 < obs.elapsed_s < 5 and obs.ended_at > obs.started_at


def test_fetch_records_a_refused_connection_instead_of_raising():
    with socket.socket() as holder:  # a port that was free a moment ago and has no listener
        holder.bind(("127.0.0.1", 0))
        port = holder.getsockname()[1]
    with client(f"http://127.0.0.1:{port}", timeout_s=2) as http:
        obs = fetch(http, "/ok")
    assert obs.status is None and not obs.succeeded
    assert obs.error is not None and obs.error.startswith("ConnectError")


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (list(range(1, 21)), 19),  # n=20: sorted[int(0.95 * 19)] = sorted[18]
        (list(range(10, 0, -1)), 9),  # n=10: sorted[int(8.55)] = sorted[8]; order is irrelevant
        ([5.0] * 10, 5.0),
        (list(range(1, 101)), 95),  # n=100: sorted[int(94.05)] = sorted[94]
    ],
)
def test_p95_is_the_sorted_value_at_the_seed_index(values, expected):
    assert p95(values) == expected


def test_p95_does_not_exist_below_ten_values():
    assert p95(list(range(9))) is None
    assert p95([]) is None
    assert p95([1.0, 2.0], min_count=2) == 1.0


def test_latency_sampler_times_every_request(base_url):
    obs = sample_latency(base_url, "/slow?s=0.03", n=12)
    assert len(obs.samples) == 12 and obs.errors == 0
    assert all(ms >= 30 for ms in obs.success_ms)
    assert obs.p95_ms is not None and obs.p95_ms >= 30


def test_every_sample_uses_a_fresh_connection(base_url):
    # Keep-alive would charge the client's delayed ACK (~40 ms) to the app's p95.
    obs = sample_latency(base_url, "/peer", n=10)
    ports = {json.loads(s.body)["port"] for s in obs.samples}
    assert len(ports) == 10


def test_latency_sampler_excludes_errors_from_the_percentile(base_url):
    obs = sample_latency(base_url, "/every3", n=15)  # 5 of 15 answer 500
    assert obs.errors == 5 and len(obs.success_ms) == 10
    assert obs.p95_ms is not None


def test_latency_is_unmeasurable_when_fewer_than_ten_succeed(base_url):
    half = sample_latency(base_url, "/every2", n=18)  # 9 successes: one short
    assert len(half.success_ms) == 9 and half.p95_ms is None
    dead = sample_latency(base_url, "/always500", n=10)
    assert dead.success_ms == () and dead.p95_ms is None and dead.errors == 10
