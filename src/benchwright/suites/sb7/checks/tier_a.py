"""Tier A (boot & deliverables, §12): the named files, both services booting, the combined
entrypoint, the served page, the asset budget and one database per service."""

from __future__ import annotations

import re

from benchwright.model import CheckResult
from benchwright.services._boot import last_line
from benchwright.services.app import BootObservation
from benchwright.suites.kit.checks import app_check, frac, g, result, unavailable
from benchwright.suites.sb7.checks._common import PROBE, parts_row, phase
from benchwright.suites.sb7.observations import (
    BOOT,
    FINAL,
    READS,
    SMOKE,
    TREE,
    Observations,
    PageObs,
)

NAMED = ("app/__main__.py", "DECISIONS.md", "app/web/index.html", "app/web/styles.css",
         "app/web/app.js", "app/web/viz.js")  # fmt: skip
"""The six deliverables the spec names by path (suites/sb7/spec.md: the page is the four
files under ``app/web/``, DECISIONS.md at the tree's root)."""
SERVICES = ("ledgerd", "notifierd")
HEALTHY_S = 10.0
"""The spec's listening budget for each service."""
SURVIVE_S = 5.0
BUDGET = 153_600
"""150 KB: the four web files' combined size."""
ASSET_TYPES = {"styles.css": "css", "app.js": "javascript", "viz.js": "javascript"}
EXTERNAL = re.compile(
    r"""(?:\b(?:src|href)\s*=\s*["']?\s*https?://)"""
    r"""|(?:\bimport\s*\(\s*["'`]https?://)"""
    r"""|(?:\bfetch\s*\(\s*["'`]https?://)""",
    re.IGNORECASE,
)
"""A reference to code or data off the machine (§12's scan: src=/href= to http(s), dynamic
import("http…") and fetch("http…"))."""
DATABASES = ("ledger.db", "notifier.db")


@app_check("a_package_layout", needs=(TREE,))
def a_package_layout(obs: Observations, _s) -> CheckResult:
    """The 6 named paths and a bootable module per service (``app/<svc>.py`` or
    ``app/<svc>/__main__.py``): present/8, each missing one costing 0.125."""
    files = obs[TREE].files
    missing = [p for p in NAMED if p not in files]
    missing += [f"app.{svc}" for svc in SERVICES if not _module(files, svc)]
    score = frac(8 - len(missing), 8)
    tail = f"; missing {', '.join(missing)}" if missing else ""
    return result("a_package_layout", score, f"{g(score)}: {8 - len(missing)}/8 deliverables "
                  f"present{tail}", missing=missing)  # fmt: skip


def _module(files: frozenset[str], service: str) -> bool:
    """A bootable module for ``python -m app.<service>``."""
    return f"app/{service}.py" in files or f"app/{service}/__main__.py" in files


@app_check("server_runs", needs=(BOOT,))
def server_runs(obs: Observations, _s) -> CheckResult:
    """The boot ladder: both healthy, ledgerd within 10 s: 1.0; later: 0.75; notifierd
    never reported health: 0.6; port bound but GET / never 200: 0.4; alive 5 s without
    binding: 0.15; crashed at boot: 0 (the boot error quoted)."""
    led, note = obs[BOOT].ledgerd, obs[BOOT].notifierd
    took = led.healthy_after_s
    evidence = {"ledgerd_healthy_s": took, "notifierd_healthy_s": note.healthy_after_s}
    if took is not None and note.healthy_after_s is None:
        why = f"ledgerd serves GET / but notifierd never reported health ({note.detail})"
        score = 0.6
    elif took is not None and took <= HEALTHY_S:
        score, why = 1.0, f"both healthy, ledgerd in {took:.1f} s (<= {HEALTHY_S:g} s)"
    elif took is not None:
        score, why = 0.75, f"both healthy, but ledgerd took {took:.1f} s (> {HEALTHY_S:g} s)"
    elif led.bound:
        seen = ", ".join(map(str, led.statuses)) or "no HTTP answer"
        score, why = 0.4, f"ledgerd's port answered but GET / never 200 (saw {seen})"
    elif _survived(led):
        score, why = 0.15, f"ledgerd alive after {SURVIVE_S:g} s but never bound its port"
    else:
        output = last_line(led.output_tail)
        evidence["output"] = led.output_tail.decode("utf-8", errors="replace")
        score, why = 0.0, f"ledgerd crashed at boot (exit {led.exit_code}): {output}"
    return result("server_runs", score, f"{g(score)}: {why}", **evidence)


def _survived(boot: BootObservation) -> bool:
    return boot.exit_code is None or (boot.exited_after_s or 0.0) > SURVIVE_S


