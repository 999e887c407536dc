"""Tier T without WebGL: the in-page toggle to the table fallback, and the page that
degrades gracefully (with the differential no-WebGL notice) when WebGL is removed.
Rungs: methodology §09.
"""

from __future__ import annotations

import re
from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.browser.rows import shots
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.vspro.checks import _viz_evidence as ev
from benchwright.suites.vspro.checks._common import CheckSettings
from benchwright.suites.vspro.observations import Observations


@app_check("t_fallback", needs=("browser",))
def t_fallback(obs: Observations, _s: CheckSettings) -> CheckResult:
    """Toggle half .5: #viz-fallback cells right (shown never: .1). No-WebGL half .5: no
    console errors .4 + auto-fallback cells .35 + in-panel notice absent in the normal run
    .15 + payment rows .10. No no-WebGL run: at most .5 x toggle."""
    v = ev.view(obs, "t_fallback", "viz", ("toggle",))
    if isinstance(v, CheckResult):
        return v
    want = {f"{c['day']}|{c['status']}": int(c["count"]) for c in obs.expect.buckets["cells"]}
    t = v.toggle
    if t is None or not t.present:
        toggle, tdetail = 0.0, "no visible #viz-toggle"
    elif not t.table_shown:
        toggle, tdetail = 0.2, "the toggle never showed #viz-fallback (0.1 of the half)"
    else:
        n, of = _cells(t.cells, want)
        toggle, tdetail = n / of if of else 0.0, f"toggle table {n}/{of} cells right"
    grace = ev.view(obs, "t_fallback", "viz_fallback", ("fallback",))
    if isinstance(grace, CheckResult):
        score = 0.5 * toggle
        return result("t_fallback", score, f"{g(score)}: {tdetail}; no-WebGL half unproven "
                      f"({grace.detail}): at most 0.5 x toggle")  # fmt: skip
    if not grace.loaded:
        score = 0.5 * toggle
        return result("t_fallback", score, f"{g(score)}: {tdetail}; without WebGL the page "
                      "did not load (no-WebGL half 0)")  # fmt: skip
    sc = grace.scenario
    errors = len(sc.console_errors) + len(sc.page_errors)
    n, of = _cells(grace.cells, want) if grace.fallback_shown else (0, 1)
    notice = bool(grace.notice) and not v.notice
    g_score = 0.4 * (errors == 0) + 0.35 * (n / of if of else 0.0) + 0.15 * notice + 0.10 * (
        grace.payment_rows > 0)  # fmt: skip
    score = 0.5 * toggle + 0.5 * g_score
    why_notice = "differential notice" if notice else "no in-panel notice"
    if grace.notice and v.notice:
        why_notice = "notice also shown with WebGL"
    detail = (f"{g(score)}: {tdetail}; without WebGL {errors} console errors, fallback "
              f"{n}/{of} cells right, {why_notice}, {grace.payment_rows} payment rows")  # fmt: skip
    return result("t_fallback", score, detail, screenshots=shots(grace, "viz-fallback"))


def _cells(shown: dict, want: dict) -> tuple[int, int]:
    """(right, graded) over the non-zero expected cells plus any non-zero shown cell."""
    got = {k: _int(v) for k, v in shown.items()}
    keys = {k for k, n in want.items() if n} | {k for k, n in got.items() if n}
    return sum(got.get(k, 0) == want.get(k, 0) for k in keys), len(keys)


def _int(text: Any) -> int | None:
    digits = re.sub(r"[^\d]", "", str(text))
    return int(digits) if digits else None
