"""`benchwright vendor meridian` as a real subprocess of the console script."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
READY_S = 20.0
CONTROLS = re.compile(
    r"controls: POST (http://127\.0\.0\.1:\d+)/admin/<action> "
    r"with 'Authorization: Bearer ([^'\s]+)'"
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def _vendor(*args: str) -> Iterator[tuple[subprocess.Popen[str], str, list[str]]]:
    """``benchwright vendor meridian ARGS`` on a free port for the block: the process, its
    base URL, and a list that gets its remaining output once the block's end SIGTERMs it."""
    port, output = _free_port(), []
    command = [str(BENCHWRIGHT), "vendor", "meridian", *args, "--port", str(port)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, env={**os.environ, "NO_COLOR": "1"})  # fmt: skip
    try:
        yield process, f"http://127.0.0.1:{port}", output
        process.send_signal(signal.SIGTERM)
        output.append(process.communicate(timeout=15)[0])
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=5)


def _first_reply(process: subprocess.Popen[str], url: str) -> httpx.Response:
    """GET ``url`` until the server started as ``process`` answers (bounded)."""
    deadline = time.monotonic() + READY_S
    while time.monotonic() < deadline and process.poll() is None:
        try:
            return httpx.get(url, timeout=2)
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError(f"not ready within {READY_S} s (exit {process.poll()})")


@pytest.mark.slow
def test_vendor_meridian_serves_docs_and_api_until_terminated(tmp_path):
    trace = tmp_path / "trace.jsonl"
    with _vendor("--seed", "3", "--trace", str(trace)) as (process, base, output):
        reply = _first_reply(process, base + "/v2/payments")
        assert reply.status_code == 200 and len(reply.json()["data"]) == 25
        assert reply.json()["total"] != 1553  # seed 3 is not the published fixture
        assert "# Meridian API v2" in httpx.get(base + "/v2/docs", timeout=2).text
        assert httpx.post(base + "/admin/halfset", json={"on": True}).status_code == 404
        banner, announced = _up_to_controls(process)  # their address and token, printed
        assert f"on {base}" in banner
        control, token = announced.group(1), announced.group(2)
        auth = {"Authorization": f"Bearer {token}"}
        capped = httpx.post(f"{control}/admin/halfset", json={"on": True}, headers=auth)
        assert capped.json()["ok"] and capped.json()["visible_rows"] < reply.json()["total"]
        assert httpx.post(f"{control}/admin/halfset", json={"on": True}).status_code == 401
    assert process.returncode == 0
    assert "stopped" in output[0]
    assert '"path": "/v2/payments"' in trace.read_text()


@pytest.mark.slow
def test_vendor_meridian_api_v1_serves_the_v1_docs_and_list():
    with _vendor("--api", "v1") as (process, base, output):
        assert _first_reply(process, base + "/v1/payments").json()["total"] == 247
        assert httpx.get(base + "/v1/docs", timeout=2).text.startswith("# Meridian API v1")
        banner, _ = _up_to_controls(process)
        assert f"Meridian API v1 mock (seed 0) on {base}" in banner
    assert process.returncode == 0 and "stopped" in output[0]


def test_an_unknown_api_version_is_a_one_line_error(cli):
    result = cli("vendor", "meridian", "--api", "v9")
    assert result.returncode != 0
    assert len(result.stderr.strip().splitlines()) == 1
    assert "--api" in result.stderr and "'v9'" in result.stderr and "v1, v2" in result.stderr


def _up_to_controls(process: subprocess.Popen[str]) -> tuple[str, re.Match[str]]:
    """The server's output up to the line announcing its controls, and that line's match."""
    assert process.stdout is not None
    seen = []
    for line in process.stdout:
        seen.append(line)
        if found := CONTROLS.search(line):
            return "".join(seen), found
    raise AssertionError(f"no controls line in {seen}")


@pytest.mark.slow
def test_a_taken_port_is_a_one_line_error(cli):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        result = cli("vendor", "meridian", "--port", str(holder.getsockname()[1]))
    assert result.returncode == 3
    assert result.stderr.strip().startswith("error: cannot bind 127.0.0.1:")
    assert len(result.stderr.strip().splitlines()) == 1
