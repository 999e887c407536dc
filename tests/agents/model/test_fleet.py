"""A fleet over real endpoints: least busy first, counted across threads and processes,
refusing endpoints left out, and a killed worker never leaving its endpoint busy.

Concurrency is made certain, not hoped for: the scripted servers run in this process,
so a script turn can wait on a barrier until every conversation has a call in flight.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from agents.model.scripted import ScriptedModel
from benchwright.agents.model.anthropic_provider import AnthropicProvider
from benchwright.agents.model.fleet import Fleet
from benchwright.agents.model.wire import Message, ModelFault, ModelRefused, ToolSpec

SHELL = ToolSpec("shell", "run a command", {"type": "object", "properties": {}})
KEY = "sk-test-scripted"
SYNC_S = 30
"""How long a barrier or event waits before the test fails instead of hanging."""


def fleet(urls: list[str], state_dir: Path, key: str = KEY) -> Fleet:
    return Fleet([AnthropicProvider(url, key, "m") for url in urls], state_dir)


def gathered(parties: int) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A script turn that answers only once ``parties`` calls are in flight together."""
    barrier = threading.Barrier(parties, timeout=SYNC_S)

    def turn(body: dict[str, Any]) -> dict[str, Any]:
        barrier.wait()
        return {"tool": "shell", "args": {"command": "ls"}}

    return turn


def converse(provider: Fleet, turns: int) -> list[str]:
    """Play ``turns`` rounds of a conversation; the endpoints that answered each."""
    history = [Message("user", "go")]
    served = []
    for _ in range(turns):
        reply = provider.complete(history, [SHELL], {}, SYNC_S)
        served.append(reply.endpoint)
        history.append(Message("assistant", reply.text, reply.tool_calls))
        history += [Message("tool", "ok", tool_call_id=c.id) for c in reply.tool_calls]
    return served


@pytest.fixture
def pair() -> Iterator[tuple[ScriptedModel, ScriptedModel]]:
    first, second = ScriptedModel(key=KEY), ScriptedModel(key=KEY)
    with first, second:
        yield first, second


def closed_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


