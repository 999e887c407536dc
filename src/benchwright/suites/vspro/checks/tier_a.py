"""Tier A (structure): files, interfaces, asset budget, boot, health, page, sync shape."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.probes.http import HttpObservation
from benchwright.suites.kit.checks import app_check, frac, g, result
from benchwright.suites.vspro.observations import Observations, PageObs, body, health_json

BUDGET = 153_600
INTERFACES = {
    "MeridianClient": ("fetch_all_payments", "get_payment", "total_count", "create_payment",
                       "create_batch", "update_payment", "register_webhook"),
    "Store": ("upsert_many", "query", "get", "apply_event", "buckets", "count", "last_sync",
              "set_last_sync"),
}  # fmt: skip
HEALTH_KEYS = ("status", "payments", "last_sync", "webhook")
WEBHOOK_KEYS = ("registered", "received", "applied", "ignored", "rejected")
SYNC_KEYS = ("fetched", "inserted", "updated", "total")
ASSET_TYPES = {"styles.css": "css", "app.js": "javascript", "viz.js": "javascript"}


@app_check("modules_present", needs=("static",))
def modules_present(obs: Observations, _s) -> CheckResult:
    """All 8 spec paths under vspro/ exist; each missing file costs 1/8."""
    modules = obs["static"].modules
    missing = [p for p, ok in modules.items() if not ok]
    score = frac(len(modules) - len(missing), len(modules))
    tail = f"; missing {', '.join(missing)}" if missing else ""
    return result("modules_present", score, f"{g(score)}: {len(modules) - len(missing)}/8 "
                  f"spec files present{tail}", missing=missing)  # fmt: skip


@app_check("interfaces_declared", needs=("static",))
def interfaces_declared(obs: Observations, _s) -> CheckResult:
    """MeridianClient's 7 and Store's 8 methods declared (AST); each missing costs 1/15."""
    st = obs["static"]
    missing = [f"{cls}.{m}" for cls, ms in INTERFACES.items() for m in ms
               if m not in st.methods.get(cls, ())]  # fmt: skip
    score = frac(15 - len(missing), 15)
    tail = f"; missing {', '.join(missing)}" if missing else ""
    errors = f"; parse errors: {'; '.join(st.parse_errors)}" if st.parse_errors else ""
    return result("interfaces_declared", score,
                  f"{g(score)}: {15 - len(missing)}/15 methods declared{tail}{errors}",
                  missing=missing)  # fmt: skip


@app_check("a_asset_budget", needs=("static",))
def a_asset_budget(obs: Observations, _s) -> CheckResult:
    """Web files total <= 150 KB: 1.0; <= 180 KB (120 %): 0.3; beyond, or no files: 0."""
    sizes = obs["static"].asset_bytes
    total = sum(sizes.values())
    if not sizes:
        return result("a_asset_budget", 0.0, "0: no web files on disk")
    kib = f"{total / 1024:.1f} KB ({total} B over {len(sizes)} files)"
    if total <= BUDGET:
        return result("a_asset_budget", 1.0, f"1: {kib} (rung <=150 KB)", bytes=total)
    if total <= BUDGET * 1.2:
        return result("a_asset_budget", 0.3, f"0.3: {kib} (rung <=180 KB; top rung <=150 KB)")
    return result("a_asset_budget", 0.0, f"0: {kib} (beyond 180 KB; top rung <=150 KB)")


@app_check("server_runs", needs=("boot",))
def server_runs(obs: Observations, _s) -> CheckResult:
    """The boot ladder: healthy <=5 s 1.0; later 0.75; port only 0.4; alive 0.15; crash 0."""
    boot = obs["boot"].boot
    output = {} if boot.healthy_after_s is not None else {"output": _text(boot.output_tail)}
    return result("server_runs", boot.ladder, boot.detail, log=str(boot.log_path), **output)


def _text(tail: bytes) -> str:
    """The app's last output at a failed boot (its traceback): the detail quotes only
    its last line, the evidence keeps it whole."""
    return tail.decode("utf-8", errors="replace").strip()


@app_check("health_shape", needs=("boot",))
def health_shape(obs: Observations, _s) -> CheckResult:
    """/api/health has status, payments, last_sync, webhook + 5 counters; each key 1/9."""
    found = health_json(obs["boot"].boot) or {}
    hook = found.get("webhook") if isinstance(found.get("webhook"), dict) else {}
    missing = [k for k in HEALTH_KEYS if k not in found]
    missing += [f"webhook.{k}" for k in WEBHOOK_KEYS if k not in hook]
    score = frac(9 - len(missing), 9)
    tail = f"; missing {', '.join(missing)}" if missing else ""
    return result("health_shape", score, f"{g(score)}: {9 - len(missing)}/9 keys{tail}")


@app_check("sync_shape", needs=("sync1",))
def sync_shape(obs: Observations, _s) -> CheckResult:
    """Sync #1's body has fetched, inserted, updated, total; each key 1/4."""
    call = obs["sync1"].call
    found = body(call)
    if found is None:
        return result("sync_shape", 0.0, f"0: sync #1 gave no JSON object (status {call.status})")
    missing = [k for k in SYNC_KEYS if k not in found]
    score = frac(4 - len(missing), 4)
    tail = f"; missing {', '.join(missing)}" if missing else ""
    return result("sync_shape", score, f"{g(score)}: {4 - len(missing)}/4 keys{tail}")


