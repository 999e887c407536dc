"""Tier D (finesse), except its hard check: page size, concurrent syncs, the list's
content type, the page's polish and error advice, and the store's and client's source
(facts entries 33-40)."""

from __future__ import annotations

import ast
import re

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, frac, g, result
from benchwright.suites.vendorsync.checks._common import CheckSettings
from benchwright.suites.vendorsync.checks._read import has_id, ledger, page_text, words
from benchwright.suites.vendorsync.observations import LARGEST_PAGE, Observations

TIMEOUT_BOUND_S = 10.0
"""Spec §4: every vendor request has a timeout of at most 10 seconds."""
MERGING_UPSERT = re.compile(r"\bINSERT\b.*?\bON\s+CONFLICT\b.*?\bDO\s+UPDATE\b", re.I | re.S)
OTHER_UPSERT = re.compile(
    r"\bINSERT\s+OR\s+(?:REPLACE|IGNORE)\b|\bREPLACE\s+INTO\b|\bON\s+CONFLICT\b.*?\bDO\s+NOTHING\b",
    re.I | re.S,
)
SELECT = re.compile(r"\bSELECT\b", re.I)
INSERT = re.compile(r"\bINSERT\s+INTO\b", re.I)
KEYED = re.compile(r"\bPRIMARY\s+KEY\b|\bUNIQUE\b|\bCREATE\s+(?:UNIQUE\s+)?INDEX\b", re.I)
DISABLES = re.compile(r"\.disabled\s*=|setAttribute\(\s*['\"]disabled")
ACTIONABLE = ("try again", "retry", "check your connection", "check the connection",
              "check that the server", "check the server", "refresh", "reload")  # fmt: skip
GENERIC = ("error", "failed", "went wrong", "could not", "unable")


@app_check("uses_max_limit", needs=("sync1", "trace"))
def uses_max_limit(obs: Observations, s: CheckSettings) -> CheckResult:
    """The first sync asked the vendor for pages of 100; else the largest limit over 100."""
    found = ledger(obs, "sync1")
    largest = found.largest_limit if found is not None else None
    if largest is None:
        return result("uses_max_limit", 0.0, "0: the first sync sent no list request with a limit")
    score = min(1.0, largest / LARGEST_PAGE)
    return result("uses_max_limit", score, f"{g(score)}: largest limit asked {largest} "
                  f"(the vendor allows {LARGEST_PAGE})")  # fmt: skip


@app_check("concurrent_sync_safe", needs=("concurrent",))
def concurrent_sync_safe(obs: Observations, s: CheckSettings) -> CheckResult:
    """After two overlapping POST /api/sync (both answered), health counts exactly 247."""
    seen, total = obs["concurrent"], obs.truth.total
    unanswered = 2 - sum(c.status is not None for c in seen.calls)
    if unanswered:
        return result("concurrent_sync_safe", 0.0, f"0: {unanswered} of the two overlapping "
                      "syncs got no answer")  # fmt: skip
    ok = seen.health_count == total
    return result("concurrent_sync_safe", float(ok), f"{int(ok)}: health counts "
                  f"{seen.health_count} after two overlapping syncs (want {total})")  # fmt: skip


@app_check("api_content_type", needs=("reads",))
def api_content_type(obs: Observations, s: CheckSettings) -> CheckResult:
    """GET /api/payments declares application/json."""
    ctype = obs["reads"].default.content_type
    ok = (ctype or "").split(";")[0].strip().lower() == "application/json"
    return result("api_content_type", float(ok), f"{int(ok)}: Content-Type {ctype!r}")


@app_check("ui_polish", needs=("static",))
def ui_polish(obs: Observations, s: CheckSettings) -> CheckResult:
    """Five affordances in the page: #last-sync, #sync-now disabled while syncing,
    #page-info, #retry, table headers; fifths."""
    static = obs["static"]
    parts = {
        "#last-sync": has_id(static, "last-sync"),
        "#sync-now disabled while syncing": has_id(static, "sync-now")
        and DISABLES.search(static.web.get("app.js", "")) is not None,
        "#page-info": has_id(static, "page-info"),
        "#retry": has_id(static, "retry"),
        "table headers": re.search(r"<th\b", page_text(static), re.I) is not None,
    }
    failed = [name for name, ok in parts.items() if not ok]
    score = frac(len(parts) - len(failed), len(parts))
    detail = f"missing {', '.join(failed)}" if failed else "all five affordances"
    return result("ui_polish", score, f"{g(score)}: {detail}", missing=failed)


