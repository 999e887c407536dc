"""A started Meridian mock with short delays, and scripted clients to drive it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

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


def _serving(version: str, trace: Path | None = None) -> Iterator[MeridianMock]:
    """A started mock of API ``version`` (seed 0, `FAST`), its controls served too."""
    with MeridianMock(0, timing=FAST, trace_path=trace, version=version) as started:
        started.start_control()
        yield started


@pytest.fixture(scope="session")
def served(tmp_path_factory) -> Iterator[MeridianMock]:
    """One server for the session (starting and stopping uvicorn costs ~0.2 s)."""
    yield from _serving("v2", tmp_path_factory.mktemp("meridian") / "trace.jsonl")


@pytest.fixture
def mock(served: MeridianMock) -> MeridianMock:
    """Seed 0 with every delay shrunk, reset to a fresh start for each test.

    The slow test proves the contract's default delays.
    """
    served.reset()
    return served


def _http(base_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base_url, timeout=5.0) as http:
        yield http


@pytest.fixture
def client(mock: MeridianMock) -> Iterator[httpx.Client]:
    yield from _http(mock.base_url)


@pytest.fixture
def control(mock: MeridianMock) -> Iterator[httpx.Client]:
    """The HTTP controls (``/admin/*``): their own listener, the mock's token sent."""
    auth = {"Authorization": f"Bearer {mock.control_token}"}
    with httpx.Client(base_url=mock.control_url, headers=auth, timeout=5.0) as http:
        yield http


@pytest.fixture(scope="session")
def served_v1() -> Iterator[MeridianMock]:
    """One v1 server for the session, delays shrunk as for v2."""
    yield from _serving("v1")


@pytest.fixture
def mock_v1(served_v1: MeridianMock) -> MeridianMock:
    """The Meridian v1 mock (seed 0), reset to a fresh start for each test."""
    served_v1.reset()
    return served_v1


@pytest.fixture
def client_v1(mock_v1: MeridianMock) -> Iterator[httpx.Client]:
    yield from _http(mock_v1.base_url)
