"""The vendor the vendorsync reference tests sync from: the real Meridian v1 mock,
started in-process as the Meridian tests start it, with its throttle shortened. Its
fixtures (``vendor``, ``own_vendor``) are in ``tests/conftest.py``: a ``conftest.py`` in
``tests/suites/vendorsync``, a folder that is no package, would be imported as a second
top-level ``conftest`` and shadow the root one for every test that imports from it."""

from __future__ import annotations

from benchwright.services.meridian import MeridianMock, Timing

FAST = Timing(retry_after_secs=0.3, ledger_wait_secs=5.0)
"""A sync through both ``Retry-After`` traps takes about 1.5 s instead of 4 s; the
stall (v2's) is never armed here, so its delay does not matter."""
LIST = "/v1/payments"


def serve_meridian_v1() -> MeridianMock:
    """A started v1 mock, seed 0 (the published fixture), `FAST`; the caller stops it."""
    mock = MeridianMock(0, timing=FAST, version="v1")
    mock.start()
    return mock


def list_lines(mock: MeridianMock, since: int = 0) -> list[dict]:
    """The mock's list requests from trace line ``since`` on, in arrival order."""
    lines = mock.trace.lines()[since:]
    return [line for line in lines if line["method"] == "GET" and line["path"] == LIST]
