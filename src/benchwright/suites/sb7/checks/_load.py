"""The reads raced against the stream burst, judged once for the two rows that grade them
(p_under_stream, e_under_load_latency: the same measurement on their own ladders).

The order is §12's: unproven load licenses nothing (fewer than half the reads overlapped
the burst: PROBE UNAVAILABLE), then fast wrong answers are not performance (any wrong or
empty page: 0), then the p95 on the row's ladder."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benchwright.model import CheckResult
from benchwright.probes.http import JsonRead, LoadSample, parse_wire_json
from benchwright.suites.kit.checks import g, result, unavailable
from benchwright.suites.kit.checks.timing import rung
from benchwright.suites.kit.wire import body, integer, rows_of
from benchwright.suites.sb7.checks._common import (
    PROBE,
    CheckSettings,
    commits,
    missing_fixture,
)
from benchwright.suites.sb7.observations import Observations
from benchwright.suites.sb7.perf_obs import UNDER_STREAM, UnderStreamObs

OVERLAP_FLOOR = 0.5
PAGE = 50
"""The page the readers ask for (``limit=50``)."""


def under_load_row(check_id: str, obs: Observations, s: CheckSettings) -> CheckResult:
    """``check_id``'s row from the under-stream measurement, on its own ladder."""
    seen: UnderStreamObs = obs[UNDER_STREAM]
    load = seen.load
    if not load.samples or load.overlap_fraction < OVERLAP_FLOOR:
        return unavailable(check_id, f"{PROBE}only {load.overlap_fraction:.0%} of "
                           f"{len(load.samples)} reads overlapped the stream burst (floor "
                           f"{OVERLAP_FLOOR:.0%}); unproven load licenses nothing")  # fmt: skip
    if obs.truth is None:
        return missing_fixture(check_id)
    money = _money(obs)
    wrong = [(x, why) for x in load.samples if (why := _wrong(x, seen.expect_total, money))]
    if wrong:
        (first, why), n = wrong[0], len(wrong)
        detail = (f"0: {n}/{len(load.samples)} reads wrong under load (first: reader "
                  f"{first.reader} read {first.index}: {why})")  # fmt: skip
        return result(check_id, 0.0, detail, wrong=n)
    if load.p95_ms is None:
        return result(check_id, 0.0, "0: p95 unmeasurable")
    head, rest = rung(load.p95_ms, s.ladders[check_id], s.k_p, "ms")
    stream = seen.listener
    heard = (f"stream {stream.status}, {stream.messages} messages, "
             f"{stream.burst_ids_seen}/{len(seen.burst)} burst payments")  # fmt: skip
    return result(check_id, head, f"{g(head)}: p95 {rest}; {len(load.samples)} reads, overlap "
                  f"{load.overlap_fraction:.0%}; {heard}", p95_ms=load.p95_ms,
                  overlap=load.overlap_fraction, timing_score=head)  # fmt: skip


def _money(obs: Observations) -> dict[str, tuple[Any, Any]]:
    """Payment id -> (amount_minor, currency) the vendor committed: the fixture's rows and
    every payment created since (amounts never change in v3)."""
    found = {pid: (r.amount_minor, r.currency) for pid, r in obs.truth.rows.items()}  # type: ignore[union-attr]
    found |= {c.payment_id: (c.amount_minor, c.currency) for c in commits(obs) if c.created}
    return found


def _wrong(sample: LoadSample, total: int, money: Mapping[str, tuple[Any, Any]]) -> str | None:
    """Why one read is not a correct page (None when it is): a 2xx JSON page of the
    collection's true total with a full first page, every row's money the vendor's."""
    response = sample.response
    if not response.succeeded:
        return response.error or f"status {response.status}"
    read = JsonRead(response, parse_wire_json(response.body))
    rows = rows_of(read)
    if rows is None:
        return "no data list"
    if integer(body(read), "total") != total:
        return f"total {(body(read) or {}).get('total')!r}, want {total}"
    if len(rows) != min(PAGE, total):
        return f"{len(rows)} rows, want {min(PAGE, total)}"
    for row in rows:
        pid = row.get("id") if isinstance(row, dict) else None
        found = (row.get("amount_minor"), row.get("currency")) if pid is not None else None
        if not isinstance(pid, str) or money.get(pid) != found:
            return f"row {pid!r} is not the vendor's payment"
    return None
