"""Tier V (visual, facts entries 52-57), read from the ``load`` scenario: the graded
page at 1280x800 (after the vendor's update pass, so ``settled`` and ``refunded`` are
both on screen) and again at a 375-pixel phone width."""

from __future__ import annotations

import re
from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.browser.rows import quote, shots
from benchwright.suites.kit.checks import app_check, g, result
from benchwright.suites.kit.record import PhaseLog
from benchwright.suites.vendorsync.checks.tier_j import seen

RAW_ISO = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
"""A raw ISO-8601 timestamp as the API sends it (``2026-03-01T12:00:00Z``)."""
READABLE = re.compile(r"[^\W\d_]{3,}|\b\d{1,2}[./]\d{1,2}\b")
"""A date a person reads: a word (a month's name, "ago") or day and month numbers."""
PAGE_SIZE = 25
"""Spec §7: 25 payments per page."""
PAGING = ("prev", "next", "page-info")
DEFAULT_FONTS = ("times new roman", "times", "serif")
"""The browser's default body font: the page set none."""


@app_check("v_dates_readable", needs=("browser",))
def v_dates_readable(obs: PhaseLog, s: Any) -> CheckResult:
    """Date cells readable (a word, or day/month numbers) and no raw ISO-8601 timestamp
    anywhere on the rendered page: 1.0; formatted but not recognisably local: 0.5; a raw
    ISO timestamp on the page, or no date cells: 0."""
    load, refused = seen(obs, "v_dates_readable", "load")
    if refused:
        return refused
    raw = RAW_ISO.findall(load.page_text)
    dates = [d for d in load.dates if d.strip()]
    unreadable = [d for d in dates if not READABLE.search(d)]
    if raw:
        score, detail = 0.0, f"0: {len(raw)} raw ISO-8601 timestamp(s) on the page, e.g. {raw[0]!r}"
    elif not dates:
        score, detail = 0.0, "0: no date cells rendered"
    elif unreadable:
        score, detail = 0.5, (f"0.5: {len(unreadable)} of {len(dates)} date cells are not "
                              f"recognisably local, e.g. {quote(unreadable[0], 40)}")  # fmt: skip
    else:
        score, detail = 1.0, f"1: {len(dates)} date cells readable, e.g. {quote(dates[0], 40)}"
    return result("v_dates_readable", score, detail, raw_iso=raw[:5], dates=list(load.dates[:3]),
                  screenshots=shots(load, "load-1280"))  # fmt: skip


@app_check("v_status_distinct", needs=("browser",))
def v_status_distinct(obs: PhaseLog, s: Any) -> CheckResult:
    """At least two statuses on screen, each in its own (text, background) colours: 1.0;
    one status only, styled as a badge: 0.5; plain text, indistinguishable, or no status
    cells: 0."""
    load, refused = seen(obs, "v_status_distinct", "load")
    if refused:
        return refused
    looks: dict[str, set[tuple[str, str]]] = {}
    for cell in load.statuses:
        if cell.text:
            looks.setdefault(cell.text, set()).add((cell.ink, cell.fill))
    names = sorted(looks)
    clash = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :] if looks[a] & looks[b]]
    if not names:
        score, detail = 0.0, "0: no status cells rendered"
    elif len(names) == 1:
        badge = any(c.badge for c in load.statuses)
        score = 0.5 if badge else 0.0
        detail = f"{g(score)}: only {names[0]!r} on screen, {'a badge' if badge else 'plain text'}"
    elif clash:
        score, detail = 0.0, f"0: {clash[0][0]!r} and {clash[0][1]!r} look the same"
    else:
        score, detail = (
            1.0,
            f"1: {len(names)} statuses, each in its own colours ({', '.join(names)})",
        )
    styles = {name: sorted(looks[name]) for name in names}
    return result("v_status_distinct", score, detail, styles=styles,
                  screenshots=shots(load, "load-1280"))  # fmt: skip


@app_check("v_pagination", needs=("browser",))
def v_pagination(obs: PhaseLog, s: Any) -> CheckResult:
    """Paging controls ``#prev``, ``#next`` and ``#page-info`` shown, ``#next`` turning
    the page (0.6); a bounded view of 25 rows, never the whole collection (0.4)."""
    load, refused = seen(obs, "v_pagination", "load")
    if refused:
        return refused
    absent = [f"#{c}" for c in PAGING if c not in load.controls]
    controls = not absent and load.turned_to is not None
    bounded = load.rows == PAGE_SIZE < load.collection
    score = 0.6 * controls + 0.4 * bounded
    if absent:
        paging = f"missing {', '.join(absent)}"
    elif load.turned_to is None:
        paging = "#next did not turn the page"
    else:
        paging = f"#next turned to {quote(load.turned_to)}"
    detail = (f"{g(score)}: {paging} ({'0.6' if controls else '0'}/0.6); {load.rows} rows "
              f"of {load.collection} shown, {PAGE_SIZE} expected "
              f"({'0.4' if bounded else '0'}/0.4)")  # fmt: skip
    return result("v_pagination", score, detail, screenshots=shots(load, "load-1280"))


@app_check("v_filter", needs=("browser",))
def v_filter(obs: PhaseLog, s: Any) -> CheckResult:
    """A visible ``#status-filter`` control (spec §7): 1.0; 0 otherwise."""
    load, refused = seen(obs, "v_filter", "load")
    if refused:
        return refused
    if "status-filter" in load.controls:
        return result("v_filter", 1.0, "1: #status-filter shown above the table")
    return result("v_filter", 0.0, "0: no visible #status-filter")


@app_check("v_responsive_375", needs=("browser",))
def v_responsive_375(obs: PhaseLog, s: Any) -> CheckResult:
    """At a 375-pixel viewport the table renders and nothing scrolls sideways: 1.0; 0
    otherwise."""
    load, refused = seen(obs, "v_responsive_375", "load")
    if refused:
        return refused
    wide, room = load.mobile_scroll_width, load.mobile_client_width
    if load.mobile_rows == 0:
        score, detail = 0.0, "0: no rows rendered at 375 px"
    elif wide > room:
        score, detail = 0.0, f"0: the page is {wide} px wide in a {room} px viewport"
    else:
        score, detail = 1.0, f"1: {wide} px wide in a {room} px viewport, {load.mobile_rows} rows"
    return result("v_responsive_375", score, detail, scroll_width=wide, client_width=room,
                  screenshots=shots(load, "load-375"))  # fmt: skip


@app_check("v_styling", needs=("browser",))
def v_styling(obs: PhaseLog, s: Any) -> CheckResult:
    """A stylesheet applied (0.4), at least three distinct background colours (0.3), a
    body font other than the browser's default serif (0.3)."""
    load, refused = seen(obs, "v_styling", "load")
    if refused:
        return refused
    first = load.font_family.split(",")[0].strip().strip("'\"").lower()
    parts = {
        "a stylesheet": (0.4, load.stylesheet),
        f"{len(load.backgrounds)} backgrounds (>=3)": (0.3, len(load.backgrounds) >= 3),
        f"body font {quote(load.font_family, 40)}": (
            0.3,
            bool(first) and first not in DEFAULT_FONTS,
        ),
    }
    score = sum(weight for weight, ok in parts.values() if ok)
    missing = [name for name, (_, ok) in parts.items() if not ok]
    head = "all three parts" if not missing else f"short of {', '.join(missing)}"
    return result("v_styling", score, f"{g(score)}: {head} ({', '.join(parts)})",
                  screenshots=shots(load, "load-1280"))  # fmt: skip
