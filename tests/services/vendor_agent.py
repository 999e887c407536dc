"""A build agent for tests (run as ``command:python vendor_agent.py WORKSPACE PROMPT_FILE ...``).

From inside its sandbox it reads the vendor's address from its rendered prompt, fetches
the docs page and makes one authenticated call, probes what it must not reach, waits at
an optional barrier (so two trials provably hold the vendor's port at once), fetches the
docs again, optionally copies a reference build into the workspace, and prints what it
saw as one JSON line (the trial's answer). Standard library only.

Arguments: WORKSPACE PROMPT_FILE [--probe PORT]... [--tunnel HOST:PORT]... [--barrier SOCKET]
[--copy DIR]. ``--tunnel`` asks ``$HTTPS_PROXY`` to CONNECT there and sends a line through.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import sys
import urllib.error
import urllib.request
from pathlib import Path


def _get(url: str, key: str | None = None) -> dict:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=20) as r:
            return {"status": r.status, "body": r.read(4096).decode(errors="replace")}
    except urllib.error.HTTPError as exc:
        return {"status": exc.code, "body": ""}
    except OSError as exc:
        return {"status": None, "error": f"{type(exc).__name__}: {exc}"}


def _reachable(port: int) -> str:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            return "connected"
    except OSError as exc:
        return f"{type(exc).__name__}"


def _tunnel(target: str) -> dict:
    proxy = os.environ.get("HTTPS_PROXY", "")
    match = re.fullmatch(r"http://127\.0\.0\.1:(\d+)", proxy)
    if not match:
        return {"status": None, "error": f"no proxy: {proxy!r}"}
    try:
        with socket.create_connection(("127.0.0.1", int(match.group(1))), timeout=10) as sock:
            sock.sendall(f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n\r\n".encode())
            head = b""
            while b"\r\n\r\n" not in head and (data := sock.recv(4096)):
                head += data
            status = int(head.split(b" ", 2)[1])
            if status != 200:
                return {"status": status}
            sock.sendall(b"ping\n")
            return {"status": status, "echo": sock.recv(64).decode()}
    except OSError as exc:
        return {"status": None, "error": f"{type(exc).__name__}: {exc}"}


def _barrier(path: str) -> str:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(300)
        sock.connect(path)
        return sock.recv(16).decode()


def main(argv: list[str]) -> None:
    workspace, prompt_file, *rest = argv
    prompt = Path(prompt_file).read_text()
    base = re.search(r"http://127\.0\.0\.1:\d+", prompt).group(0)
    key = re.search(r"sk_test_\w+", prompt).group(0)
    docs_url = re.search(re.escape(base) + r"/(v\d)/docs", prompt)
    version, docs_url = docs_url.group(1), docs_url.group(0)
    options: dict[str, list[str]] = {}
    for flag, value in zip(rest[::2], rest[1::2], strict=True):
        options.setdefault(flag, []).append(value)
    seen = {
        "base": base,
        "docs": _get(docs_url),
        "payments": _get(base + f"/{version}/payments?limit=2", key),
        "admin": _get(base + "/admin/phase"),
        "probes": {p: _reachable(int(p)) for p in options.get("--probe", [])},
        "tunnels": {t: _tunnel(t) for t in options.get("--tunnel", [])},
    }
    if "--barrier" in options:
        seen["barrier"] = _barrier(options["--barrier"][0])
        seen["docs_again"] = _get(docs_url)["status"]
    for source in options.get("--copy", []):
        shutil.copytree(source, Path(workspace) / Path(source).name)
    seen["docs"]["body"] = seen["docs"]["body"][:200]
    seen["payments"]["body"] = seen["payments"]["body"][:200]
    print(json.dumps(seen))


if __name__ == "__main__":
    main(sys.argv[1:])