@app_check("store_atomic_upsert", needs=("static",))
def store_atomic_upsert(obs: Observations, s: CheckSettings) -> CheckResult:
    """store.py merges with one INSERT ... ON CONFLICT ... DO UPDATE; 0.5 replace/ignore
    forms; 0.3 select-then-insert; 0 none."""
    source = obs["static"].store_source or ""
    if MERGING_UPSERT.search(source):
        return result("store_atomic_upsert", 1.0, "1: INSERT ... ON CONFLICT ... DO UPDATE")
    if OTHER_UPSERT.search(source):
        return result("store_atomic_upsert", 0.5, "0.5: a replace/ignore upsert, not a merge")
    if SELECT.search(source) and INSERT.search(source):
        return result("store_atomic_upsert", 0.3, "0.3: select-then-insert, not atomic")
    return result("store_atomic_upsert", 0.0, "0: no upsert found in store.py")


@app_check("store_indexed", needs=("static",))
def store_indexed(obs: Observations, s: CheckSettings) -> CheckResult:
    """store.py keys payments (a primary key, unique constraint or an index)."""
    found = KEYED.search(obs["static"].store_source or "")
    if found is None:
        return result("store_indexed", 0.0, "0: no primary key, unique or index in store.py")
    return result("store_indexed", 1.0, f"1: {' '.join(found.group(0).split()).upper()}")


@app_check("client_timeouts", needs=("static",))
def client_timeouts(obs: Observations, s: CheckSettings) -> CheckResult:
    """meridian.py sets a timeout on its requests, none above 10 s (spec §4)."""
    source = obs["static"].meridian_source
    if source is None:
        return result("client_timeouts", 0.0, "0: no meridian.py")
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return result("client_timeouts", 0.0, f"0: meridian.py does not parse: {exc.msg}")
    used, numbers = timeouts(tree)
    if not used:
        return result("client_timeouts", 0.0, "0: no request in meridian.py sets a timeout")
    over = [v for v in numbers if v > TIMEOUT_BOUND_S]
    if over:
        return result("client_timeouts", 0.0, f"0: a timeout of {max(over):g} s "
                      f"(spec §4: at most {TIMEOUT_BOUND_S:g} s)")  # fmt: skip
    return result("client_timeouts", 1.0, "1: requests carry a timeout"
                  + (f" ({max(numbers):g} s)" if numbers else ""))  # fmt: skip


def timeouts(tree: ast.AST) -> tuple[bool, list[float]]:
    """(some call passes ``timeout=`` or sets a default timeout, the numbers given as
    timeouts: literals passed so, and constants assigned to names saying ``timeout``)."""
    used, numbers = False, []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            given = [k.value for k in node.keywords if k.arg == "timeout"]
            if isinstance(node.func, ast.Attribute) and node.func.attr == "setdefaulttimeout":
                given += node.args[:1]
            used = used or bool(given)
            numbers += [n for n in map(_number, given) if n is not None]
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named = any("timeout" in ast.unparse(t).lower() for t in targets)
            value = _number(node.value) if named else None
            numbers += [value] if value is not None else []
    return used, numbers


def _number(node: ast.AST) -> float | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return None if isinstance(node.value, bool) else float(node.value)
    return None


@app_check("ui_error_actionable", needs=("static",))
def ui_error_actionable(obs: Observations, s: CheckSettings) -> CheckResult:
    """The page tells the user what to do on error (try again, retry, check the
    connection or server, refresh); 0.4 only generic error words; 0 none or no page."""
    text = page_text(obs["static"])
    if not text:
        return result("ui_error_actionable", 0.0, "0: no page")
    advice = words(text, *ACTIONABLE)
    if advice:
        return result("ui_error_actionable", 1.0, f"1: the page advises {advice[0]!r}")
    generic = words(text, *GENERIC)
    if generic:
        return result("ui_error_actionable", 0.4, f"0.4: only generic words ({generic[0]!r})")
    return result("ui_error_actionable", 0.0, "0: the page says nothing on error")
