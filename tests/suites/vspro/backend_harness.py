"""Drive the vspro reference app against the in-process Meridian mock, as a grader would.

`boot` starts the golden app (``python -m vspro --db {db} --port {port}``) with
`AppUnderTest`; `call` speaks JSON to it and refuses any float on the wire;
`sync_window` slices the mock's trace between two phase markers.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchwright.services.app import AppUnderTest
from benchwright.services.meridian import API_KEY, LIST_PATH, Timing
from benchwright.services.ports import lease_port

REFERENCE = Path(__file__).resolve().parents[3] / "suites" / "vspro" / "reference"
COMMAND = "{python} -m vspro --db {db} --port {port}"
FAST = Timing(stall_secs=3.0, retry_after_secs=0.5)
"""Short vendor delays; the app's client timeout (below) stays shorter than the stall."""
FAST_CLIENT_TIMEOUT_S = "1.5"
NO_VENDOR = "http://127.0.0.1:9"  # discard port: nothing listens there


class FloatOnTheWire(ValueError):
    """A response carried a JSON float; money and counts must be integers."""


def _refuse_float(text: str) -> float:
    raise FloatOnTheWire(f"float {text!r} on the wire")


@dataclass(frozen=True)
class Reply:
    status: int
    content_type: str
    body: object
    elapsed_ms: float


def call(
    base: str, path: str, method: str = "GET", body: object = None, timeout: float = 60
) -> Reply:
    """One request; the JSON body is parsed with floats refused (non-JSON stays bytes)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, headers, raw = response.status, response.headers, response.read()
    except urllib.error.HTTPError as err:
        with err:
            status, headers, raw = err.code, err.headers, err.read()
    elapsed = (time.perf_counter() - started) * 1000
    content_type = headers.get("Content-Type", "")
    parsed: object = raw
    if "json" in content_type:
        parsed = json.loads(raw, parse_float=_refuse_float)
    return Reply(status, content_type, parsed, elapsed)


def p95(samples: list[float]) -> float:
    """The scorer's p95: the sorted sample at index ``int(0.95 * (n - 1))``."""
    ordered = sorted(samples)
    return ordered[int(0.95 * (len(ordered) - 1))]


def median(samples: list[float]) -> float:
    return statistics.median(samples)


@contextmanager
def boot(
    tmp_path: Path,
    vendor_url: str,
    db_name: str = "graded.db",
    client_timeout: str | None = FAST_CLIENT_TIMEOUT_S,
) -> Iterator[AppUnderTest]:
    """The golden app on a leased port and a fresh database; stopped on exit."""
    env = {"MERIDIAN_BASE_URL": vendor_url, "MERIDIAN_API_KEY": API_KEY}
    if client_timeout is not None:
        env["VSPRO_VENDOR_TIMEOUT"] = client_timeout
    with (
        lease_port() as lease,
        AppUnderTest(
            COMMAND, tree=REFERENCE, db=tmp_path / db_name, port=lease.port, env=env
        ) as app,
    ):
        yield app


@contextmanager
def synced(tree: Path, tmp_path: Path) -> Iterator[Any]:
    """``tree`` booted on a fresh db beside a fresh fast mock and synced once, with the
    grader's context over both: yields ``(mock, app, ctx)``."""
    from benchwright.services.meridian import MeridianMock
    from benchwright.suites.vspro.context import COMMAND as GRADER_COMMAND
    from benchwright.suites.vspro.context import GradeContext, GradeSettings

    with (
        MeridianMock(seed=0, timing=FAST) as mock,
        lease_port() as lease,
        AppUnderTest(GRADER_COMMAND, tree=tree, db=tmp_path / "graded.db", port=lease.port,
                     env={"MERIDIAN_BASE_URL": mock.base_url, "MERIDIAN_API_KEY": API_KEY},
                     log_path=tmp_path / "app.log") as app,
    ):  # fmt: skip
        assert call(app.base_url, "/api/sync", "POST", timeout=120).status == 200
        yield mock, app, GradeContext(tree, tmp_path, app, mock, GradeSettings())


def wait_for(probe: Callable[[], object], timeout: float = 10.0, every: float = 0.05) -> object:
    """Poll until ``probe()`` is truthy; return its value (or the last falsy one)."""
    deadline = time.monotonic() + timeout
    value = probe()
    while not value and time.monotonic() < deadline:
        time.sleep(every)
        value = probe()
    return value


def registered(base: str) -> bool:
    return bool(call(base, "/api/health").body["webhook"]["registered"])


def sync_window(lines: list[dict], start: str, end: str | None = None) -> list[dict]:
    """Vendor list GETs between the phase marker ``start`` and the next marker ``end``."""
    window, inside = [], False
    for line in sorted(lines, key=lambda line: line["seq"]):
        phase = line.get("__phase__")
        if phase == start:
            inside = True
        elif inside and end is not None and phase == end:
            break
        elif inside and line["method"] == "GET" and line["path"] == LIST_PATH:
            window.append(line)
    return window


def all_rows(base: str, limit: int = 200) -> list[dict]:
    """Every local payment, paged through the API."""
    rows, offset = [], 0
    while True:
        page = call(base, f"/api/payments?limit={limit}&offset={offset}").body
        rows += page["data"]
        offset += limit
        if offset >= page["total"]:
            return rows


@contextmanager
def reference_modules() -> Iterator[None]:
    """Make the reference's ``vspro`` package importable in-process, then forget it again."""
    sys.path.insert(0, str(REFERENCE))
    try:
        yield
    finally:
        sys.path.remove(str(REFERENCE))
        for name in [n for n in sys.modules if n == "vspro" or n.startswith("vspro.")]:
            del sys.modules[name]
