"""``python -m kitdemo --db PATH --port N``: the notes API of spec.md, stdlib only."""

import argparse
import json
import sqlite3
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Notes:
    """The notes table behind one lock: one connection shared by the server's threads."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, text TEXT)")
        self.lock = threading.Lock()

    def add(self, text: str) -> dict:
        with self.lock:
            cursor = self.db.execute("INSERT INTO notes (text) VALUES (?)", (text,))
        return {"id": cursor.lastrowid, "text": text}

    def all(self) -> list[dict]:
        with self.lock:
            rows = self.db.execute("SELECT id, text FROM notes ORDER BY id").fetchall()
        return [{"id": i, "text": t} for i, t in rows]

    def one(self, note_id: int) -> dict | None:
        return next((n for n in self.all() if n["id"] == note_id), None)


def handler(notes: Notes) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def answer(self, status: int, body: dict) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def error(self, status: int, code: str, message: str) -> None:
            self.answer(status, {"error": {"code": code, "message": message}})

        def do_GET(self) -> None:
            if self.path == "/api/health":
                return self.answer(200, {"status": "ok", "notes": len(notes.all())})
            if self.path == "/api/notes":
                found = notes.all()
                return self.answer(200, {"data": found, "total": len(found)})
            tail = self.path.removeprefix("/api/notes/")
            note = notes.one(int(tail)) if tail.isdigit() and tail != self.path else None
            if note is None:
                return self.error(404, "not_found", f"no note at {self.path}")
            return self.answer(200, note)

        def do_POST(self) -> None:
            if self.path != "/api/notes":
                return self.error(404, "not_found", f"no route {self.path}")
            try:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"] or 0)))
            except (TypeError, ValueError):
                body = None
            text = body.get("text") if isinstance(body, dict) else None
            if not isinstance(text, str) or not text.strip():
                return self.error(400, "bad_request", "want a JSON object with a non-empty text")
            return self.answer(201, notes.add(text))

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser(prog="kitdemo")
    parser.add_argument("--db", required=True)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler(Notes(args.db)))
    server.serve_forever()


if __name__ == "__main__":
    main()
