"""Poll an app's health path until it is healthy, exits, or the budget runs out.

Each tick first asks the health path, then asks the kernel whether the process
has exited (without reaping it, so its pid stays ours). Ticks start every
``poll_s``; a slow answer delays the next tick instead of stacking requests.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass

import httpx

from benchwright.services._boot import BootPolicy
from benchwright.services.tls import shared_tls_context


@dataclass(frozen=True, slots=True)
class ReadyFacts:
    """What the readiness loop saw; ``boot_ladder`` turns it into a rung."""

    healthy_after_s: float | None
    bound: bool
    statuses: tuple[int, ...]
    exit_code: int | None
    exited_after_s: float | None
    health_body: bytes | None


def exit_code(pid: int) -> int | None:
    """The exit code of our child ``pid`` if it has exited (not reaped), else None."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:  # already reaped elsewhere: it is certainly not running
        return -1
    if info is None or info.si_pid == 0:
        return None
    return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status


def wait_ready(pid: int, url: str, policy: BootPolicy, started: float) -> ReadyFacts:
    """Poll ``url`` for the process ``pid`` spawned at monotonic time ``started``."""
    statuses: list[int] = []
    bound = False
    body: bytes | None = None
    deadline = started + policy.budget_s
    ticks = 0
    with httpx.Client(trust_env=False, verify=shared_tls_context()) as client:
        while (now := time.monotonic()) < deadline:
            ticks += 1
            timeout = max(0.05, min(policy.request_timeout_s, deadline - now))
            connected, status, answer = _ask(client, url, timeout)
            bound = bound or connected
            if status is not None:
                body = answer
                if status not in statuses:
                    statuses.append(status)
                if status == 200 and (not policy.require_json or _is_json(answer)):
                    return ReadyFacts(
                        time.monotonic() - started, True, tuple(statuses), None, None, body
                    )
            code = exit_code(pid)
            if code is not None:
                elapsed = time.monotonic() - started
                return ReadyFacts(None, bound, tuple(statuses), code, elapsed, body)
            next_tick = min(started + ticks * policy.poll_s, deadline)
            time.sleep(max(0.0, next_tick - time.monotonic()))
    return ReadyFacts(None, bound, tuple(statuses), None, None, body)


def _ask(client: httpx.Client, url: str, timeout: float) -> tuple[bool, int | None, bytes | None]:
    """(connection accepted, status, body) of one health request."""
    try:
        response = client.get(url, timeout=timeout, headers={"Connection": "close"})
    except (httpx.ConnectError, httpx.ConnectTimeout):
        return False, None, None
    except httpx.TransportError:  # accepted, then hung up, stalled or spoke garbage
        return True, None, None
    return True, response.status_code, response.content


def _is_json(body: bytes | None) -> bool:
    try:
        json.loads(body or b"")
    except ValueError:
        return False
    return True
