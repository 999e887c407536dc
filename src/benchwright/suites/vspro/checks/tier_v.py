"""Tier V (visual) from the browser's load scenario: money, dates, filter, pagination,
the phone viewport, the status palette and styling."""

from __future__ import annotations

from benchwright.model import CheckResult
from benchwright.suites.kit.browser.rendered import (
    EXPONENT,
    amount_cell,
    dates_row,
    palette_row,
    responsive_row,
    styling_row,
)
from benchwright.suites.kit.browser.rows import quote, view
from benchwright.suites.kit.checks import app_check, frac, g, result, unavailable
from benchwright.suites.vspro.checks._common import CheckSettings
from benchwright.suites.vspro.observations import Observations

PALETTE = {"settled": (22, 163, 74), "pending": (245, 158, 11),
           "refunded": (139, 92, 246), "failed": (220, 38, 38)}  # fmt: skip
PAGE_SIZE = 50


@app_check("v_currency_rendered", needs=("browser",))
def v_currency_rendered(obs: Observations, s: CheckSettings) -> CheckResult:
    """0.6 x cells matching a fixture minor amount at the currency's exponent + 0.4 x traps
    (all JPY cells 0 decimals, all KWD cells 3; each trap needs its currency present)."""
    load, refused = view(obs, "v_currency_rendered", "load")
    if refused:
        return refused
    if not load.first_page:
        return unavailable("v_currency_rendered", "probe unavailable: no fixture amounts")
    truth: dict[str, set[int]] = {}
    for currency, minor in load.first_page:
        truth.setdefault(currency, set()).add(minor)
    cells = [(t, c) for t in load.amounts if (c := amount_cell(t)) is not None]
    if not cells:
        return result("v_currency_rendered", 0.0, "0: no amount cells rendered")
    ok = {t: c[1] in truth.get(c[0], set()) and c[2] == EXPONENT[c[0]] for t, c in cells}
    traps = {cur: [ok[t] for t, c in cells if c[0] == cur] for cur in ("JPY", "KWD")}
    trap = sum(0.5 for marks in traps.values() if marks and all(marks))
    score = 0.6 * frac(sum(ok.values()), len(cells)) + 0.4 * trap
    wrong = [t for t, good in ok.items() if not good]
    trap_notes = ", ".join(f"{cur} {'clean' if m and all(m) else 'absent' if not m else 'wrong'}"
                           for cur, m in traps.items())  # fmt: skip
    detail = (f"{g(score)}: {sum(ok.values())}/{len(cells)} cells exponent-correct (0.6); traps "
              f"{trap_notes} ({g(trap)}/1 of 0.4)"
              + (f"; first wrong {quote(wrong[0])}" if wrong else ""))  # fmt: skip
    return result("v_currency_rendered", score, detail, cells=list(load.amounts))


@app_check("v_dates_readable", needs=("browser",))
def v_dates_readable(obs: Observations, s: CheckSettings) -> CheckResult:
    """Date cells with no raw ISO-8601 and at least one human text 1.0; formatted but not
    recognizably human 0.5; any ISO or no date cells 0."""
    load, refused = view(obs, "v_dates_readable", "load")
    if refused:
        return refused
    return dates_row("v_dates_readable", load.dates)


@app_check("v_filter", needs=("browser",))
def v_filter(obs: Observations, s: CheckSettings) -> CheckResult:
    """#status-filter -> refunded: rows all refunded, readout == the fixture's refunded count,
    data-value 'refunded', restore to '' at the full total: 1.0; rows only 0.5; a pick that
    changed nothing or undrivable options 0.2; no control 0."""
    load, refused = view(obs, "v_filter", "load")
    if refused:
        return refused
    drive = load.filter
    if not drive.control:
        return result("v_filter", 0.0, "0: no #status-filter control")
    if not (drive.opened and drive.option_found) or drive.picked is None:
        return result("v_filter", 0.2, "0.2: control present but its 'refunded' option could "
                      "not be driven")  # fmt: skip
    picked, restored = drive.picked, drive.restored
    if not picked.statuses or any(st != "refunded" for st in picked.statuses):
        return result(
            "v_filter",
            0.2,
            f"0.2: the pick did not filter the rows "
            f"({len(picked.statuses)} rows, statuses {sorted(set(picked.statuses))})",
        )
    want = obs.expect.by_status.get("refunded")
    parts = {
        f"readout {picked.readout_total} vs {want}": picked.readout_total == want,
        f"data-value {picked.filter_value!r}": picked.filter_value == "refunded",
        "restore to All"
        + (f" (data-value {restored.filter_value!r}, readout {restored.readout_total})"
           if restored else " (no All option)"): restored is not None
        and restored.filter_value == "" and restored.readout_total == obs.expect.total,
    }  # fmt: skip
    failed = [k for k, v in parts.items() if not v]
    if failed:
        return result("v_filter", 0.5, f"0.5: rows follow the filter, but {'; '.join(failed)}")
    return result("v_filter", 1.0, f"1: {len(picked.statuses)} refunded rows, "
                  f"{'; '.join(parts)}")  # fmt: skip


@app_check("v_pagination", needs=("browser",))
def v_pagination(obs: Observations, s: CheckSettings) -> CheckResult:
    """Visible pagination controls (0.6) + 1..50 rendered rows (0.4)."""
    load, refused = view(obs, "v_pagination", "load")
    if refused:
        return refused
    controls = 0.6 if load.pagination else 0.0
    bounded = 0.4 if 0 < load.rows <= PAGE_SIZE else 0.0
    return result("v_pagination", controls + bounded, f"{g(controls + bounded)}: controls "
                  f"{', '.join(load.pagination) or 'none'} ({g(controls)}/0.6); {load.rows} rows "
                  f"in view, rung 1..{PAGE_SIZE} ({g(bounded)}/0.4)")  # fmt: skip


@app_check("v_responsive_375", needs=("browser",))
def v_responsive_375(obs: Observations, s: CheckSettings) -> CheckResult:
    """At 375x812: no horizontal scroll (+1 px) and at least one rendered row: 1.0; else 0."""
    load, refused = view(obs, "v_responsive_375", "load")
    if refused:
        return refused
    return responsive_row("v_responsive_375", load)


@app_check("v_status_distinct", needs=("browser",))
def v_status_distinct(obs: Observations, s: CheckSettings) -> CheckResult:
    """0.6 x statuses at their frozen hex (+-8 per channel) / max(3, rendered) + 0.4 when
    >= 3 statuses render with pairwise distinct (color, background)."""
    load, refused = view(obs, "v_status_distinct", "load")
    if refused:
        return refused
    return palette_row("v_status_distinct", load.statuses, PALETTE)


@app_check("v_styling", needs=("browser",))
def v_styling(obs: Observations, s: CheckSettings) -> CheckResult:
    """Stylesheet (0.3) + >= 3 distinct backgrounds (0.25) + a body font not Times (0.25) +
    a visible #app-header (0.2)."""
    load, refused = view(obs, "v_styling", "load")
    if refused:
        return refused
    return styling_row("v_styling", load)
