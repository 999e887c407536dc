"""``python -m vendorsync --db PATH --port N``: open the store and serve.

The vendor is read from ``MERIDIAN_BASE_URL`` and ``MERIDIAN_API_KEY``. Starting never
calls the vendor, so the app serves what it has even while the vendor is down; the
database file is created when it does not exist yet.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys

from vendorsync.api import App, make_server
from vendorsync.meridian import MeridianClient
from vendorsync.store import Store

DEFAULT_VENDOR = "http://127.0.0.1:8787"
DEFAULT_KEY = "sk_test_meridian"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m vendorsync", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--db", required=True, help="SQLite file (created if missing)")
    parser.add_argument("--port", type=int, required=True, help="port on 127.0.0.1")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    vendor = os.environ.get("MERIDIAN_BASE_URL") or DEFAULT_VENDOR
    client = MeridianClient(vendor, os.environ.get("MERIDIAN_API_KEY") or DEFAULT_KEY)
    server = make_server(App(Store(args.db), client), "127.0.0.1", args.port)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"vendorsync: http://127.0.0.1:{args.port}/ (db {args.db}, vendor {vendor})", flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
