"""`benchwright vendor meridian` as a real subprocess of the console script."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
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


@pytest.mark.slow
def test_vendor_meridian_serves_docs_and_api_until_terminated(tmp_path):
    port, trace = _free_port(), tmp_path / "trace.jsonl"
    command = [str(BENCHWRIGHT), "vendor", "meridian", "--port", str(port), "--seed", "3"]
    process = subprocess.Popen(
        [*command, "--trace", str(trace)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    try:
        base, reply, deadline = f"http://127.0.0.1:{port}", None, time.monotonic() + READY_S
        while reply is None and time.monotonic() < deadline and process.poll() is None:
            try:
                reply = httpx.get(base + "/v2/payments", timeout=2)
            except httpx.TransportError:
                time.sleep(0.1)
        assert reply is not None, f"not ready within {READY_S} s (exit {process.poll()})"
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
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=5)
    assert process.returncode == 0
    assert "stopped" in output
    assert '"path": "/v2/payments"' in trace.read_text()


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
