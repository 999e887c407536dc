"""A started Meridian mock with short delays, and scripted clients to drive it."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from benchwright.services.meridian import MeridianMock, Timing

FAST = Timing(
    stall_secs=0.8,
    retry_after_secs=0.3,
    ledger_wait_secs=5.0,
    handshake_timeout=2.0,
    delivery_timeout=2.0,
)


@pytest.fixture(scope="session")
def served(tmp_path_factory) -> Iterator[MeridianMock]:
    """One server for the session (starting and stopping uvicorn costs ~0.2 s)."""
    trace = tmp_path_factory.mktemp("meridian") / "trace.jsonl"
    with MeridianMock(0, timing=FAST, trace_path=trace) as started:
        started.start_control()
        yield started


@pytest.fixture
def mock(served: MeridianMock) -> MeridianMock:
    """Seed 0 with every delay shrunk, reset to a fresh start for each test.

    The slow test proves the contract's default delays.
    """
    served.reset()
    return served


@pytest.fixture
def client(mock: MeridianMock) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=mock.base_url, timeout=5.0) as http:
        yield http


@pytest.fixture
def control(mock: MeridianMock) -> Iterator[httpx.Client]:
    """The HTTP controls (``/admin/*``): their own listener, the mock's token sent."""
    auth = {"Authorization": f"Bearer {mock.control_token}"}
    with httpx.Client(base_url=mock.control_url, headers=auth, timeout=5.0) as http:
        yield http
