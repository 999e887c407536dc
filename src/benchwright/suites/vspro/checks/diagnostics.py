"""The weight-zero diagnostics (their evidence is graded inside compound checks)."""

from __future__ import annotations

import re

from benchwright.model import CheckResult
from benchwright.services.meridian.script import HOSTILE_FLAG, HOSTILE_NAME, HOSTILE_PAYMENT
from benchwright.suites.kit.browser.rows import view
from benchwright.suites.kit.checks import app_check, frac, g, result, unavailable
from benchwright.suites.vspro.checks.tier_c import pagination_cells, validation_cells
from benchwright.suites.vspro.observations import Observations, body

_INSERT = re.compile(r"INSERT\b[^;\"']*?\bINTO\s+payments\b.*?(?:;|\"\"\"|'''|\"\)|'\))",
                     re.I | re.S)  # fmt: skip
_UPDATE = re.compile(r"ON\s+CONFLICT\b.*?\bDO\s+UPDATE", re.I | re.S)
_REPLACE = re.compile(r"INSERT\s+OR\s+(?:REPLACE|IGNORE)|REPLACE\s+INTO", re.I)
_SELECT_THEN_INSERT = re.compile(r"SELECT\b[^;]*\bWHERE\b[^;]*\bid\b", re.I)
UPSERT_SCORES = {"on_conflict_update": 1.0, "replace_or_ignore": 0.5, "select_then_insert": 0.3}


def upsert_kind(source: str | None) -> str:
    """How store.py writes payments: the INSERT INTO payments statement, else the file."""
    if source is None:
        return "no store.py"
    statement = _INSERT.search(source)
    for text in ((statement.group(0),) if statement else ()) + (source,):
        if _UPDATE.search(text):
            return "on_conflict_update"
        if _REPLACE.search(text):
            return "replace_or_ignore"
    if re.search(r"INSERT\s+INTO", source, re.I) and _SELECT_THEN_INSERT.search(source):
        return "select_then_insert"
    return "none"


@app_check("store_atomic_upsert", needs=("static",))
def store_atomic_upsert(obs: Observations, _s) -> CheckResult:
    """ON CONFLICT DO UPDATE 1.0; INSERT OR REPLACE/IGNORE 0.5; select-then-insert 0.3; 0."""
    kind = upsert_kind(obs["static"].store_source)
    score = UPSERT_SCORES.get(kind, 0.0)
    return result("store_atomic_upsert", score, f"{g(score)}: {kind}")


@app_check("input_validation", needs=("validation", "batch"))
def input_validation(obs: Observations, _s) -> CheckResult:
    """The public instrument's seven cells with the documented status (five bad GETs 400,
    /api/nope 404, the invalid batch 400); the spec's further status duties are
    ``x_status_duties``'s."""
    cells = validation_cells(obs)
    score = frac(sum(cells.values()), len(cells))
    bad = [k for k, ok in cells.items() if not ok]
    tail = f"; wrong: {', '.join(bad)}" if bad else ""
    return result(
        "input_validation", score, f"{g(score)}: {sum(cells.values())}/{len(cells)}{tail}"
    )


@app_check("local_pagination", needs=("reads",))
def local_pagination(obs: Observations, _s) -> CheckResult:
    """Default 50 rows, limit=500 capped and echoed as 200, limit=5&offset=5 five rows."""
    cells = dict(list(pagination_cells(obs).items())[:3])
    score = frac(sum(cells.values()), 3)
    bad = [k for k, ok in cells.items() if not ok]
    tail = f"; failed: {', '.join(bad)}" if bad else ""
    return result("local_pagination", score, f"{g(score)}: {sum(cells.values())}/3{tail}")


@app_check("resync_idempotent", needs=("sync2",))
def resync_idempotent(obs: Observations, _s) -> CheckResult:
    """Sync #2 inserts 0 with the exact total: 1.0; total right but inserts: 0.5; else 0."""
    found = body(obs["sync2"].call)
    if found is None:
        return result("resync_idempotent", 0.0, "0: sync #2 gave no JSON object")
    total_ok = found.get("total") == obs.expect.total
    score = 1.0 if total_ok and found.get("inserted") == 0 else 0.5 if total_ok else 0.0
    return result("resync_idempotent", score, f"{g(score)}: inserted {found.get('inserted')}, "
                  f"total {found.get('total')} (want 0, {obs.expect.total})")  # fmt: skip


@app_check("restart_persistence", needs=("restart",))
def restart_persistence(obs: Observations, _s) -> CheckResult:
    """Rows after SIGKILL + reboot over rows before (0 when never healthy or no rows)."""
    r = obs["restart"]
    if not r.rows_before:
        return result("restart_persistence", 0.0, f"0: no rows before the kill ({r.rows_before})")
    if r.rows_after is None:
        return result("restart_persistence", 0.0, f"0: never healthy after the SIGKILL: "
                      f"{r.boot.detail}")  # fmt: skip
    score = min(r.rows_after / r.rows_before, 1.0)
    return result("restart_persistence", score, f"{g(score)}: {r.rows_before} -> {r.rows_after}")


@app_check("update_propagation", needs=("mutation",))
def update_propagation(obs: Observations, _s) -> CheckResult:
    """Each of the 12 vendor-side status flips visible locally after sync #3."""
    m = obs["mutation"]
    seen = [pid for pid, want in m.changed.items() if m.seen.get(pid) == want]
    score = frac(len(seen), len(m.changed))
    return result("update_propagation", score, f"{g(score)}: {len(seen)}/{len(m.changed)} "
                  "mutated statuses seen after sync #3")  # fmt: skip


@app_check("concurrent_sync_safe", needs=("concurrency",))
def concurrent_sync_safe(obs: Observations, _s) -> CheckResult:
    """1 - |count - total| / total after two simultaneous syncs."""
    count, want = obs["concurrency"].health_count, obs.expect.total
    if count is None:
        return result("concurrent_sync_safe", 0.0, "0: no count after the concurrent syncs")
    score = max(0.0, 1 - abs(count - want) / want)
    return result("concurrent_sync_safe", score, f"{g(score)}: {count} rows (want {want})")


@app_check("x_name_injection", needs=("hostile", "browser"))
def x_name_injection(obs: Observations, _s) -> CheckResult:
    """Weight zero (the spec is silent on markup in data; issue #13): a counterparty name
    that is markup, delivered through a signed webhook update, is shown as text (1) and
    never runs in the page (0 when the load scenario finds its handler ran)."""
    h = obs["hostile"]
    if h.sent is None:
        return unavailable("x_name_injection", f"the hostile name was not delivered: {h.refused}")
    held = (body(h.row) or {}).get("counterparty_name")
    if held != HOSTILE_NAME:
        return unavailable("x_name_injection", f"the app did not apply the signed update "
                           f"{h.sent.get('event_id')} (answered {h.sent.get('status')}; "
                           f"{HOSTILE_PAYMENT} name {held!r}): nothing to render")  # fmt: skip
    seen, why = view(obs, "x_name_injection", "load")
    if why is not None:
        return why
    ran, shown = seen.hostile
    if ran:
        return result("x_name_injection", 0.0, f"0: the counterparty name {HOSTILE_NAME!r} of "
                      f"{HOSTILE_PAYMENT} ran as markup in the page (its onerror handler set "
                      f"window.{HOSTILE_FLAG}): data rendered with innerHTML")  # fmt: skip
    said = "shown as text" if shown else "not found as text on the first page"
    return result("x_name_injection", 1.0, f"1: the counterparty name {HOSTILE_NAME!r} of "
                  f"{HOSTILE_PAYMENT} did not run ({said})")  # fmt: skip
