"""Every way an app under test might ask its vendor address for the mock's control plane.

Standard library only: the red-team tests run it from the host against the mock's public
listener, and copy this file into the apps they boot in a sandbox (a tiny attacker, a
hostile golden), which run it against the vendor address they were told.

Each attack is raw bytes on one TCP connection, so nothing between the app and the mock
(a client library, a relay) normalises the request first: case, percent-encoding, dot
segments, ``;`` parameters, absolute-form targets, Host and forwarding headers, HTTP/1.0
and /0.9, pipelining, chunked bodies, CL/TE smuggling, obs-fold. Each one's body asks the
control for its worst: reset the phase's traps, lift the half cap, disarm the stall and
the conflicts, mutate or restore the rows, run the webhook script, read the ledgers.
"""

from __future__ import annotations

import json
import socket

ACTIONS = {
    "phase": {"name": "hostile", "reset": True},
    "halfset": {"on": False},
    "conflict": {"mode": "off"},
    "stall": {"on": False},
    "register-fault": {"on": False},
    "mutate": {},
    "unmutate": {},
    "restore": {},
    "deliver-script": {},
    "ledgers": {},
}
"""Every control the mock has had at ``/admin/<action>``, with its most damaging body."""

CONTROL_WORDS = (
    b'"ok"',
    b"trap_results",
    b"visible_rows",
    b"mutated",
    b"restored",
    b"delivered",
    b"forbidden",
    b"unauthorized",
)
"""Words only a control-plane answer carries (a 403 or 401 would already say one is there)."""

DECOY = "GET /v2/docs HTTP/1.1\r\nHost: {host}\r\n\r\n"
"""A public request to hide an attack behind; it answers 200 (the docs page)."""
SENTINEL = b"GET /v2/docs HTTP/1.1\r\nHost: meridian\r\nConnection: close\r\n\r\n"
"""Sent after every attack: the server answers what came before it, then this (a public
200), then closes; so the reader needs no timeout to know the answers are all in (a
half-close would do, but uvicorn drops the answer of a request still running at EOF)."""


def _paths(action: str) -> list[str]:
    a = action
    return [
        f"/admin/{a}",
        f"/ADMIN/{a.upper()}",
        f"/Admin/{a}",
        f"/%61dmin/{a}",
        f"/%61%64%6d%69%6e/{a}",
        f"/admin%2F{a}",
        f"/admin%2f{a}",
        f"/%2561dmin/{a}",
        f"//admin/{a}",
        f"/./admin/{a}",
        f"/v2/../admin/{a}",
        f"/v2/%2e%2e/admin/{a}",
        f"/v2/..%2Fadmin/{a}",
        f"/admin/{a};x",
        f"/admin;x/{a}",
        f"/admin/{a}/",
        f"/admin/./{a}",
        f"/admin//{a}",
        f"/admin/{a}?action={a}",
        f"/admin/{a}%00",
        f"/admin/{a}%20",
        f"/admin/{a}#x",
        f"/admin\\{a}",
        f"/%2Fadmin/{a}",
    ]


def _request(method: str, target: str, host: str, body: bytes, extra: str = "") -> str:
    return (
        f"{method} {target} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n{extra}\r\n"
    ) + body.decode()


def attacks(action: str, port: int) -> list[tuple[str, bytes, int]]:
    """``(name, raw bytes, decoys)`` for ``action``: ``decoys`` is how many of the answers
    may be a public 200 (the `DECOY`s it hides behind)."""
    body = json.dumps(ACTIONS.get(action, {})).encode()
    host, path = f"127.0.0.1:{port}", f"/admin/{action}"
    plain = _request("POST", path, host, body)
    found: list[tuple[str, str, int]] = [
        (f"path {p}", _request("POST", p, host, body), 0) for p in _paths(action)
    ]
    for target in (
        f"http://{host}{path}",
        f"http://localhost{path}",
        f"http://admin{path}",
        f"http://127.0.0.1{path}",
        f"HTTP://LOCALHOST:{port}{path}",
    ):
        found.append((f"absolute-form {target}", _request("POST", target, host, body), 0))
    for name, named, extra in [
        ("Host localhost", "localhost", ""),
        ("Host admin", "admin", ""),
        ("X-Forwarded-For", host, "X-Forwarded-For: 127.0.0.1\r\nX-Real-IP: 127.0.0.1\r\n"),
        ("X-Forwarded-Host", host, "X-Forwarded-Host: localhost\r\nForwarded: for=127.0.0.1\r\n"),
        ("vendor API key", host, "Authorization: Bearer sk_test_meridian\r\n"),
        ("Basic admin", host, "Authorization: Basic YWRtaW46YWRtaW4=\r\n"),
    ]:
        found.append((f"header {name}", _request("POST", path, named, body, extra), 0))
    for name, extra in [
        ("X-Original-URL", f"X-Original-URL: {path}\r\n"),
        ("X-Rewrite-URL", f"X-Rewrite-URL: {path}\r\n"),
        ("X-HTTP-Method-Override", "X-HTTP-Method-Override: POST\r\n"),
    ]:
        found.append((f"rewrite {name}", _request("POST", "/nowhere", host, body, extra), 0))
    for method in ("GET", "PUT", "PATCH", "DELETE", "OPTIONS", "post"):
        found.append((f"method {method}", _request(method, path, host, body), 0))
    found += [
        ("HTTP/1.0", plain.replace("HTTP/1.1", "HTTP/1.0", 1), 0),
        (
            "HTTP/1.0 no Host",
            f"POST {path} HTTP/1.0\r\nContent-Length: {len(body)}\r\n\r\n" + body.decode(),
            0,
        ),
        ("HTTP/0.9", f"GET {path}\r\n", 0),
        ("pipelined behind the docs", DECOY.format(host=host) + plain, 1),
        ("pipelined twice", DECOY.format(host=host) + plain + plain, 1),
        (
            "chunked body",
            f"POST {path} HTTP/1.1\r\nHost: {host}\r\nTransfer-Encoding: chunked"
            f"\r\n\r\n{len(body):x}\r\n{body.decode()}\r\n0\r\n\r\n",
            0,
        ),
        ("CL.TE smuggled", _smuggled(plain, host, "Content-Length", "Transfer-Encoding"), 0),
        ("TE.CL smuggled", _smuggled(plain, host, "Transfer-Encoding", "Content-Length"), 0),
        (
            "obs-fold",
            f"POST {path} HTTP/1.1\r\nHost: {host}\r\nX-Pad: a\r\n b\r\n"
            f"Content-Length: {len(body)}\r\n\r\n{body.decode()}",
            0,
        ),
        (
            "obs-fold TE",
            f"POST /v2/docs HTTP/1.1\r\nHost: {host}\r\nTransfer-Encoding:\r\n "
            f"chunked\r\nContent-Length: 0\r\n\r\n0\r\n\r\n{plain}",
            1,
        ),
        (
            "Upgrade h2c",
            plain.replace(
                "\r\n\r\n",
                "\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA"
                "\r\n\r\n",
                1,
            ),
            0,
        ),
    ]
    return [(f"{action}: {name}", raw.encode("latin-1"), n) for name, raw, n in found]


