"""What a probe client costs to make: httpx's own TLS context per client against the
harness's shared one (`services.tls`).

Run: ``.venv/bin/python benchmarks/probe_clients.py [CLIENTS]`` (default 200, about the
number one grading of sb-7's services makes: a client per exchange, no keep-alive).

Each client is made and closed, nothing sent: the figure is the CPU of making it, which
is what a probe pays per exchange before the request. Nothing is asserted: timing
belongs here.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import httpx

from benchwright.probes.http import client
from benchwright.services.tls import shared_tls_context


def cpu_ms_per_client(make: Callable[[], httpx.Client], count: int) -> float:
    started = time.process_time()
    for _ in range(count):
        make().close()
    return (time.process_time() - started) * 1000 / count


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    shared_tls_context()  # made once, as in a grading: not charged per client
    own = cpu_ms_per_client(lambda: httpx.Client(trust_env=False), count)
    shared = cpu_ms_per_client(lambda: client("http://127.0.0.1:9"), count)
    print(f"{count} clients, CPU per client: own TLS context {own:.2f} ms, "
          f"shared {shared:.2f} ms; per {count}: {own * count / 1000:.2f} s against "
          f"{shared * count / 1000:.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
