"""The JSONL request trace: one line per request, phase marker or outbound delivery.

Lines are kept in memory (the ledgers read them) and appended to a file when a
path is given. ``seq`` and ``t`` are taken when a request *arrives*; the line is
written when it completes, so a held request's line lands after later ones and
readers order by ``seq``.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from benchwright.services.meridian.config import API_KEY

HEADERS = {"if_none_match": "if-none-match", "if_match": "if-match"}
HEADERS |= {"idempotency_key": "idempotency-key", "ua": "user-agent"}


def jsonl_line(line: dict) -> str:
    """One trace line as a trace file holds it: JSON and a newline."""
    return json.dumps(line, default=str) + "\n"


def write_lines(lines: Iterable[dict], path: Path) -> None:
    """A snapshot of a trace (`Trace.lines`) as a trace file, written once: how a harness
    keeps the trace of a mock it served in memory, after the mock's clients are gone."""
    path.write_text("".join(jsonl_line(line) for line in lines), encoding="utf-8")


class Trace:
    """Append-only, thread-safe; `lines()` returns a sorted snapshot."""

    def __init__(self, path: Path | None = None, api_key: str = API_KEY) -> None:
        self.path = path
        self.api_key = api_key
        self._lines: list[dict] = []
        self._lock = threading.Lock()
        self._seq = itertools.count(1)
        self.truncate()

    def truncate(self) -> None:
        """Forget every line and empty the file (a fresh serve)."""
        with self._lock:
            self._lines.clear()
            if self.path is not None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.path.write_text("")

    def begin(self, method: str, path: str, query: dict[str, str], headers: Any) -> dict:
        """The common fields of a request line, stamped now."""
        line: dict[str, Any] = {"seq": next(self._seq), "t": time.time()}
        line |= {"method": method, "path": path, "query": query, "status": None}
        line |= {field: headers.get(name) for field, name in HEADERS.items()}
        line["authorized"] = headers.get("authorization") == f"Bearer {self.api_key}"
        return line

    def write(self, line: dict) -> None:
        with self._lock:
            self._lines.append(line)
            if self.path is not None:
                with self.path.open("a", encoding="utf-8") as handle:
                    handle.write(jsonl_line(line))

    def mark(self, name: str) -> None:
        """A phase marker: graders split the trace at these."""
        self._marker({"__phase__": name})

    def control(self, action: str, **extra: Any) -> None:
        """An in-process control call (arm, cap, mutate ...), so the trace explains itself."""
        self._marker({"admin": action, **extra})

    def _marker(self, fields: dict) -> None:
        line = {"seq": next(self._seq), "t": time.time(), **fields}
        self.write(line | {"method": "-", "path": "-", "status": 0, "query": {}})

    def lines(self) -> list[dict]:
        with self._lock:
            return sorted(self._lines, key=lambda line: line["seq"])
