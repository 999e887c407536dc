"""Probe clients share one TLS context: a client per exchange (no keep-alive, on purpose)
must not load the CA bundle per exchange (~20 ms of CPU each: a quarter of a services
grading's own CPU before), yet a client still verifies what it would connect to over TLS."""

from __future__ import annotations

import ssl
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest

from benchwright.probes.http import client, fetch
from benchwright.services._boot import BootPolicy
from benchwright.services._readiness import wait_ready
from benchwright.services.tls import shared_tls_context


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[object]]:
    """Every CA-bundle load from now on (the shared context made afresh first)."""
    seen: list[object] = []
    real = ssl.SSLContext.load_verify_locations

    def counted(self: ssl.SSLContext, *args: Any, **kwargs: Any) -> None:
        seen.append(args or kwargs)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", counted)
    shared_tls_context.cache_clear()
    yield seen
    shared_tls_context.cache_clear()


def test_many_probe_clients_and_a_readiness_poll_load_the_bundle_once(
    loads: list[object], base_url: str
) -> None:
    for _ in range(5):
        with client(base_url) as http:
            assert fetch(http, "/ok").status == 200
    app = subprocess.Popen(["sleep", "30"])  # the process readiness watches for an exit
    try:
        ready = wait_ready(app.pid, f"{base_url}/ok", BootPolicy(budget_s=5.0), time.monotonic())
    finally:
        app.kill()
        app.wait()
    assert ready.healthy_after_s is not None
    assert len(loads) == 1


def test_the_shared_context_verifies_certificates() -> None:
    context = shared_tls_context()
    assert context.verify_mode is ssl.CERT_REQUIRED and context.check_hostname
    assert context.cert_store_stats()["x509_ca"] > 0
