"""Stand-in services for the tests of an app that is several (sb-7's ledgerd and
notifierd): real stdlib HTTP servers started from a tree, each writing its own file of
the one database directory it is told (``--db-dir``).

``service.py ledger --port N --notifier URL`` answers ``GET /`` and ``GET /peer`` (what its
peer's ``GET /health`` said, or why it could not ask); ``service.py notifier --port M``
answers ``GET /health`` (with the database directory's files); ``service.py both
--ledger-port N --notifier-port M`` serves the two in one process.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx

SERVICE = r"""
import http.server, json, os, sys, threading, urllib.request

mode, args = sys.argv[1], sys.argv[2:]
def flag(name):
    return args[args.index(name) + 1] if name in args else None

db_dir = flag("--db-dir")
with open(os.path.join(db_dir, mode + ".db"), "a") as own:  # each service its own file
    own.write("row\n")

def handler(routes):
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = json.dumps(routes[self.path]()).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass
    return Handler

def peer():
    try:
        with urllib.request.urlopen(flag("--notifier") + "/health", timeout=3) as answer:
            return {"peer": json.loads(answer.read())}
    except Exception as exc:
        return {"unreachable": type(exc).__name__}

def serve(port, routes):
    http.server.ThreadingHTTPServer(("127.0.0.1", port), handler(routes)).serve_forever()

notifier = {"/health": lambda: {"status": "ok", "files": sorted(os.listdir(db_dir))}}
ledger = {"/": lambda: {"ok": True}, "/peer": peer}
if mode == "notifier":
    serve(int(flag("--port")), notifier)
elif mode == "ledger":
    serve(int(flag("--port")), ledger)
else:  # both services in one process
    threading.Thread(target=serve, args=(int(flag("--notifier-port")), notifier),
                     daemon=True).start()
    serve(int(flag("--ledger-port")), ledger)
"""


def service_tree(root: Path) -> Path:
    """``root/tree`` holding ``service.py``, beside an empty ``root/db``."""
    (root / "tree").mkdir()
    (root / "tree" / "service.py").write_text(SERVICE)
    (root / "db").mkdir()
    return root / "tree"


def get(port: int, path: str) -> dict:
    """The JSON a stand-in answers on ``127.0.0.1:<port><path>``."""
    return json.loads(httpx.get(f"http://127.0.0.1:{port}{path}", timeout=10).content)
