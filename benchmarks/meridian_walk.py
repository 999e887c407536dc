"""What a perfect client's walk of the Meridian mock costs, and what the mock adds per request.

Run: ``.venv/bin/python benchmarks/meridian_walk.py``.

1. Wall time of a perfect client (limit 100, both Retry-After forms honoured,
   restart on 410, 10 s timeout then retry) walking all 1,553 rows with the
   contract's delays: once with the traps only, once with the 12 s stall armed.
2. The mock's per-request latency for a 100-row page, p50/p95: over a real
   socket (what a client sees) and in-process through ASGI (the mock's own work).
Figures are printed; nothing is asserted.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from email.utils import parsedate_to_datetime

import httpx

from benchwright.services.meridian import MeridianMock
from benchwright.services.meridian.app import build_app

SAMPLES = 200


def walk(base_url: str, timeout: float = 10.0) -> int:
    """Fetch every row like the docs say; return the number of list requests."""
    cursor, requests = None, 0
    with httpx.Client(base_url=base_url, timeout=timeout) as http:
        while requests < 500:
            requests += 1
            params = {"limit": 100} | ({"cursor": cursor} if cursor else {})
            try:
                reply = http.get("/v2/payments", params=params)
            except httpx.TimeoutException:
                continue
            if reply.status_code == 429:
                value = reply.headers["Retry-After"]
                wait = float(value) if value.isdigit() else (
                    parsedate_to_datetime(value).timestamp() - time.time())  # fmt: skip
                time.sleep(max(0.0, wait))
            elif reply.status_code == 410:
                cursor = None
            else:
                cursor = reply.json()["next_cursor"]
                if cursor is None:
                    return requests
    raise RuntimeError("walk did not finish")


def timed_walk(stall: bool) -> None:
    with MeridianMock() as mock:
        mock.arm_stall(stall)
        started = time.perf_counter()
        requests = walk(mock.base_url)
        elapsed = time.perf_counter() - started
        traps = mock.trap_results()
    label = "traps + 12 s stall" if stall else "traps only"
    print(f"perfect walk, {label:<19} {elapsed:6.2f} s  {requests} list requests  "
          f"ledger retry_after={traps.retry_after} cursor_expiry={traps.cursor_expiry} "
          f"stall={traps.stall}")  # fmt: skip


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"p50 {statistics.median(ordered) * 1000:6.2f} ms  p95 {p95 * 1000:6.2f} ms"


def socket_latency() -> list[float]:
    with MeridianMock() as mock, httpx.Client(base_url=mock.base_url) as http:
        mock.store.traps.nth = 10  # past this phase's traps
        samples = []
        for _ in range(SAMPLES):
            started = time.perf_counter()
            http.get("/v2/payments", params={"limit": 100}).raise_for_status()
            samples.append(time.perf_counter() - started)
    return samples


async def asgi_latency() -> list[float]:
    mock = MeridianMock()
    mock.store.traps.nth = 10
    transport = httpx.ASGITransport(app=build_app(mock))
    samples = []
    async with httpx.AsyncClient(transport=transport, base_url="http://meridian") as http:
        for _ in range(SAMPLES):
            started = time.perf_counter()
            (await http.get("/v2/payments", params={"limit": 100})).raise_for_status()
            samples.append(time.perf_counter() - started)
    return samples


def main() -> None:
    timed_walk(stall=False)
    timed_walk(stall=True)
    print(f"100-row page over a socket ({SAMPLES}x):  {percentiles(socket_latency())}")
    print(f"100-row page in-process ASGI ({SAMPLES}x): {percentiles(asyncio.run(asgi_latency()))}")


if __name__ == "__main__":
    main()
