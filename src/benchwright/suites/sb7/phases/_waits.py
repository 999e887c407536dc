"""Bounded waits on a live server: every loop of an sb-7 phase ends by its budget."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def until(check: Callable[[], T], budget_s: float, poll_s: float) -> T | None:
    """The first truthy value ``check()`` returns within ``budget_s`` (asked every
    ``poll_s``, and once more at the deadline), or None when it never gave one."""
    deadline = time.monotonic() + budget_s
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() >= deadline:
            return None
        time.sleep(poll_s)
