"""Bounded waits on a live server: every loop of an sb-7 phase ends by its budget."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def until(
    check: Callable[[], T], budget_s: float, poll_s: float,
    alive: Callable[[], bool] | None = None,
) -> T | None:  # fmt: skip
    """The first truthy value ``check()`` returns within ``budget_s`` (asked every
    ``poll_s``, and once more at the deadline), or None when it never gave one.

    ``alive`` is the service whose answer is awaited: once it has exited the wait gives up
    at once, since a dead process cannot make ``check`` true and waiting out the budget
    only stretches a grading (a service that dies for good made every later phase wait
    its full budgets)."""
    deadline = time.monotonic() + budget_s
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() >= deadline or (alive is not None and not alive()):
            return None
        time.sleep(poll_s)
