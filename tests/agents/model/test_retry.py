"""Retrying against real faults from the scripted server; the clock and the sleeper are
a recorder, so a test asserts the waits the policy chose instead of sitting through them."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from agents.model.scripted import ScriptedModel
from benchwright.agents.model.anthropic_provider import AnthropicProvider
from benchwright.agents.model.retry import Retrying
from benchwright.agents.model.wire import (
    Message,
    ModelFault,
    ModelRefused,
    Provider,
    Reply,
    ToolSpec,
)

GO = [Message("user", "go")]


@dataclass
class Recorder:
    """A monotonic clock that only moves when slept on, and the waits it was asked for."""

    now: float = 0.0
    waits: list[float] = field(default_factory=list)

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds


@dataclass
class TimeoutSpy:
    """Passes calls through, noting the timeout each was given."""

    inner: Provider
    timeouts: list[float] = field(default_factory=list)

    @property
    def endpoint(self) -> str:
        return self.inner.endpoint

    def complete(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None,
        params: Mapping[str, Any], timeout_s: float,
    ) -> Reply:  # fmt: skip
        self.timeouts.append(timeout_s)
        return self.inner.complete(messages, tools, params, timeout_s)


@pytest.fixture(scope="module")
def running() -> Iterator[ScriptedModel]:
    with ScriptedModel([{"text": "hello"}]) as started:
        yield started


@pytest.fixture
def server(running: ScriptedModel) -> ScriptedModel:
    """One server for the module (starting one costs more than the tests), reset."""
    running.requests.clear()
    running.faults.clear()
    return running


def retrying(inner: Provider, recorder: Recorder, **bounds: Any) -> Retrying:
    return Retrying(inner, clock=recorder.clock, sleep=recorder.sleep, jitter=lambda: 0.0,
                    **bounds)  # fmt: skip


def endpoint(server: ScriptedModel, key: str | None = None) -> AnthropicProvider:
    return AnthropicProvider(server.anthropic_url, key or server.key, "m")


def test_a_429_waits_what_retry_after_says_then_succeeds(server: ScriptedModel) -> None:
    recorder = Recorder()
    server.fail_next(429, retry_after="3")
    reply = retrying(endpoint(server), recorder).complete(GO, None, {}, 10)
    assert (reply.text, reply.attempts) == ("hello", 2)
    assert recorder.waits == [3.0]
    assert len(server.requests) == 2


def test_retry_after_is_waited_in_full_plus_at_most_a_tenth(server: ScriptedModel) -> None:
    recorder = Recorder()
    server.fail_next(429, retry_after="3")
    provider = Retrying(endpoint(server), clock=recorder.clock, sleep=recorder.sleep,
                        jitter=lambda: 0.99)  # fmt: skip
    provider.complete(GO, None, {}, 10)
    assert len(recorder.waits) == 1 and 3.0 <= recorder.waits[0] <= 3.3


def test_500s_are_retried_with_a_doubling_backoff(server: ScriptedModel) -> None:
    recorder = Recorder()
    server.fail_next(500)
    server.fail_next(502)
    reply = retrying(endpoint(server), recorder, base_s=2.0).complete(GO, None, {}, 10)
    assert reply.attempts == 3
    assert recorder.waits == [1.0, 2.0]  # half of 2, then of 4: jitter 0 gives the lower half


def test_a_hung_call_times_out_and_the_retry_succeeds(server: ScriptedModel) -> None:
    recorder = Recorder()
    server.fail_next(hang_s=60)
    reply = retrying(endpoint(server), recorder).complete(GO, None, {}, 0.5)
    assert (reply.text, reply.attempts, len(recorder.waits)) == ("hello", 2, 1)


def test_an_endpoint_that_always_hangs_ends_after_the_last_try(server: ScriptedModel) -> None:
    recorder = Recorder()
    server.fail_next(hang_s=60)
    server.fail_next(hang_s=60)
    with pytest.raises(ModelFault) as caught:
        retrying(endpoint(server), recorder, max_attempts=2).complete(GO, None, {}, 0.5)
    assert caught.value.attempts == 2
    assert "2 tries is the limit" in caught.value.message
    assert len(recorder.waits) == 1


def test_a_bad_key_is_refused_at_once_and_never_retried(server: ScriptedModel) -> None:
    recorder = Recorder()
    with pytest.raises(ModelRefused) as caught:
        retrying(endpoint(server, key="wrong"), recorder).complete(GO, None, {}, 10)
    assert (caught.value.status, caught.value.message) == (401, "invalid api key (scripted)")
    assert (caught.value.attempts, recorder.waits, len(server.requests)) == (1, [], 1)


def test_an_unreachable_endpoint_is_refused_and_never_retried() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}"
    recorder = Recorder()
    with pytest.raises(ModelRefused, match="unreachable"):
        retrying(AnthropicProvider(url, "k", "m"), recorder).complete(GO, None, {}, 10)
    assert recorder.waits == []


def test_retries_never_outlive_the_deadline(server: ScriptedModel) -> None:
    recorder = Recorder()
    for _ in range(6):
        server.fail_next(503, retry_after="4")
    spy = TimeoutSpy(endpoint(server))
    provider = retrying(spy, recorder, deadline=10.0)
    with pytest.raises(ModelFault) as caught:
        provider.complete(GO, None, {}, 30)
    # Tries at t=0, 4 and 8; a third wait of 4 s would end past the deadline at 10.
    assert recorder.waits == [4.0, 4.0]
    assert caught.value.attempts == 3 and "wall budget ends" in caught.value.message
    assert recorder.now <= 10.0
    assert spy.timeouts == [10.0, 6.0, 2.0]  # each call's timeout is cut to what is left


def test_a_spent_deadline_makes_no_call(server: ScriptedModel) -> None:
    recorder = Recorder(now=50.0)
    with pytest.raises(ModelFault) as caught:
        retrying(endpoint(server), recorder, deadline=50.0).complete(GO, None, {}, 10)
    assert (caught.value.attempts, server.requests) == (0, [])


def test_a_retry_after_over_the_cap_is_not_hammered(server: ScriptedModel) -> None:
    recorder = Recorder()
    server.fail_next(429, retry_after="3600")
    with pytest.raises(ModelFault) as caught:
        retrying(endpoint(server), recorder, max_wait_s=60).complete(GO, None, {}, 10)
    assert recorder.waits == [] and caught.value.attempts == 1
    assert "asked to wait 3600 s, over the 60 s cap" in caught.value.message


def test_the_waits_of_one_call_stay_within_the_retry_budget(server: ScriptedModel) -> None:
    recorder = Recorder()
    for _ in range(4):
        server.fail_next(503, retry_after="5")
    with pytest.raises(ModelFault) as caught:
        retrying(endpoint(server), recorder, budget_s=12).complete(GO, None, {}, 10)
    assert recorder.waits == [5.0, 5.0]
    assert "retry budget is spent" in caught.value.message


@pytest.fixture
def trickling() -> Iterator[str]:
    """A real endpoint that answers 200 and then one byte at a time, for ever: the SDK's
    timeout (between bytes) never fires."""
    stop = threading.Event()
    listener = socket.create_server(("127.0.0.1", 0))

    def serve(conn: socket.socket) -> None:
        with conn:
            request = b""
            while b"\r\n\r\n" not in request:
                request += conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 1000000\r\n\r\n")  # fmt: skip
            while not stop.wait(0.1):
                try:
                    conn.sendall(b" ")
                except OSError:
                    return

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        listener.close()


def test_an_answer_trickled_past_the_timeout_is_abandoned_as_a_fault(trickling: str) -> None:
    recorder = Recorder()
    provider = retrying(AnthropicProvider(trickling, "k", "m"), recorder, max_attempts=1)
    with pytest.raises(ModelFault) as caught:
        provider.complete(GO, None, {}, 0.5)
    assert "abandoned" in caught.value.message and caught.value.attempts == 1


@dataclass
class FaultingOnce:
    """A provider whose first call fails with the given Retry-After, then answers (for
    values no real header parses to, which another provider's parser might produce)."""

    inner: Provider
    retry_after_s: float
    calls: int = 0

    @property
    def endpoint(self) -> str:
        return self.inner.endpoint

    def complete(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec] | None,
        params: Mapping[str, Any], timeout_s: float,
    ) -> Reply:  # fmt: skip
        self.calls += 1
        if self.calls == 1:
            raise ModelFault(self.endpoint, "busy", 429, self.retry_after_s)
        return self.inner.complete(messages, tools, params, timeout_s)


@pytest.mark.parametrize(("asked", "waits"), [(float("nan"), [0.5]), (-3.0, [0.5])])
def test_an_unreadable_retry_after_falls_back_to_the_backoff(
    server: ScriptedModel, asked: float, waits: list[float]
) -> None:
    recorder = Recorder()
    reply = retrying(FaultingOnce(endpoint(server), asked), recorder).complete(GO, None, {}, 10)
    assert (reply.attempts, recorder.waits) == (2, waits)


def test_an_infinite_retry_after_is_over_the_cap(server: ScriptedModel) -> None:
    recorder = Recorder()
    with pytest.raises(ModelFault, match="over the 60 s cap"):
        retrying(FaultingOnce(endpoint(server), float("inf")), recorder).complete(GO, None, {}, 10)
    assert recorder.waits == []
