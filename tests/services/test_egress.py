"""The allow-listing egress proxy: CONNECT to a listed host only; everything else refused.

Unit tests drive a real `Bridge`'s ``egress.sock``; the trial test runs an agent in the
build vendor's namespace that tunnels through ``$HTTPS_PROXY`` to a listed "provider"
(an echo server on the host) and is refused for an unlisted port."""

from __future__ import annotations

import json
import socket
import threading

import pytest

from benchwright.services._bridge import Bridge
from benchwright.services._egress import EGRESS_SOCKET, allow_list


@pytest.fixture(scope="module")
def echo():
    """A "provider" on the host: echoes one line per connection."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.sendall(conn.recv(64).upper())

    threading.Thread(target=serve, daemon=True).start()
    yield server.getsockname()[1]
    server.close()


def _ask(bridge: Bridge, head: bytes, then: bytes = b"") -> bytes:
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(15)
        sock.connect(str(bridge.directory / EGRESS_SOCKET))
        sock.sendall(head)
        answer = sock.recv(4096)
        if then and answer.startswith(b"HTTP/1.1 200"):
            sock.sendall(then)
            answer += sock.recv(64)
        return answer


@pytest.fixture
def bridge(echo):
    with Bridge("127.0.0.1", None, None, allow_list([f"127.0.0.1:{echo}"])) as opened:
        yield opened


def test_a_listed_host_is_tunnelled(bridge, echo):
    answer = _ask(bridge, f"CONNECT 127.0.0.1:{echo} HTTP/1.1\r\n\r\n".encode(), b"ping\n")
    assert answer == b"HTTP/1.1 200 Connection established\r\n\r\nPING\n"


@pytest.mark.parametrize(
    ("head", "status"),
    [
        (b"CONNECT 127.0.0.1:1 HTTP/1.1\r\n\r\n", b"403"),  # another port of the same host
        (b"CONNECT localhost:{echo} HTTP/1.1\r\n\r\n", b"403"),  # another name for it
        (b"GET http://127.0.0.1:{echo}/ HTTP/1.1\r\n\r\n", b"405"),  # plain HTTP proxying
        (b"CONNECT 127.0.0.1:{echo} HTTP/1.1\r\n" + b"X: y\r\n" * 2000 + b"\r\n", b"400"),
    ],
)
def test_anything_else_is_refused(bridge, echo, head, status):
    answer = _ask(bridge, head.replace(b"{echo}", str(echo).encode()))
    assert answer.split(b" ", 2)[1] == status


@pytest.mark.parametrize("entry", ["", ":443", "host:https"])
def test_a_bad_allow_list_entry_is_refused(entry):
    with pytest.raises(ValueError, match="want HOST or HOST:PORT"):
        allow_list([entry])


def test_a_listed_host_means_port_443_unless_it_names_one():
    assert allow_list(["API.example.com", "h:8443"]) == {("api.example.com", 443), ("h", 8443)}


def test_an_agent_in_the_vendors_namespace_reaches_only_its_listed_provider(tmp_path, echo):
    from test_build_vendor import SCRIPT, vendor_suite

    from benchwright.agents import build_agent
    from benchwright.dsl import load_suite
    from benchwright.execution import TrialOptions, run_trial

    suite = load_suite(vendor_suite(tmp_path))
    task = suite.task("build")
    words = f"--tunnel 127.0.0.1:{echo} --tunnel 127.0.0.1:1 --probe {echo}"
    agent = build_agent(f"command:python {SCRIPT} {{workspace}} {{prompt_file}} {words}", [task])
    options = TrialOptions(agent_egress=(f"127.0.0.1:{echo}",))
    result = run_trial(task, suite.tiers["build"], agent, 1, options)
    assert result.verdict == "passed", (result.error, result.log[-2000:])
    seen = json.loads(result.answer)
    assert seen["tunnels"][f"127.0.0.1:{echo}"] == {"status": 200, "echo": "PING\n"}
    assert seen["tunnels"]["127.0.0.1:1"] == {"status": 403}
    assert seen["probes"] == {str(echo): "ConnectionRefusedError"}  # directly: still nothing
    assert seen["docs"]["status"] == 200  # the vendor is direct (NO_PROXY), as before


def test_a_preset_names_its_provider_and_egress_overrides_it():
    from benchwright.agents import build_agent

    assert build_agent("claude-code", []).egress == ("api.anthropic.com",)
    assert build_agent("codex", []).egress == ("api.openai.com",)
    assert build_agent("command:true", []).egress == ()


def test_a_bad_agent_egress_is_refused_before_anything_runs(tmp_path):
    from test_build_vendor import vendor_suite

    from benchwright.errors import SpecError
    from benchwright.execution import plan_run
    from benchwright.execution.isolation import IsolationRequest

    with pytest.raises(SpecError, match="--agent-egress: egress host ':1'"):
        plan_run(vendor_suite(tmp_path), "nop", out=tmp_path / "runs",
                 isolation=IsolationRequest(egress=(":1",)))  # fmt: skip
    assert not (tmp_path / "runs").exists()
