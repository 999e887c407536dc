"""Tier V (visual) from the browser's load scenario: money, dates, filter, pagination,
the phone viewport, the status palette and styling."""

from __future__ import annotations

import re

from benchwright.model import CheckResult
from benchwright.suites.kit.browser.rows import quote, shots, view
from benchwright.suites.kit.checks import app_check, frac, g, result, unavailable
from benchwright.suites.vspro.checks._common import CheckSettings
from benchwright.suites.vspro.observations import Observations

EXPONENT = {"EUR": 2, "USD": 2, "JPY": 0, "KWD": 3}
_CURRENCY = [
    (re.compile(r"\bEUR\b|€"), "EUR"),
    (re.compile(r"\bUSD\b|\$"), "USD"),
    (re.compile(r"\bJPY\b|¥|円"), "JPY"),
    (re.compile(r"\bKWD\b|\bKD\b|د\.ك"), "KWD"),
]
_NUMBER = re.compile(r"\d(?:[\d.,'\u202f\u00a0 ]*\d)?")
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
_HUMAN = re.compile(r"\b(jan|feb|m[aä]r|apr|ma[iy]|jun|jul|aug|sep|o[ck]t|nov|de[cz])[a-zä]*\.?"
                    r"|\b\d{1,2}[/.]\d{1,2}\b", re.I)  # fmt: skip
PALETTE = {"settled": (22, 163, 74), "pending": (245, 158, 11),
           "refunded": (139, 92, 246), "failed": (220, 38, 38)}  # fmt: skip
TOLERANCE = 8
PAGE_SIZE = 50


def _cell(text: str) -> tuple[str, int, int] | None:
    """(currency, digits as an int, decimal places) of an amount cell, or None."""
    currency = next((c for pattern, c in _CURRENCY if pattern.search(text)), None)
    number = _NUMBER.search(text)
    if currency is None or number is None:
        return None
    run = number.group(0)
    digits = int(re.sub(r"\D", "", run))
    _, sep, tail = max(run.rpartition("."), run.rpartition(","), key=lambda p: len(p[0]))
    places = len(re.sub(r"\D", "", tail)) if sep else 0
    if places == 3 and EXPONENT[currency] != 3:
        places = 0  # a trailing 3-digit group reads as thousands grouping
    return currency, digits, places


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
    cells = [(t, c) for t in load.amounts if (c := _cell(t)) is not None]
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
    dates = [d for d in load.dates if d.strip()]
    if not dates:
        return result("v_dates_readable", 0.0, "0: no date cells rendered")
    iso = [d for d in dates if _ISO.search(d)]
    if iso:
        return result("v_dates_readable", 0.0, f"0: raw ISO-8601 shown to users: {quote(iso[0])}")
    if any(_HUMAN.search(d) for d in dates):
        return result("v_dates_readable", 1.0, f"1: human-readable dates, e.g. {quote(dates[0])}")
    return result("v_dates_readable", 0.5, f"0.5: formatted but not recognizably human: "
                  f"{quote(dates[0])}")  # fmt: skip


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
    width, inner = load.mobile_scroll_width, load.mobile_inner_width
    ev = {"screenshots": shots(load, "load-375")}
    if width is None or inner is None or width > inner + 1:
        return result("v_responsive_375", 0.0, f"0: horizontal scroll at 375 px (scrollWidth "
                      f"{width} > innerWidth {inner} + 1)", **ev)  # fmt: skip
    if load.mobile_rows == 0:
        return result("v_responsive_375", 0.0, "0: no scroll, but no rendered rows at 375 px", **ev)
    return result("v_responsive_375", 1.0, f"1: no horizontal scroll (scrollWidth {width} <= "
                  f"{inner} + 1) and {load.mobile_rows} rows at 375 px; tap targets not "
                  "measured", **ev)  # fmt: skip


def _rgb(css: str) -> tuple[int, ...] | None:
    found = re.findall(r"[\d.]+", css)
    return tuple(round(float(v)) for v in found[:3]) if len(found) >= 3 else None


def _at_hex(status: str, color: str, background: str) -> bool:
    want = PALETTE.get(status)
    return want is not None and any(
        rgb is not None and all(abs(a - b) <= TOLERANCE for a, b in zip(rgb, want, strict=True))
        for rgb in (_rgb(background), _rgb(color))
    )


@app_check("v_status_distinct", needs=("browser",))
def v_status_distinct(obs: Observations, s: CheckSettings) -> CheckResult:
    """0.6 x statuses at their frozen hex (+-8 per channel) / max(3, rendered) + 0.4 when
    >= 3 statuses render with pairwise distinct (color, background)."""
    load, refused = view(obs, "v_status_distinct", "load")
    if refused:
        return refused
    if not load.statuses:
        return result("v_status_distinct", 0.0, "0: no status cells rendered")
    hits = [st for st, color, bg in load.statuses if _at_hex(st, color, bg)]
    pairs = {(color, bg) for _, color, bg in load.statuses}
    distinct = len(load.statuses) >= 3 and len(pairs) == len(load.statuses)
    score = 0.6 * len(hits) / max(3, len(load.statuses)) + (0.4 if distinct else 0.0)
    off = [st for st, _, _ in load.statuses if st not in hits]
    return result(
        "v_status_distinct",
        score,
        f"{g(score)}: {len(hits)}/{len(load.statuses)} "
        f"statuses at the frozen hex (0.6){'; off: ' + ', '.join(off) if off else ''}; "
        f"{len(pairs)} distinct styles over {len(load.statuses)} statuses "
        f"({'0.4' if distinct else '0'}/0.4)",
        statuses=[list(x) for x in load.statuses],
    )


@app_check("v_styling", needs=("browser",))
def v_styling(obs: Observations, s: CheckSettings) -> CheckResult:
    """Stylesheet (0.3) + >= 3 distinct backgrounds (0.25) + a body font not Times (0.25) +
    a visible #app-header (0.2)."""
    load, refused = view(obs, "v_styling", "load")
    if refused:
        return refused
    font = load.font_family.strip()
    parts = {
        "stylesheet": (0.3, load.stylesheet),
        f"{len(load.backgrounds)} backgrounds (>=3)": (0.25, len(load.backgrounds) >= 3),
        f"font {quote(font, 40)}": (0.25, bool(font) and "times" not in font.lower()),
        "#app-header": (0.2, load.header_visible),
    }
    score = sum(w for w, ok in parts.values() if ok)
    missing = [k for k, (_, ok) in parts.items() if not ok]
    head = "all four parts" if not missing else f"missing {', '.join(missing)}"
    return result(
        "v_styling", score, f"{g(score)}: {head} ({', '.join(parts)})", screenshots=shots(load)
    )
