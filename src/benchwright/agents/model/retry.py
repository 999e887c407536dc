"""Retrying a provider's faults, within bounds the trial can afford.

A model endpoint under load answers 429 or 5xx, or hangs; the next try usually works.
`Retrying` wraps any `Provider` and tries again on `ModelFault` only (a `ModelRefused`
is final by definition: a bad key stays bad), waiting what the server's ``Retry-After``
asked for, else an exponential backoff with jitter. Every bound is explicit, because a
benchmark that waits forever measures nothing:

- each call ends at its timeout (``timeout_s``, never more than the wall budget left),
  and a timeout is a fault like a 503. The SDK's timeout bounds each wait for bytes, so
  an endpoint that trickles an answer byte by byte would outlast it: a call still
  running ``HARD_STOP_GRACE_S`` after its timeout, or at the deadline, is abandoned
  (its thread left to the SDK's own timeout) and counts as a timed-out call;
- one wait is at most ``max_wait_s``; a server that asks for more (a quota exhausted
  for hours) is not honoured by hammering it early: the fault is raised at once;
- the waits of one call add up to at most ``budget_s``, and no wait or call reaches past
  ``deadline`` (the phase's wall budget on the ``clock``), so retries never outlive the
  trial;
- at most ``max_attempts`` tries.

`Reply.attempts` (and ``attempts`` on the error raised) counts the tries, so the run's
``model_calls`` counts every call the endpoint saw. The clock, the sleeper and the
jitter source are injectable so tests record the waits instead of sitting through them.
"""

from __future__ import annotations

import dataclasses
import math
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from benchwright.agents.model.wire import (
    Message,
    ModelFault,
    ModelRefused,
    Provider,
    Reply,
    ToolSpec,
)

HARD_STOP_GRACE_S = 2.0
"""How long past its timeout a call may run before it is abandoned: enough for the SDK's
own timeout to fire first on a plain hang, so its error is the one reported."""
RETRY_AFTER_JITTER = 0.1
"""A server's ``Retry-After`` is waited in full plus up to this fraction, so workers told
the same time do not all come back in the same instant."""


class Retrying:
    """A `Provider` that retries another's faults.

    Args:
        inner: the provider to retry (its own SDK retries off).
        deadline: when the phase's wall budget ends, on ``clock`` (None: no deadline).
        max_attempts: tries per call, the first included.
        base_s: the first backoff; it doubles per try, to ``max_wait_s`` at most.
        max_wait_s: the longest single wait, ``Retry-After`` included.
        budget_s: the most time spent waiting over one call's retries.
        clock: monotonic seconds (``deadline`` is on it).
        sleep: waits the given seconds.
        jitter: a number in [0, 1): spreads backoffs so workers do not retry in step.
    """

    def __init__(
        self,
        inner: Provider,
        *,
        deadline: float | None = None,
        max_attempts: int = 6,
        base_s: float = 1.0,
        max_wait_s: float = 60.0,
        budget_s: float = 300.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        self.inner = inner
        self.endpoint = inner.endpoint
        self.deadline = deadline
        self.max_attempts = max_attempts
        self.base_s = base_s
        self.max_wait_s = max_wait_s
        self.budget_s = budget_s
        self._clock = clock
        self._sleep = sleep
        self._jitter = jitter

    def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec] | None,
        params: Mapping[str, Any],
        timeout_s: float,
    ) -> Reply:
        waited = 0.0
        for attempt in range(1, self.max_attempts + 1):
            left = self._left()
            if left <= 0:
                raise ModelFault(self.endpoint, "the wall budget is spent", attempts=attempt - 1)
            try:
                stop_s = min(timeout_s + HARD_STOP_GRACE_S, left)
                reply = _within(self.inner, messages, tools, params, min(timeout_s, left), stop_s)
            except ModelRefused as refused:
                refused.attempts = attempt
                raise
            except ModelFault as fault:
                fault.attempts = attempt
                wait, reason = self._next_wait(fault, attempt, waited)
                if reason:
                    fault.message = f"{fault.message} (gave up after {attempt} tries: {reason})"
                    raise
                self._sleep(wait)
                waited += wait
                continue
            return dataclasses.replace(reply, attempts=attempt)
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _left(self) -> float:
        return math.inf if self.deadline is None else self.deadline - self._clock()

    def _next_wait(self, fault: ModelFault, attempt: int, waited: float) -> tuple[float, str]:
        """The wait before the next try, or a reason not to try again."""
        if attempt >= self.max_attempts:
            return 0.0, f"{self.max_attempts} tries is the limit"
        asked = fault.retry_after_s
        if asked is not None and not asked >= 0:  # NaN or negative from a lax parser
            asked = None
        if asked is not None and asked > self.max_wait_s:
            return 0.0, f"asked to wait {asked:.0f} s, over the {self.max_wait_s:.0f} s cap"
        if asked is not None:
            wait = asked * (1 + RETRY_AFTER_JITTER * self._jitter())
        else:
            step = min(self.max_wait_s, self.base_s * 2 ** (attempt - 1))
            wait = step / 2 + step / 2 * self._jitter()
        wait = min(wait, self.max_wait_s)
        if waited + wait > self.budget_s:
            return 0.0, f"the {self.budget_s:.0f} s retry budget is spent"
        if wait >= self._left():
            return 0.0, "the wall budget ends before the next try"
        return wait, ""


def _within(
    provider: Provider,
    messages: Sequence[Message],
    tools: Sequence[ToolSpec] | None,
    params: Mapping[str, Any],
    timeout_s: float,
    stop_s: float,
) -> Reply:
    """One call with the SDK's ``timeout_s``, or a `ModelFault` once it has run ``stop_s``."""
    endpoint = provider.endpoint
    outcome: list[Reply | Exception] = []

    def run() -> None:
        try:
            outcome.append(provider.complete(messages, tools, params, timeout_s))
        except Exception as exc:  # handed to the caller's thread below, never swallowed
            outcome.append(exc)

    worker = threading.Thread(target=run, name=f"model call {endpoint}", daemon=True)
    worker.start()
    worker.join(stop_s if math.isfinite(stop_s) else None)
    if not outcome:
        raise ModelFault(endpoint, f"no complete answer {timeout_s:g} s after the call: abandoned")
    if isinstance(outcome[0], Exception):
        raise outcome[0]
    return outcome[0]
