"""ACE C2: ``GET {base}/health`` answers 200, polled up to 6 times with a 5 s backoff.

The stack is whatever base URL the run targets (``AceEnv.base_url``); without one
the row is SKIPPED (`_stack.no_stack`). Every poll is bounded by the request
timeout, so a server that accepts and never answers costs at most
``attempts x (timeout + backoff)``.
"""

from __future__ import annotations

import time
from collections.abc import Collection

import httpx

from benchwright.checks.ace._env import AceEnv
from benchwright.checks.ace._stack import REQUEST_TIMEOUT_S, no_stack
from benchwright.model import CheckResult
from benchwright.services.tls import shared_tls_context

IDS = frozenset({"C2"})
ATTEMPTS = 6
BACKOFF_S = 5.0


def run(
    env: AceEnv, wanted: Collection[str], *, backoff_s: float = BACKOFF_S
) -> dict[str, CheckResult]:
    """C2's record when wanted; ``backoff_s`` is the pause between failed polls."""
    if "C2" not in wanted:
        return {}
    if env.base_url is None:
        return {"C2": no_stack(env, "C2")}
    return {"C2": poll(env.base_url.rstrip("/") + "/health", ATTEMPTS, backoff_s)}


def poll(url: str, attempts: int, backoff_s: float) -> CheckResult:
    """PASS at the first 200; FAIL naming the last answer after ``attempts`` polls."""
    seen: list[str] = []
    with httpx.Client(timeout=REQUEST_TIMEOUT_S, verify=shared_tls_context()) as client:
        for attempt in range(1, attempts + 1):
            try:
                status = client.get(url).status_code
            except httpx.ConnectError:
                seen.append("connection refused")
            except httpx.TimeoutException:
                seen.append(f"no answer within {REQUEST_TIMEOUT_S:g} s")
            except httpx.TransportError as exc:
                seen.append(f"transport error: {exc}")
            else:
                if status == 200:
                    return CheckResult.passing(
                        "C2", f"GET {url} -> 200 on attempt {attempt}", url=url, seen=seen
                    )
                seen.append(f"status {status}")
            if attempt < attempts:
                time.sleep(backoff_s)
    return CheckResult.failing(
        "C2", f"GET {url}: no 200 in {attempts} attempts; last: {seen[-1]}", url=url, seen=seen
    )
