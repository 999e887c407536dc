"""`benchwright vendor meridian --api v3` as a real subprocess of the console script."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from v3_client import AUTH

BENCHWRIGHT = Path(sys.executable).with_name("benchwright")
READY_S = 20.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow
def test_vendor_meridian_api_v3_serves_the_v3_docs_and_list_until_terminated(tmp_path):
    port, trace = _free_port(), tmp_path / "trace.jsonl"
    command = [str(BENCHWRIGHT), "vendor", "meridian", "--api", "v3", "--seed", "7",
               "--port", str(port), "--trace", str(trace)]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, env={**os.environ, "NO_COLOR": "1"})  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline, page = time.monotonic() + READY_S, None
        while page is None and time.monotonic() < deadline and process.poll() is None:
            try:
                page = httpx.get(base + "/v3/payments", headers=AUTH, timeout=2)
            except httpx.TransportError:
                time.sleep(0.1)
        assert page is not None and page.status_code == 200 and len(page.json()["data"]) == 64
        assert httpx.get(base + "/v3/docs", timeout=2).text.startswith("# Meridian Payments API v3")
        assert httpx.post(base + "/admin/down", headers=AUTH, timeout=2).status_code == 404
        process.send_signal(signal.SIGTERM)
        output = process.communicate(timeout=15)[0]
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=5)
    assert process.returncode == 0
    assert f"Meridian API v3 mock (seed 7) on {base}" in output and "stopped" in output
    assert '"path": "/v3/payments"' in trace.read_text()