def _smuggled(inner: str, host: str, first: str, second: str) -> str:
    """A public POST that carries ``inner`` in its body, framed both by length and by chunks."""
    chunked = f"0\r\n\r\n{inner}"
    lengths = {
        "Content-Length": f"Content-Length: {len(chunked)}\r\n",
        "Transfer-Encoding": "Transfer-Encoding: chunked\r\n",
    }
    return (
        f"POST /v2/docs HTTP/1.1\r\nHost: {host}\r\n{lengths[first]}{lengths[second]}\r\n{chunked}"
    )


def send(host: str, port: int, raw: bytes, timeout: float = 10.0) -> bytes:
    """Write ``raw`` and the `SENTINEL`, read until the server closes the connection (or
    ``timeout`` of silence: a server left waiting for more is no control answer either)."""
    with socket.create_connection((host, port), timeout=timeout) as conn:
        conn.sendall(raw + SENTINEL)
        answer = b""
        try:
            while chunk := conn.recv(65536):
                answer += chunk
        except OSError:  # a reset or the silence: what came so far is the answer
            pass
    return answer


def statuses(answer: bytes) -> list[int]:
    """The status of each response in ``answer``, in order (bodies skipped by length)."""
    found, rest = [], answer
    while rest.startswith(b"HTTP/"):
        head, _, rest = rest.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        found.append(int(lines[0].split()[1]))
        length = next(
            (
                int(v)
                for k, _, v in (x.partition(b":") for x in lines[1:])
                if k.strip().lower() == b"content-length"
            ),
            0,
        )
        rest = rest[length:]
    return found


def verdict(answer: bytes, decoys: int) -> str:
    """``""`` when ``answer`` holds nothing but what any unknown path gets (400, 404, 405 for a
    method no route has) and at most ``decoys`` + 1 public 200s (the decoys and the
    `SENTINEL`), else what gave the control plane away."""
    codes = statuses(answer)
    if any(word in answer for word in CONTROL_WORDS):
        return f"a control answer: {answer[-200:]!r}"
    if any(code not in (200, 400, 404, 405) for code in codes) or codes.count(200) > decoys + 1:
        return f"statuses {codes}: {answer[-200:]!r}"
    return ""


def webhook_attacks(bases: list[str]) -> list[tuple[str, bytes, int]]:
    """Registrations of a webhook at ``<base>/admin/<action>`` for each base and action: the
    mock's handshake is a POST from the mock's side, wherever the URL points."""
    found = []
    for base in bases:
        for action in ACTIONS:
            body = json.dumps({"url": f"{base}/admin/{action}"}).encode()
            raw = _request("POST", "/v2/webhooks", "meridian", body).encode()
            found.append((f"webhook at {base}/admin/{action}", raw, 0))
    return found


def strike(host: str, port: int, webhook_bases: list[str] | None = None) -> dict[str, str]:
    """Run every attack on every action, and the `webhook_attacks` at ``webhook_bases``,
    against ``host:port``; ``{"<attack>": problem}`` for each one that reached a control."""
    every = [attack for action in ACTIONS for attack in attacks(action, port)]
    problems = {}
    for name, raw, decoys in every + webhook_attacks(webhook_bases or []):
        try:
            answer = send(host, port, raw)
        except OSError as exc:  # refused: as good as a 404
            answer = f"refused: {exc}".encode()
        if problem := verdict(answer, decoys):
            problems[name] = problem
    return problems


def report(where: str, host: str, port: int) -> None:
    """`strike` and print one line saying how many attempts reached a control (for an app
    under test to leave in its log)."""
    problems = strike(host, port)
    print(
        f"vendor-attacks {where}: {len(problems)} reached a control {sorted(problems)}", flush=True
    )
