"""What the network bridge costs a request: the same app reached directly and through it.

Run: ``.venv/bin/python benchmarks/relay_latency.py [REQUESTS]`` (default 400).

A stdlib HTTP app answers ``/api/health``; it is booted unconfined (the probe's
connection reaches it directly) and sandboxed (the probe's connection crosses the
grader's relay, ``app.sock`` and the sandbox's relay into the app's own network
namespace). Each request opens a fresh connection, as the probes do, so the figure
includes the relays' per-connection setup. The vendor direction is the same pair of
relays the other way round. Nothing is asserted: timing belongs here.
"""

from __future__ import annotations

import http.client
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchwright.sandbox import UNCONFINED, Confinement, unavailable_reason
from benchwright.services.app import AppUnderTest
from benchwright.services.ports import lease_port

APP = r"""
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b'{"ok": true}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
"""


def _timings(port: int, n: int) -> list[float]:
    samples = []
    for _ in range(n):
        started = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/api/health", headers={"Connection": "close"})
        conn.getresponse().read()
        conn.close()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def _measure(confinement: Confinement, root: Path, n: int) -> list[float]:
    tree = root / confinement.isolation
    tree.mkdir()
    (tree / "app.py").write_text(APP)
    with lease_port() as lease:
        app = AppUnderTest("{python} app.py {port}", tree=tree, db=root / "db" / "x.db",
                           port=lease.port, log_path=root / f"{confinement.isolation}.log",
                           confinement=confinement)  # fmt: skip
        with app:
            _timings(lease.port, 20)  # warm up
            return _timings(lease.port, n)


def main(n: int) -> None:
    if reason := unavailable_reason():
        sys.exit(f"no sandbox here: {reason}")
    with tempfile.TemporaryDirectory() as tmp:
        direct = _measure(UNCONFINED, Path(tmp), n)
        bridged = _measure(Confinement(), Path(tmp), n)
    for name, samples in (("direct", direct), ("bridged", bridged)):
        ordered = sorted(samples)
        p95 = ordered[int(0.95 * (len(ordered) - 1))]
        print(f"{name:8} median {statistics.median(samples):.3f} ms  p95 {p95:.3f} ms  (n={n})")
    added = statistics.median(bridged) - statistics.median(direct)
    print(f"the bridge adds {added:.3f} ms per request (median, fresh connection each)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 400)
