"""The contract ledger: every habit the v1 contract grades, read from the trace.

`TrapResults` grades the traps as one number each (v2's need). The v1 scorer reads
more, and separately (docs/facts/meridian-v1.md §8): each Retry-After form on its
own, the restart after a 410, whether the client paged by cursor and reached the
end, asked conditionally and got 304s, sent an ``Idempotency-Key`` on every create,
and read the docs. Every reading comes from what the client sent, so each can be 0,
and it can be taken over one phase, where a grader wants one sync's habits.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from benchwright.services.meridian.config import Timing
from benchwright.services.meridian.ledgers import graded_traps, list_requests

PHASE = "__phase__"
OFFSET_STYLE = ("page", "offset", "skip")
"""Query parameters of offset paging, which a cursor API does not have."""


@dataclass(frozen=True)
class ContractLedger:
    """Trap scores are the minimum over their instances, 0 when there were none."""

    phase: str | None
    """The phase read (None: the whole trace since the mock started)."""
    retry_seconds: float
    retry_date: float
    cursor_expiry: float
    list_requests: int
    offset_style_requests: int
    reached_end: bool
    """Some list request was answered with the last page (``next_cursor: null``)."""
    largest_limit: int | None
    conditional_requests: int
    """List requests carrying ``If-None-Match``."""
    not_modified: int
    creates: int
    keyed_creates: int
    replayed_creates: int
    """Creates answered ``409 duplicate`` (a key sent again)."""
    docs_reads: int
    """Requests for the docs over the whole trace: reading them is not a phase's habit."""
    details: tuple[str, ...]

    def as_dict(self) -> dict:
        return asdict(self)


def phase_lines(lines: list[dict], name: str) -> list[dict]:
    """The lines after the last marker of phase ``name``, up to the next marker.

    Raises:
        ValueError: no such phase was marked.
    """
    starts = [i for i, line in enumerate(lines) if line.get(PHASE) == name]
    if not starts:
        raise ValueError(f"no phase {name!r} was marked in the Meridian trace")
    after = lines[starts[-1] + 1 :]
    end = next((i for i, line in enumerate(after) if PHASE in line), len(after))
    return after[:end]


def contract_ledger(
    lines: list[dict], timing: Timing, list_path: str, docs_paths: tuple[str, ...],
    phase: str | None = None,
) -> ContractLedger:  # fmt: skip
    """Read ``lines`` (ordered by ``seq``), or only phase ``phase`` of them.

    Raises:
        ValueError: ``phase`` was never marked.
    """
    scoped = phase_lines(lines, phase) if phase is not None else lines
    scores: dict[str, list[float]] = {"seconds": [], "date": [], "cursor_expiry": []}
    details: list[str] = []
    for trap, score, detail, line in graded_traps(scoped, timing, list_path):
        key = line["form"] if trap == "retry_after" else trap
        if key in scores:
            scores[key].append(score)
            details.append(detail)
    lists = list_requests(scoped, list_path)
    limits = [int(x["query"]["limit"]) for x in lists if x["query"].get("limit", "").isdigit()]
    creates = [x for x in scoped if x["method"] == "POST" and x["path"] == list_path]
    return ContractLedger(
        phase=phase,
        retry_seconds=min(scores["seconds"], default=0.0),
        retry_date=min(scores["date"], default=0.0),
        cursor_expiry=min(scores["cursor_expiry"], default=0.0),
        list_requests=len(lists),
        offset_style_requests=sum(any(k in x["query"] for k in OFFSET_STYLE) for x in lists),
        reached_end=any(x["status"] == 200 and x.get("last") for x in lists),
        largest_limit=max(limits, default=None),
        conditional_requests=sum(bool(x.get("if_none_match")) for x in lists),
        not_modified=sum(x["status"] == 304 for x in lists),
        creates=len(creates),
        keyed_creates=sum(bool(x.get("idempotency_key")) for x in creates),
        replayed_creates=sum(x["status"] == 409 for x in creates),
        docs_reads=sum(x["method"] == "GET" and x["path"] in docs_paths for x in lines),
        details=tuple(details),
    )
