"""Run the sb-7 golden reference for real: ledgerd and notifierd as subprocesses on
leased loopback ports, one fresh ``--db-dir``, killed with SIGKILL and restarted with the
same flags, and talked to over HTTP (an error status is an answer, never an exception).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx

from benchwright.services.ports import PortLease, lease_port

REFERENCE = Path(__file__).resolve().parents[3] / "suites" / "sb7" / "reference"
LISTEN_BUDGET_S = 10.0
"""The spec's: each service listens within 10 s of every start."""
TOKENS = {"maker": "a1" * 16, "checker": "b2" * 16, "admin": "c3" * 16}
T = TypeVar("T")


class Answer:
    """One answer of a service: an error status is an answer, never an exception."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response

    @property
    def status(self) -> int:
        return self.response.status_code

    @property
    def headers(self) -> httpx.Headers:
        return self.response.headers

    @property
    def raw(self) -> bytes:
        return self.response.content

    @property
    def body(self) -> Any:
        return self.response.json()

    @property
    def code(self) -> str | None:
        """The error envelope's code (None on a success)."""
        return self.body.get("error", {}).get("code") if self.status >= 400 else None


def call(
    url: str, method: str = "GET", body: object = None, token: str | None = None,
    timeout: float = 60.0, *, raw: bytes | None = None, headers: dict[str, str] | None = None,
) -> Answer:  # fmt: skip
    """One request with ``body`` as JSON (or ``raw`` bytes as they are)."""
    sent = dict(headers or {})
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    if raw is None and body is not None:
        raw, sent["Content-Type"] = json.dumps(body).encode(), "application/json"
    response = httpx.request(
        method, url, content=raw, headers=sent, timeout=timeout, trust_env=False
    )
    return Answer(response)


def eventually(probe: Callable[[], T | None], within: float = 20.0, what: str = "") -> T:
    """``probe()``'s first truthy value, polled every 0.1 s for at most ``within`` s."""
    deadline = time.monotonic() + within
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {within} s: {what or probe}")
        time.sleep(0.1)


class Service:
    """One service process: started, killed and restarted with the same argv."""

    def __init__(self, name: str, argv: list[str], port: int, ready_path: str) -> None:
        self.name, self.argv, self.port, self.ready_path = name, argv, port, ready_path
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = b""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Service:
        env = {**os.environ, "PYTHONPATH": str(REFERENCE), "PYTHONDONTWRITEBYTECODE": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", *self.argv],
            cwd=REFERENCE,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + LISTEN_BUDGET_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"{self.name} exited at boot:\n{self._drain()}")
            try:
                if call(self.base + self.ready_path, timeout=1).status == 200:
                    return self
            except httpx.TransportError:
                time.sleep(0.05)  # not listening yet
        raise AssertionError(f"{self.name} not listening within {LISTEN_BUDGET_S} s")

    def kill(self) -> None:
        """SIGKILL: a crash, not a courtesy shutdown."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
        self._drain()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def _drain(self) -> str:
        stdout = self.proc.stdout if self.proc is not None else None
        if stdout is not None and not stdout.closed and self.proc.poll() is not None:
            self.log += stdout.read()
            stdout.close()
        return self.log.decode(errors="replace")

    def get(self, path: str, token: str | None = None) -> Answer:
        return call(self.base + path, token=token)

    def post(self, path: str, body: object = None, token: str | None = None) -> Answer:
        return call(self.base + path, "POST", body, token)


class Golden:
    """The reference's two services over one db dir and one tokens file, against the
    vendor at ``vendor_url``; ``combined`` boots ``python -m app`` instead of two."""

    def __init__(self, root: Path, vendor_url: str) -> None:
        self.root, self.vendor_url = root, vendor_url
        self.db_dir = root / "db"
        self.tokens_file = root / "tokens.json"
        self.tokens_file.write_text(json.dumps(TOKENS))
        self._leases: list[PortLease] = [lease_port(), lease_port()]
        self._combined: Service | None = None
        ledger_port, notifier_port = (lease.port for lease in self._leases)
        self.notifierd = Service(
            "notifierd",
            ["app.notifierd", *_flags(db_dir=self.db_dir, port=notifier_port)],
            notifier_port,
            "/health",
        )
        ledger_flags = _flags(
            db_dir=self.db_dir,
            port=ledger_port,
            notifier=self.notifierd.base,
            vendor=vendor_url,
            tokens_file=self.tokens_file,
        )
        self.ledgerd = Service(
            "ledgerd", ["app.ledgerd", *ledger_flags], ledger_port, "/api/health"
        )

    def combined(self) -> Service:
        """``python -m app`` with both ports (started; ledgerd's health is its readiness)."""
        argv = [
            "app",
            *_flags(
                db_dir=self.db_dir,
                ledger_port=self.ledgerd.port,
                notifier_port=self.notifierd.port,
                vendor=self.vendor_url,
                tokens_file=self.tokens_file,
            ),
        ]
        self._combined = Service("app", argv, self.ledgerd.port, "/api/health")
        return self._combined.start()

    def close(self) -> None:
        for service in (self.ledgerd, self.notifierd, self._combined):
            if service is not None:
                service.kill()
        for lease in self._leases:
            lease.release()


def _flags(**values: object) -> list[str]:
    """``--name value`` pairs, ``db_dir`` spelled ``--db-dir``."""
    return [
        part
        for name, value in values.items()
        for part in (f"--{name.replace('_', '-')}", str(value))
    ]


def dead_vendor_url() -> tuple[str, PortLease]:
    """A vendor address nothing listens on (the lease keeps anyone else off it)."""
    lease = lease_port()
    return f"http://127.0.0.1:{lease.port}", lease