def test_four_conversations_in_threads_split_their_calls_over_two_endpoints(
    pair: tuple[ScriptedModel, ScriptedModel], tmp_path: Path
) -> None:
    first, second = pair
    script = [gathered(4), {"tool": "shell", "args": {"command": "pwd"}}, {"text": "done"}]
    first.script = second.script = script
    urls = [first.anthropic_url, second.anthropic_url]
    results: list[list[str]] = []
    threads = [
        threading.Thread(target=lambda: results.append(converse(fleet(urls, tmp_path), 3)))
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(SYNC_S)
    assert len(results) == 4
    openers = sorted(conversation[0] for conversation in results)
    assert openers == sorted(urls * 2)  # all four in flight at once: two on each
    assert len(first.requests) + len(second.requests) == 12
    assert first.requests and second.requests
    assert fleet(urls, tmp_path).busy() == {urls[0]: 0, urls[1]: 0}
    written = [path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()]
    assert written and not any(KEY.encode() in data for data in written)


def _call_once(urls: list[str], state_dir: str, answers: Any) -> None:
    """A worker process: one trial's call through its own fleet."""
    reply = fleet(urls, Path(state_dir)).complete([Message("user", "go")], [SHELL], {}, SYNC_S)
    answers.put(reply.endpoint)


def test_calls_from_two_worker_processes_are_counted_together(
    pair: tuple[ScriptedModel, ScriptedModel], tmp_path: Path
) -> None:
    first, second = pair
    first.script = second.script = [gathered(2)]  # one barrier over both servers
    urls = [first.anthropic_url, second.anthropic_url]
    spawn = multiprocessing.get_context("spawn")
    answers = spawn.Queue()
    workers = [spawn.Process(target=_call_once, args=(urls, str(tmp_path), answers))
               for _ in range(2)]  # fmt: skip
    for worker in workers:
        worker.start()
    served = sorted(answers.get(timeout=SYNC_S) for _ in workers)
    for worker in workers:
        worker.join(SYNC_S)
    # Alone, each process would pick the first endpoint; counted together, one each.
    assert served == sorted(urls)
    assert (len(first.requests), len(second.requests)) == (1, 1)


def test_a_call_held_in_another_process_sends_calls_elsewhere_until_it_is_killed(
    pair: tuple[ScriptedModel, ScriptedModel], tmp_path: Path
) -> None:
    first, second = pair
    entered, release = threading.Event(), threading.Event()

    def held(body: dict[str, Any]) -> dict[str, Any]:
        entered.set()
        release.wait(SYNC_S)
        return {"text": "too late"}

    first.script = [held]
    urls = [first.anthropic_url, second.anthropic_url]
    spawn = multiprocessing.get_context("spawn")
    answers = spawn.Queue()  # held here: the child unpickles it after start() returns
    worker = spawn.Process(target=_call_once, args=(urls, str(tmp_path), answers))
    worker.start()
    try:
        assert entered.wait(SYNC_S)
        here = fleet(urls, tmp_path)
        assert here.busy() == {urls[0]: 1, urls[1]: 0}
        # Least busy first: the second endpoint, call after call, although it has by
        # now started more calls than the first (which wins ties).
        assert converse(here, 3) == [urls[1]] * 3
        assert worker.pid is not None
        os.kill(worker.pid, signal.SIGKILL)
        worker.join(SYNC_S)
        assert worker.exitcode == -signal.SIGKILL
        assert here.busy() == {urls[0]: 0, urls[1]: 0}
        assert not list(tmp_path.glob("*/*.busy"))  # the dead call's file is gone
        first.script = []  # the first endpoint answers at once again
        assert converse(here, 1) == [urls[0]]  # idle, and fewer calls started
    finally:
        release.set()


def test_an_endpoint_that_refuses_is_left_out_and_the_call_goes_on(
    pair: tuple[ScriptedModel, ScriptedModel], tmp_path: Path
) -> None:
    first, second = pair
    first.key = "a-key-this-fleet-does-not-hold"
    urls = [first.anthropic_url, second.anthropic_url]
    provider = fleet(urls, tmp_path)
    opening = provider.complete([Message("user", "go")], None, {}, SYNC_S)
    assert (opening.endpoint, opening.attempts) == (urls[1], 2)
    provider.complete([Message("user", "again")], None, {}, SYNC_S)
    assert (len(first.requests), len(second.requests)) == (1, 2)
    assert provider.served == [urls[1]]


def test_when_every_endpoint_refuses_the_error_names_each(
    pair: tuple[ScriptedModel, ScriptedModel], tmp_path: Path
) -> None:
    first, _ = pair
    unreachable = closed_url()
    provider = fleet([first.anthropic_url, unreachable], tmp_path, key="wrong")
    with pytest.raises(ModelRefused) as caught:
        provider.complete([Message("user", "go")], None, {}, SYNC_S)
    message = caught.value.message
    assert f"{first.anthropic_url}: 401 invalid api key (scripted)" in message
    assert f"{unreachable}: unreachable" in message
    assert set(caught.value.details["refused"]) == {first.anthropic_url, unreachable}
    assert caught.value.attempts == 2
    assert provider.served == []
    with pytest.raises(ModelRefused) as again:  # no endpoint left: no call made
        provider.complete([Message("user", "go")], None, {}, SYNC_S)
    assert again.value.attempts == 0 and again.value.message == message
    assert len(first.requests) == 1


def test_a_fault_is_raised_as_is_and_leaves_the_endpoint_in(
    pair: tuple[ScriptedModel, ScriptedModel], tmp_path: Path
) -> None:
    first, second = pair
    first.fail_next(503, message="overloaded")
    provider = fleet([first.anthropic_url, second.anthropic_url], tmp_path)
    with pytest.raises(ModelFault, match="overloaded"):
        provider.complete([Message("user", "go")], None, {}, SYNC_S)
    assert provider.busy() == {first.anthropic_url: 0, second.anthropic_url: 0}
    provider.complete([Message("user", "go")], None, {}, SYNC_S)  # to the second: fewer started
    provider.complete([Message("user", "go")], None, {}, SYNC_S)  # the first is still in
    assert (len(first.requests), len(second.requests)) == (2, 1)


def test_endpoints_of_a_fleet_must_differ(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="must differ"):
        fleet(["http://127.0.0.1:1", "http://127.0.0.1:1/"], tmp_path)
