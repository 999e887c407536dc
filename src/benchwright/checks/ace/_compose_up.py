"""Bringing the agent's compose stack up, reading its health, and finding its base URL.

All of it needs a container engine, which this machine lacks: the commands are
built by small functions (tested for their exact argv), the parsing of
``docker compose ps --format json`` is tested on its documented shape, and the
calls that run them are unverified here.

C1's reading of the stack (ACE): a service whose name hints at a database or
broker (`DB_HINTS`) is never counted, either way. Of the others, one is *healthy*
when Docker reports it so, *bad* when it is dead or restarting, reports
unhealthy, or exited non-zero; a one-shot that exited 0 is neutral.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchwright.probes import run_command

DB_HINTS = (
    "postgres",
    "database",
    "redis",
    "kafka",
    "zookeeper",
    "rabbit",
    "mongo",
    "flyway",
    "liquibase",
    "migrat",
)
_DB_TOKEN = re.compile(r"(?:^|[^a-z])db|db(?:$|[^a-z])")
"""``db`` counts at a word's edge (``order-db``, ``accountdb``, ``db1``), so a ``sandbox``
or ``feedback`` service is not taken for a database."""
MIN_HEALTHY = 3
UP_TIMEOUT_S = 900.0
SETTLE_TIMEOUT_S = 300.0
APP_PORT = 8080
"""The port every rung serves on (``localhost:8080``)."""


def is_database(service: str) -> bool:
    """Whether ``service`` is named like a database, broker or migration job."""
    name = service.lower()
    return any(hint in name for hint in DB_HINTS) or _DB_TOKEN.search(name) is not None


def up_argv(project: str, file: str) -> list[str]:
    """Build every image from the copy and start the stack, detached."""
    return ["docker", "compose", "-p", project, "-f", file, "up", "-d", "--build"]


def ps_argv(project: str, file: str) -> list[str]:
    """Every container of the stack, stopped ones included, as JSON."""
    return ["docker", "compose", "-p", project, "-f", file, "ps", "--all", "--format", "json"]


def port_argv(project: str, file: str, service: str, port: int) -> list[str]:
    """The host address a service's container port is published on."""
    return ["docker", "compose", "-p", project, "-f", file, "port", service, str(port)]


def down_argv(project: str, file: str) -> list[str]:
    """Stop the stack and remove its containers, networks and volumes."""
    return ["docker", "compose", "-p", project, "-f", file, "down", "-v", "--remove-orphans"]


@dataclass(frozen=True, slots=True)
class ServiceState:
    """One container of the stack as ``docker compose ps`` reports it."""

    service: str
    state: str
    health: str
    exit_code: int

    @property
    def healthy(self) -> bool:
        return self.health == "healthy"

    @property
    def bad(self) -> bool:
        exited_badly = self.state == "exited" and self.exit_code != 0
        return self.state in ("dead", "restarting") or self.health == "unhealthy" or exited_badly

    @property
    def settling(self) -> bool:
        return self.health == "starting" or self.state == "created"


def parse_ps(stdout: str) -> list[ServiceState]:
    """``docker compose ps --format json``: one JSON array, or one object per line."""
    text = stdout.strip()
    if not text:
        return []
    rows: Any = (
        json.loads(text)
        if text.startswith("[")
        else [json.loads(line) for line in text.splitlines() if line.strip()]
    )
    return [
        ServiceState(
            str(row.get("Service", "")),
            str(row.get("State", "")).lower(),
            str(row.get("Health", "")).lower(),
            int(row.get("ExitCode") or 0),
        )
        for row in rows
        if isinstance(row, Mapping)
    ]


@dataclass(frozen=True, slots=True)
class Reading:
    """C1's view of the stack: healthy and bad services that count, and those not counted."""

    healthy: tuple[str, ...]
    bad: tuple[str, ...]
    settling: tuple[str, ...]
    databases: tuple[str, ...]

    @property
    def passes(self) -> bool:
        return len(self.healthy) >= MIN_HEALTHY and not self.bad