@app_check("serves_page", needs=("page",))
def serves_page(obs: Observations, _s) -> CheckResult:
    """GET / 200 with markup, 3 assets non-empty on disk and served with css/javascript types
    at the bare path or under ``/web/`` (the public instrument tries both and passes either:
    §09). That §6.9 asks for both paths is ``x_asset_paths``'s.

    1.0 all three; 0.7 two; 0.4 zero or one; 0.2 index.html on disk but / not a 200 page;
    0 no server answered.
    """
    p = obs["page"]
    index = p.index
    if index.status is None:
        return result("serves_page", 0.0, f"0: no server answered GET / ({index.error})")
    if index.status != 200 or b"<" not in index.body:
        score = 0.2 if p.index_on_disk else 0.0
        return result("serves_page", score, f"{g(score)}: GET / answered {index.status} "
                      f"without a page (index.html on disk: {p.index_on_disk})")  # fmt: skip
    wrong = {n: _asset_fault(n, kind, p) for n, kind in ASSET_TYPES.items()}
    bad = [f"{n} ({why})" for n, why in wrong.items() if why]
    score = {3: 1.0, 2: 0.7}.get(3 - len(bad), 0.4)
    tail = f"; wrong or missing: {', '.join(bad)}" if bad else ""
    return result("serves_page", score, f"{g(score)}: page served, {3 - len(bad)}/3 assets "
                  f"with the right content type at /<file> or /web/<file>{tail}")  # fmt: skip


def asset_answers(name: str, page: PageObs) -> dict[str, HttpObservation]:
    """The asset's answers by path: ``/<name>`` and ``/web/<name>``."""
    return {f"/{name}": page.assets[name], f"/web/{name}": page.web_assets[name]}


def typed(answer: HttpObservation, kind: str) -> bool:
    """A 200 whose Content-Type names the asset's family (``css``, ``javascript``)."""
    return answer.status == 200 and kind in (answer.content_type or "").lower()


def _asset_fault(name: str, kind: str, page: PageObs) -> str:
    """Why one asset fails (empty when it passes): empty on disk, or neither path serves it
    with its type family."""
    if page.on_disk.get(name, 0) <= 0:
        return "empty or absent on disk"
    answers = asset_answers(name, page)
    if any(typed(a, kind) for a in answers.values()):
        return ""
    seen = ", ".join(f"{path} {a.status} {a.content_type or 'no content type'}"
                     for path, a in answers.items())  # fmt: skip
    return f"not served as {kind} at either path: {seen}"
