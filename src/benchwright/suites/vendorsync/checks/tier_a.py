"""Tier A (structure): the package's files and classes, the boot, the page, the health
and sync shapes (facts entries 1-6)."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, frac, g, result
from benchwright.suites.kit.wire import body, health_json
from benchwright.suites.vendorsync.checks._common import CheckSettings
from benchwright.suites.vendorsync.observations import Observations

INTERFACES = {
    "MeridianClient": ("fetch_all_payments", "total_count", "create_payment"),
    "Store": ("upsert_many", "all_payments", "count", "last_sync", "set_last_sync"),
}
HEALTH_WINDOW_S = 5.0
"""Spec §3: health answers within 5 seconds of the process starting."""
HEALTH_KEYS = ("status", "payments", "last_sync")
SYNC_KEYS = ("fetched", "inserted", "total")


@app_check("modules_present", needs=("static",))
def modules_present(obs: Observations, s: CheckSettings) -> CheckResult:
    """Every path spec §2 names exists in the vendorsync package; else the fraction."""
    modules = obs["static"].modules
    missing = [path for path, present in modules.items() if not present]
    score = frac(len(modules) - len(missing), len(modules))
    detail = f"missing {', '.join(missing)}" if missing else f"all {len(modules)} present"
    return result("modules_present", score, f"{g(score)}: {detail}", missing=missing)


@app_check("interfaces_declared", needs=("static",))
def interfaces_declared(obs: Observations, s: CheckSettings) -> CheckResult:
    """MeridianClient's 3 and Store's 5 methods are defined (read from the source)."""
    seen = obs["static"]
    wanted = [(cls, m) for cls, methods in INTERFACES.items() for m in methods]
    missing = [f"{cls}.{m}" for cls, m in wanted if m not in seen.methods.get(cls, ())]
    score = frac(len(wanted) - len(missing), len(wanted))
    detail = f"missing {', '.join(missing)}" if missing else "all 8 methods defined"
    if seen.parse_errors:
        detail += f" (unparseable: {'; '.join(seen.parse_errors)})"
    return result("interfaces_declared", score, f"{g(score)}: {detail}", missing=missing)


@app_check("server_runs", needs=("boot",))
def server_runs(obs: Observations, s: CheckSettings) -> CheckResult:
    """The boot line answers GET /api/health with 200 JSON within 5 s (spec §3)."""
    boot = obs["boot"].boot
    after = boot.healthy_after_s
    if after is None:
        return result("server_runs", 0.0, f"0: {boot.detail}")
    if health_json(boot) is None:
        return result("server_runs", 0.0, "0: /api/health answered 200 but not a JSON object")
    if after > HEALTH_WINDOW_S:
        return result("server_runs", 0.0, f"0: healthy only after {after:.2f} s "
                      f"(spec §3: within {HEALTH_WINDOW_S:g} s)", seconds=after)  # fmt: skip
    return result("server_runs", 1.0, f"1: healthy after {after:.2f} s", seconds=after)


@app_check("serves_page", needs=("reads",))
def serves_page(obs: Observations, s: CheckSettings) -> CheckResult:
    """GET / answers 200 with markup."""
    index = obs["reads"].index
    text = index.body[:4096].decode("utf-8", errors="replace").lower()
    if index.status != 200:
        return result("serves_page", 0.0, f"0: GET / answered {index.status or index.error}")
    if "<html" not in text and "<!doctype html" not in text and "<body" not in text:
        return result("serves_page", 0.0, "0: GET / answered 200 without HTML markup")
    return result("serves_page", 1.0, "1: GET / serves the page")


def _keys(check_id: str, found: dict | None, keys: tuple[str, ...], what: str) -> CheckResult:
    """A third (of ``keys``) per key present in ``found``."""
    if found is None:
        return result(check_id, 0.0, f"0: {what} is not a JSON object")
    missing = [k for k in keys if k not in found]
    score = frac(len(keys) - len(missing), len(keys))
    detail = f"missing {', '.join(missing)}" if missing else f"has {', '.join(keys)}"
    return result(check_id, score, f"{g(score)}: {what} {detail}", missing=missing)


@app_check("health_shape", needs=("boot",))
def health_shape(obs: Observations, s: CheckSettings) -> CheckResult:
    """The health body has status, payments, last_sync; thirds per missing key."""
    return _keys("health_shape", health_json(obs["boot"].boot), HEALTH_KEYS, "/api/health")


@app_check("sync_shape", needs=("sync1",))
def sync_shape(obs: Observations, s: CheckSettings) -> CheckResult:
    """The first POST /api/sync body has fetched, inserted, total; thirds per missing key."""
    return _keys("sync_shape", body(obs["sync1"].call), SYNC_KEYS, "the first sync's body")
