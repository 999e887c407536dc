"""The write ledgers: create habits (`batch_trace`) and the PATCH dance (`conflict_trace`).

Both read the mock's own records (the create log, the request trace), and both
can read "bad": a retry storm, a fresh-key resubmission or a blind write shows.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class BatchTrace:
    """Every create attempt (single or batch item) and the retry habits they show."""

    ops: tuple[dict, ...]
    duplicate_creates: int
    retries_of_failed_item: int
    fresh_key_retries: int

    def as_dict(self) -> dict:
        return asdict(self)


def batch_trace(ops: list[dict]) -> BatchTrace:
    """Count same-content creates, same-key retries of failures and fresh-key resubmissions.

    A fresh-key resubmission of failed content counts whatever its outcome (it
    usually fails again): the methodology (§09) forbids any retry of the doomed item.
    """
    created = Counter(op["content"] for op in ops if op["outcome"] == "created")
    failed_keys: set[str] = set()
    failed_content: dict[str, set[str]] = {}
    same_key = fresh_key = 0
    for op in ops:
        failed_under = failed_content.get(op["content"], set())
        if op["key"] and op["key"] in failed_keys:
            same_key += 1
        elif failed_under and op["key"] not in failed_under:
            fresh_key += 1
        if op["outcome"] not in ("created", "duplicate"):
            failed_keys.add(op["key"])
            failed_content.setdefault(op["content"], set()).add(op["key"])
    return BatchTrace(
        ops=tuple(ops),
        duplicate_creates=sum(n - 1 for n in created.values()),
        retries_of_failed_item=same_key,
        fresh_key_retries=fresh_key,
    )


@dataclass(frozen=True)
class ConflictTrace:
    """PATCH discipline: bare writes, and the recovery after the last one-shot 412."""

    patches: int
    writes_without_if_match: int
    injected_412s: int
    retries_after_412: int
    retried_once_with_fresh_version: bool

    def as_dict(self) -> dict:
        return asdict(self)


def conflict_trace(lines: list[dict]) -> ConflictTrace:
    """Follow the last ``once``-mode injected 412 to the first 200 on the same payment.

    The window also closes at the next conflict-mode change, so the PATCHes of a
    later ``always`` exercise are not mistaken for retries of this one.
    """
    patches = [line for line in lines if line["method"] == "PATCH"]
    injected = [line for line in patches if line.get("injected_412")]
    once = [line for line in injected if line.get("mode") == "once"]
    retries: list[dict] = []
    if once:
        last = once[-1]
        for line in (line for line in lines if line["seq"] > last["seq"]):
            if line.get("admin") == "conflict":
                break
            if line["method"] == "PATCH" and line.get("payment_id") == last["payment_id"]:
                retries.append(line)
                if line["status"] == 200:
                    break
    fresh = bool(retries) and retries[-1]["status"] == 200
    fresh = fresh and _if_match_version(retries[0]) == once[-1]["new_version"]
    return ConflictTrace(
        patches=len(patches),
        writes_without_if_match=sum(line["status"] == 428 for line in patches),
        injected_412s=len(injected),
        retries_after_412=len(retries),
        retried_once_with_fresh_version=fresh,
    )


def _if_match_version(line: dict) -> int | None:
    digits = (line.get("if_match") or "").replace("W/", "").strip('" ')
    return int(digits) if digits.isdigit() else None
