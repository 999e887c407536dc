"""The under-stream instruments against real loopback servers: the SSE listener hears a
stream's batches (and nothing from a server without one), and 8 real reader threads racing
a burst grade a correct server on its ladder but a server that answers a wrong page under
load at 0. The burst here ends only once every read was served, so the overlap is 100% by
construction, never by timing."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from sb7_observations import perfect
from sb7_perf_records import page

from benchwright.model import Status
from benchwright.probes.http import concurrent_reads
from benchwright.suites.sb7.checks import CheckSettings, build_table
from benchwright.suites.sb7.perf_obs import LIST_50, UNDER_STREAM, StreamListen, UnderStreamObs
from benchwright.suites.sb7.phases._sse import Listener
from benchwright.suites.sb7.phases._waits import until

WAIT_S = 20.0
READS = 48


@contextmanager
def serving(answer: Callable[[BaseHTTPRequestHandler], None]) -> Iterator[str]:
    """A threaded loopback server answering every GET with ``answer``; its base URL."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            answer(self)

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


# ---------------------------------------------------------------- the SSE listener


def test_the_listener_hears_each_batch_and_its_payments_but_not_heartbeats() -> None:
    release, done = threading.Event(), threading.Event()

    def stream(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "text/event-stream")
        h.end_headers()
        h.wfile.write(b'event: heartbeat\ndata: {"at": "now"}\n\n')
        h.wfile.flush()
        release.wait(WAIT_S)
        for n, ids in enumerate((["pay_1"], ["pay_2", "pay_3"]), 1):
            batch = {"batch": n, "records": [{"id": i} for i in ids]}
            h.wfile.write(f"data: {json.dumps(batch)}\r\n\r\n".encode())
            h.wfile.flush()
        done.wait(WAIT_S)

    ids = {"pay_1", "pay_2", "pay_3", "pay_9"}
    with serving(stream) as url, Listener(url, 5.0) as heard:
        release.set()
        assert until(lambda: heard.heard(ids) == 3, WAIT_S, 0.05)
        found = heard.result(ids)
        done.set()
    assert found == StreamListen(200, 2, 3, None)


def test_the_listener_records_a_server_without_a_stream() -> None:
    def missing(h: BaseHTTPRequestHandler) -> None:
        h.send_response(404)
        h.send_header("Content-Type", "application/json")
        h.end_headers()
        h.wfile.write(b'{"error": {"code": "not_found"}}')

    with serving(missing) as url, Listener(url, 5.0) as heard:
        assert until(lambda: heard.result(set()).status == 404, WAIT_S, 0.05)
    assert heard.result({"pay_1"}) == StreamListen(404, 0, 0, None)


def test_the_listener_records_a_refused_connection() -> None:
    with serving(lambda h: None) as url:
        pass  # the server is gone: its port refuses
    with Listener(url, 5.0) as heard:
        pass
    found = heard.result(set())
    assert found.status is None and found.error is not None


# ---------------------------------------------------------------- readers under a burst


def _race(body: Callable[[int], bytes]) -> UnderStreamObs:
    """8 x 6 real reads of a server whose n-th answer is ``body(n)``; the burst ends
    when the last read was served."""
    served, lock, counter = threading.Event(), threading.Lock(), [0]

    def pages(h: BaseHTTPRequestHandler) -> None:
        with lock:
            counter[0] += 1
            n = counter[0]
        content = body(n)
        h.send_response(200)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(content)))
        h.end_headers()
        h.wfile.write(content)
        if n >= READS:
            served.set()

    with serving(pages) as url:
        load = concurrent_reads(url, LIST_50, lambda: served.wait(WAIT_S), readers=8,
                                per_reader=6, start_after_s=0.0,
                                background_wait_s=WAIT_S)  # fmt: skip
    return UnderStreamObs(load, perfect().truth.total, (), StreamListen(200), None)


@pytest.mark.parametrize("check_id", ["p_under_stream", "e_under_load_latency"])
def test_correct_pages_under_the_burst_are_graded_on_the_ladder(check_id: str) -> None:
    good = page(perfect().truth)
    obs = perfect().with_phase(UNDER_STREAM, _race(lambda n: good))
    found = build_table().evaluate_one(check_id, obs, CheckSettings())
    assert found.status in (Status.PASS, Status.FAIL) and "wrong" not in found.evidence
    assert found.evidence["overlap"] == 1.0 and found.evidence["timing_score"] == found.score


@pytest.mark.parametrize("check_id", ["p_under_stream", "e_under_load_latency"])
def test_one_wrong_page_under_the_burst_scores_zero(check_id: str) -> None:
    """Every 16th answer under load reports one payment too few: fast, and wrong."""
    obs = perfect()
    good, short = page(obs.truth), page(obs.truth, total=obs.truth.total - 1)
    obs = obs.with_phase(UNDER_STREAM, _race(lambda n: short if n % 16 == 0 else good))
    found = build_table().evaluate_one(check_id, obs, CheckSettings())
    assert (found.status, found.score) == (Status.FAIL, 0.0)
    assert found.evidence["wrong"] == 3 and "3/48 reads wrong under load" in found.detail
