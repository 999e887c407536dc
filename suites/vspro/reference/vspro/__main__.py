"""``python -m vspro --db PATH --port N``: bind, serve, then register the webhook.

Environment: ``MERIDIAN_BASE_URL`` (default http://127.0.0.1:8787) and
``MERIDIAN_API_KEY`` (default sk_test_meridian). ``VSPRO_VENDOR_TIMEOUT`` may
lower the vendor request timeout below its 10 s ceiling (for fast tests).

Boot never depends on the vendor: the port is bound and serving local data before
the first vendor call, and webhook registration runs on a background thread that
keeps trying. A database file that does not exist yet is created.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys

from vspro.api import WEBHOOK_PATH, App, make_server
from vspro.meridian import TIMEOUT_S, MeridianClient
from vspro.store import Store

DEFAULT_VENDOR = "http://127.0.0.1:8787"
DEFAULT_KEY = "sk_test_meridian"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m vspro", description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="vspro.db", help="SQLite file (created if missing)")
    parser.add_argument("--port", type=int, default=8790, help="port on 127.0.0.1")
    parser.add_argument("--host", default="127.0.0.1", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    vendor = os.environ.get("MERIDIAN_BASE_URL") or DEFAULT_VENDOR
    timeout = float(os.environ.get("VSPRO_VENDOR_TIMEOUT") or TIMEOUT_S)
    client = MeridianClient(vendor, os.environ.get("MERIDIAN_API_KEY") or DEFAULT_KEY, timeout)
    webhook_url = f"http://127.0.0.1:{args.port}{WEBHOOK_PATH}"
    app = App(Store(args.db), client, webhook_url)
    server = make_server(app, args.host, args.port)  # bound and listening from here on
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(
        f"vspro: serving http://{args.host}:{args.port}/ (db {args.db}, vendor {vendor})",
        flush=True,
    )
    app.webhooks.register_in_background(client, webhook_url)
    try:
        server.serve_forever(poll_interval=0.2)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
