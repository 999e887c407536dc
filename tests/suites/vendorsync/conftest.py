"""Fixtures of the vendorsync reference tests: the Meridian v1 mock they sync from."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from vendor_mock import serve_meridian_v1

from benchwright.services.meridian import MeridianMock


@pytest.fixture(scope="session")
def served_meridian_v1() -> Iterator[MeridianMock]:
    """One v1 mock for the session (each start costs a server)."""
    mock = serve_meridian_v1()
    yield mock
    mock.stop()


@pytest.fixture(scope="module")
def vendor(served_meridian_v1: MeridianMock) -> MeridianMock:
    """The session's mock, reset (rows, traps, trace) for each test module."""
    served_meridian_v1.reset()
    return served_meridian_v1


@pytest.fixture
def own_vendor() -> Iterator[MeridianMock]:
    """A fresh mock of its own, for a test that must not disturb the module's vendor."""
    mock = serve_meridian_v1()
    yield mock
    mock.stop()