def read(states: Sequence[ServiceState]) -> Reading:
    """Sort the stack's services as C1 counts them."""
    counted = [s for s in states if not is_database(s.service)]
    return Reading(
        tuple(sorted(s.service for s in counted if s.healthy)),
        tuple(sorted(s.service for s in counted if s.bad)),
        tuple(sorted(s.service for s in counted if s.settling)),
        tuple(sorted({s.service for s in states if is_database(s.service)})),
    )


@dataclass(frozen=True, slots=True)
class Published:
    """A container port a compose service publishes, and the host port when fixed."""

    service: str
    target: int
    host: int | None


def published(document: Any) -> list[Published]:
    """Every published port of every service of a parsed compose file."""
    found: list[Published] = []
    services = document.get("services") if isinstance(document, Mapping) else None
    for name, service in (services or {}).items():
        ports = service.get("ports") if isinstance(service, Mapping) else None
        for entry in ports or []:
            if (port := _port(str(name), entry)) is not None:
                found.append(port)
    return found


def entry_point(ports: Sequence[Published]) -> Published | None:
    """Where the stack is served: host port 8080, else a non-database service's 8080, else the
    first port a non-database service publishes."""
    fixed = [p for p in ports if p.host == APP_PORT]
    apps = [p for p in ports if not is_database(p.service)]
    on_app_port = [p for p in apps if p.target == APP_PORT]
    return next(iter(fixed or on_app_port or apps), None)


def _port(service: str, entry: Any) -> Published | None:
    if isinstance(entry, int):
        return Published(service, entry, None)
    if isinstance(entry, Mapping):
        target, host = entry.get("target"), entry.get("published")
        if not str(target).isdigit():
            return None
        return Published(service, int(target), int(host) if str(host).isdigit() else None)
    pieces = str(entry).split("/")[0].split(":")  # [ip:]host:container, or container
    target, host = pieces[-1], pieces[-2] if len(pieces) >= 2 else ""
    if not target.isdigit():
        return None  # a port range: not an entry point
    return Published(service, int(target), int(host) if host.isdigit() else None)


@dataclass(frozen=True, slots=True)
class Stack:
    """A stack that is up: its services' states and, when one is found, its base URL."""

    states: tuple[ServiceState, ...]
    base_url: str | None
    up_error: str | None = None
    """Why ``compose up`` failed (output tail); the states are what did start."""


@contextlib.contextmanager
def running(project: str, copy: Path, file: str, document: Any) -> Iterator[Stack]:
    """``docker compose up`` in ``copy``, settle, yield the stack, and always bring it down."""
    try:
        up = run_command(up_argv(project, file), copy, timeout_s=UP_TIMEOUT_S, grace_s=10)
        error = None
        if up.exit_code != 0:
            lines = (up.error or up.stderr or up.stdout or "no output").strip().splitlines()
            error = "timed out" if up.timed_out else lines[-1][:300]
        states = settle(project, copy, file)
        yield Stack(tuple(states), _base_url(project, copy, file, document), error)
    finally:
        run_command(down_argv(project, file), copy, timeout_s=120.0)


def settle(project: str, copy: Path, file: str) -> list[ServiceState]:
    """Poll ``ps`` until nothing that counts is still starting (bounded); the last reading."""
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    while True:
        done = run_command(ps_argv(project, file), copy, timeout_s=30.0)
        try:
            states = parse_ps(done.stdout)
        except ValueError:
            states = []
        reading = read(states)
        if (reading.passes or not reading.settling) or time.monotonic() > deadline:
            return states
        time.sleep(5.0)  # a healthcheck's own interval: polling faster learns nothing


def _base_url(project: str, copy: Path, file: str, document: Any) -> str | None:
    entry = entry_point(published(document))
    if entry is None:
        return None
    if entry.host is not None:
        return f"http://127.0.0.1:{entry.host}"
    done = run_command(port_argv(project, file, entry.service, entry.target), copy, timeout_s=30.0)
    address = done.stdout.strip().splitlines()[:1]
    port = address[0].rpartition(":")[2] if address else ""
    return f"http://127.0.0.1:{port}" if port.isdigit() else None