@app_check("a_combined_entrypoint", needs=(SMOKE,))
def a_combined_entrypoint(obs: Observations, _s) -> CheckResult:
    """``python -m app`` boots (1/3), its ledgerd is healthy (1/3), its notifierd is
    healthy (1/3)."""
    smoke = obs[SMOKE]
    parts = {"booted": smoke.booted, "ledgerd healthy": smoke.ledgerd_healthy,
             "notifierd healthy": smoke.notifierd_healthy}  # fmt: skip
    said = f" ({smoke.detail})" if smoke.detail and not all(parts.values()) else ""
    return parts_row("a_combined_entrypoint", parts, f"python -m app{said}")


@app_check("serves_page", needs=(READS,))
def serves_page(obs: Observations, _s) -> CheckResult:
    """GET / a 200 with markup and the 3 assets served non-empty with css/javascript types:
    1.0; two assets 0.7; zero or one 0.4; / not a page but index.html on disk 0.2; no
    server answered 0."""
    page: PageObs = obs[READS].page
    index = page.index
    if index.status is None:
        return result("serves_page", 0.0, f"0: no server answered GET / ({index.error})")
    if index.status != 200 or b"<" not in index.body:
        score = 0.2 if "index.html" in _on_disk(obs) else 0.0
        return result("serves_page", score, f"{g(score)}: GET / answered {index.status} "
                      "without a page")  # fmt: skip
    bad = [f"{name} ({_asset_fault(name, kind, page)})" for name, kind in ASSET_TYPES.items()
           if _asset_fault(name, kind, page)]  # fmt: skip
    good = 3 - len(bad)
    score = {3: 1.0, 2: 0.7}.get(good, 0.4)
    tail = f"; wrong: {', '.join(bad)}" if bad else ""
    return result("serves_page", score, f"{g(score)}: page served, {good}/3 assets non-empty "
                  f"with their content type{tail}")  # fmt: skip


def _on_disk(obs: Observations) -> dict[str, int]:
    tree = phase(obs, TREE)
    return dict(tree.web_bytes) if tree is not None else {}


def _asset_fault(name: str, kind: str, page: PageObs) -> str:
    """Why one asset fails (empty when it passes)."""
    answer = page.assets.get(name)
    if answer is None or answer.status != 200:
        return f"answered {getattr(answer, 'status', None)}"
    if not answer.body:
        return "empty"
    if kind not in (answer.content_type or "").lower():
        return f"Content-Type {answer.content_type!r}"
    return ""


@app_check("a_asset_budget", needs=(TREE,))
def a_asset_budget(obs: Observations, _s) -> CheckResult:
    """min(size leg, offline leg): the web files present total <= 150 KB (1.0; <= 180 KB
    0.3; beyond 0) and not one external reference in the files or the served page (else 0);
    no web files at all 0."""
    tree = obs[TREE]
    if not tree.web_bytes:
        return result("a_asset_budget", 0.0, "0: no web files on disk")
    total = sum(tree.web_bytes.values())
    size = 1.0 if total <= BUDGET else 0.3 if total <= BUDGET * 1.2 else 0.0
    refs = sorted(set(_external(obs)))
    offline = 0.0 if refs else 1.0
    score = min(size, offline)
    said = f"{total} B over {len(tree.web_bytes)} files (budget {BUDGET} B, size leg {g(size)})"
    tail = f"; external references: {', '.join(refs[:5])}" if refs else "; no external reference"
    return result("a_asset_budget", score, f"{g(score)}: {said}{tail}", bytes=total,
                  external=refs)  # fmt: skip


def _external(obs: Observations) -> list[str]:
    """Every external reference in the web files on disk and in the bodies served."""
    texts = list(obs[TREE].web_text.values())
    reads = phase(obs, READS)
    if reads is not None:
        answers = [reads.page.index, *reads.page.assets.values()]
        texts += [a.body.decode("utf-8", errors="replace") for a in answers]
    return [m.group(0).strip() for text in texts for m in EXTERNAL.finditer(text)]


@app_check("a_db_ownership", needs=(FINAL,))
def a_db_ownership(obs: Observations, _s) -> CheckResult:
    """ledger.db and notifier.db exist under --db-dir and no other ``*.db``: each missing
    one costs 0.5, any extra multiplies by 0.8. The directory never listed: UNAVAILABLE."""
    listing = obs[FINAL].db_dir
    if listing is None:
        return unavailable("a_db_ownership", f"{PROBE}the harness never listed the --db-dir")
    missing = [name for name in DATABASES if name not in listing]
    extra = sorted(n for n in listing if n.endswith(".db") and n not in DATABASES)
    score = max(0.0, 1.0 - 0.5 * len(missing)) * (0.8 if extra else 1.0)
    notes = [f"missing {', '.join(missing)}"] if missing else []
    notes += [f"extra {', '.join(extra)} (x0.8)"] if extra else []
    return result("a_db_ownership", score, f"{g(score)}: "
                  f"{'; '.join(notes) or 'ledger.db and notifier.db, nothing else'}",
                  files=list(listing))  # fmt: skip
