"""The walk and cache ledgers, read from the request trace (lines ordered by ``seq``).

They grade what the client really sent: the list requests after the first walk's drop
and 500, and after the stale-validator 304. A fault that never fired says so
(``fired=False``) rather than passing.
"""

from __future__ import annotations

from benchwright.services.meridian_v3.config import LIST_PATH
from benchwright.services.meridian_v3.records import FaultFacts, StaleLedger, WalkLedger
from benchwright.services.meridian_v3.schedule import Schedule
from benchwright.services.meridian_v3.stale import StaleTrap


def list_lines(lines: list[dict]) -> list[dict]:
    return [line for line in lines if line["method"] == "GET" and line["path"] == LIST_PATH]


def _cursor(line: dict) -> str | None:
    return line["query"].get("cursor") or None


def walk_ledger(lines: list[dict], schedule: Schedule) -> WalkLedger:
    """The first walk: from its first served page to its last (or the end of the trace)."""
    lists = list_lines(lines)
    walk = [line for line in lists if line.get("walk_page") is not None]
    start = next((i for i, line in enumerate(lists) if line.get("walk_page") == 1), None)
    end = next(
        (i for i, line in enumerate(lists) if line.get("walk_page") and line["last"]),
        len(lists) - 1,
    )
    span = lists[start : end + 1] if start is not None else []
    fired_races = tuple(line["race_page"] for line in walk if "race_page" in line)
    return WalkLedger(
        started=start is not None,
        completed=any(line["last"] for line in walk),
        pages_served=len(walk),
        distinct_pages=len({line["offset"] for line in walk}),
        restarts=sum(_cursor(line) is None for line in span[1:]),
        drop=_fault(span, "drop"),
        error=_fault(span, "error"),
        race_pages_fired=fired_races,
        create_fired=schedule.create.page in fired_races,
        undocumented_params=sum("undocumented" in line for line in span),
    )


def _fault(span: list[dict], kind: str) -> FaultFacts:
    """What followed the first walk's ``kind`` fault (``drop`` or ``error``)."""
    at = next((i for i, line in enumerate(span) if line.get("fault") == kind), None)
    if at is None:
        return FaultFacts(armed=True, fired=False, detail=f"the {kind} never fired")
    fault, after = span[at], span[at + 1 :]
    cursor = _cursor(fault)
    retries = 0
    for line in after:
        if _cursor(line) == cursor:
            retries += 1
            if line["status"] == 200:
                break
    nxt = after[0] if after else None
    restarted = any(_cursor(line) is None for line in after)
    waited = round(nxt["t"] - fault["t"], 3) if nxt else None
    facts = FaultFacts(
        armed=True,
        fired=True,
        cursor=cursor,
        resumed_same_cursor=nxt is not None and _cursor(nxt) == cursor,
        retries=retries,
        waited_secs=waited,
        advertised_secs=fault.get("retry_after_secs"),
        restarted=restarted,
    )
    head = f"{kind} #{fault['seq']} (page {fault.get('page')})"
    how = (
        "no list request followed"
        if nxt is None
        else f"next asked {'the same cursor' if facts.resumed_same_cursor else 'another page'} "
        f"after {waited:.2f} s; {retries} request(s) for it until a 200"
        + ("; the walk was restarted" if restarted else "")
    )
    return FaultFacts(**{**facts.__dict__, "detail": f"{head}: {how}"})


def stale_ledger(lines: list[dict], trap: StaleTrap) -> StaleLedger:
    """The lie and the client's requests for that page until the next phase marker."""
    if trap.arm is None:
        return StaleLedger(armed=False, fired=False)
    at = next((i for i, line in enumerate(lines) if line.get("stale_lie")), None)
    if at is None:
        return StaleLedger(armed=True, fired=False, page=trap.arm.page, masked=trap.masked)
    lie = lines[at]
    window = [lie]
    for line in lines[at + 1 :]:
        if "__phase__" in line:
            break
        window.append(line)
    same = [line for line in list_lines(window) if line.get("offset") == lie["offset"]]
    return StaleLedger(
        armed=True,
        fired=True,
        page=trap.arm.page,
        cursor=_cursor(lie),
        validator=lie["if_none_match"],
        lied_generation=lie["generation"],
        identical_conditionals=sum(
            line["if_none_match"] == lie["if_none_match"] and _cursor(line) == _cursor(lie)
            for line in same
        ),
        unconditional_refetches=sum(line["if_none_match"] is None for line in same),
        masked=trap.masked,
    )
