"""The driver the ``client`` phase runs in a subprocess confined like the app (never in the
grader's process): it imports the entrant's ``vendorsync.meridian.MeridianClient`` from
the tree on ``PYTHONPATH``, calls it as spec §4 says the harness will, writes what it
saw as JSON to ``--db`` and then answers ``GET`` with 200 on ``--port`` until it is
stopped, which is how the kit's app runner learns it is done.

Standard library only: the sandbox sees the interpreter, the tree and this file's
directory, nothing of benchwright.
"""

import http.server
import json
import os
import sys
import uuid

CREATE_AMOUNT = 1234
CREATE_CURRENCY = "EUR"


def attempt(call):
    """``{"ok": value}`` or ``{"error": "Type: message"}``: the client's exception is data."""
    try:
        return {"ok": call()}
    except Exception as exc:  # the entrant's code may raise anything: record it
        return {"error": f"{type(exc).__name__}: {exc}"[:500]}


def scalar(value):
    """A returned value as JSON can carry it, with its Python type's name."""
    shown = value if isinstance(value, (int, float, str, bool, type(None))) else repr(value)
    return {"type": type(value).__name__, "value": shown}


def payments(value):
    """What ``fetch_all_payments()`` returned: its ids in order and its amounts' types."""
    if not isinstance(value, list):
        return {"type": type(value).__name__, "count": None, "ids": [], "amount_types": []}
    rows = [p for p in value if isinstance(p, dict)]
    return {
        "type": "list",
        "count": len(value),
        "ids": [str(p.get("id")) for p in rows],
        "amount_types": sorted({type(p.get("amount_minor")).__name__ for p in rows}),
        "non_objects": len(value) - len(rows),
    }


def probe():
    try:
        from vendorsync.meridian import MeridianClient

        client = MeridianClient(os.environ["MERIDIAN_BASE_URL"], os.environ["MERIDIAN_API_KEY"])
    except Exception as exc:
        return {"error": f"cannot construct MeridianClient: {type(exc).__name__}: {exc}"[:500]}
    key = f"benchwright-{uuid.uuid4().hex}"

    def create():
        return scalar(client.create_payment(CREATE_AMOUNT, CREATE_CURRENCY, key))

    return {
        "fetch_all_payments": attempt(lambda: payments(client.fetch_all_payments())),
        "total_count": attempt(lambda: scalar(client.total_count())),
        "creates": [attempt(create), attempt(create)],
    }


class Done(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"status": "done"}')

    def log_message(self, *args):
        return None


def main():
    args = dict(zip(sys.argv[1::2], sys.argv[2::2], strict=False))
    report = probe()
    with open(args["--db"] + ".part", "w", encoding="utf-8") as out:
        json.dump(report, out)
    os.replace(args["--db"] + ".part", args["--db"])
    http.server.HTTPServer(("127.0.0.1", int(args["--port"])), Done).serve_forever()


if __name__ == "__main__":
    main()
