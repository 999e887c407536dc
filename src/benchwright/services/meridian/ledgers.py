"""The trap ledger: how the client met every 429, 410 and stall, read from the trace.

It grades what the client really sent. Every reading can be 0: no instance of a
trap means the trap was not passed, and a client that never came back after a
429 or 410 did not honour it. (The write ledgers are in `write_ledgers.py`.)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass

from benchwright.services.meridian.config import LIST_PATH, Timing

OK_STATUSES = (200, 304)


@dataclass(frozen=True)
class TrapResults:
    """Each trap's score is the minimum over its instances, 0 when there were none."""

    retry_after: float
    cursor_expiry: float
    stall: float
    instances: dict[str, int]
    details: tuple[str, ...]

    def as_dict(self) -> dict:
        return asdict(self)


def list_requests(lines: list[dict], list_path: str = LIST_PATH) -> list[dict]:
    """The list GETs among ``lines``, in order."""
    return [line for line in lines if line["method"] == "GET" and line["path"] == list_path]


def graded_traps(
    lines: list[dict], timing: Timing, list_path: str = LIST_PATH
) -> Iterator[tuple[str, float, str, dict]]:
    """Each trap instance in ``lines`` (trace lines ordered by ``seq``) as
    ``(trap, score, detail, its line)``: ``retry_after``, ``cursor_expiry`` or ``stall``."""
    lists = list_requests(lines, list_path)
    for i, line in enumerate(lists):
        nxt = lists[i + 1] if i + 1 < len(lists) else None
        if line["status"] == 429:
            yield "retry_after", *_retry_verdict(line, nxt, timing), line
        elif line["status"] == 410:
            fresh = nxt is not None and not nxt["query"].get("cursor")
            why = "restarted without a cursor" if fresh else "did not restart without a cursor"
            yield "cursor_expiry", float(fresh), f"410 #{line['seq']}: {why}", line
        if "stall_began_t" in line:
            yield "stall", *_stall_verdict(line, lists[i + 1 :]), line


def trap_results(lines: list[dict], timing: Timing, list_path: str = LIST_PATH) -> TrapResults:
    """Grade every 429, 410 and stall in ``lines`` (trace lines ordered by ``seq``)."""
    scores: dict[str, list[float]] = {"retry_after": [], "cursor_expiry": [], "stall": []}
    details: list[str] = []
    for trap, score, detail, _line in graded_traps(lines, timing, list_path):
        scores[trap].append(score)
        details.append(detail)
    return TrapResults(
        retry_after=min(scores["retry_after"], default=0.0),
        cursor_expiry=min(scores["cursor_expiry"], default=0.0),
        stall=min(scores["stall"], default=0.0),
        instances={name: len(values) for name, values in scores.items()},
        details=tuple(details),
    )


def _retry_verdict(line: dict, nxt: dict | None, timing: Timing) -> tuple[float, str]:
    """1.0 when the next list request waited the advertised time, less the form's tolerance."""
    seconds = line["form"] == "seconds"
    tolerance = timing.seconds_tolerance if seconds else timing.date_tolerance
    need = max(line["retry_after_secs"] - tolerance, timing.floor_secs)
    head = f"429 ({line['form']}) #{line['seq']}: next list request"
    if nxt is None:
        return 0.0, f"{head} never came"
    gap = nxt["t"] - line["t"]
    return float(gap >= need), f"{head} after {gap:.2f} s (needs >= {need:.2f} s)"


def _stall_verdict(held: dict, later: list[dict]) -> tuple[float, str]:
    """1.0: retried inside the hold and then completed; 0.5: waited it out; 0: never completed.

    A dropped connection alone earns nothing: the retry must land while the hold
    is still open (methodology §09), and the page must then complete.
    """
    began, offset = held["stall_began_t"], held["offset"]
    head = f"stall #{held['seq']} at offset {offset}"
    same = [line for line in later if line.get("offset") == offset and "stall_began_t" not in line]
    retries = [line for line in same if began < line["t"] < began + held["stall_secs"]]
    done = [line for line in same if line["status"] in OK_STATUSES]
    if retries and any(line["seq"] >= retries[0]["seq"] for line in done):
        return 1.0, f"{head}: retried {retries[0]['t'] - began:.2f} s into the hold, then completed"
    if held["status"] in OK_STATUSES or done:
        return 0.5, f"{head}: completed only after the hold (waited it out)"
    return 0.0, f"{head}: the held page never completed"
