"""The rendered-truth rows of a payments console, whatever the suite: money cells read
back to (currency, digits, decimals), human dates, the status palette, the phone
viewport and deliberate styling. Each takes what a ``load`` scenario read (any view with
the named fields) and a suite's own numbers (its palette), and returns the row."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.browser.rows import quote, shots
from benchwright.suites.kit.checks import g, result

EXPONENT = {"EUR": 2, "USD": 2, "JPY": 0, "KWD": 3}
"""The decimals each fixture currency is written with."""
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
TOLERANCE = 8
"""Per RGB channel, between a badge's computed colour and its frozen hex."""
Rgb = tuple[int, int, int]


def currency_of(text: str) -> str | None:
    """The fixture currency an amount text names (code or symbol), or None."""
    return next((c for pattern, c in _CURRENCY if pattern.search(text)), None)


def amount_cell(text: str) -> tuple[str, int, int] | None:
    """(currency, digits as an int, decimal places) of an amount cell, or None. A trailing
    3-digit group reads as thousands grouping unless the currency has 3 decimals."""
    currency = currency_of(text)
    number = _NUMBER.search(text)
    if currency is None or number is None:
        return None
    run = number.group(0)
    digits = int(re.sub(r"\D", "", run))
    _, sep, tail = max(run.rpartition("."), run.rpartition(","), key=lambda p: len(p[0]))
    places = len(re.sub(r"\D", "", tail)) if sep else 0
    if places == 3 and EXPONENT[currency] != 3:
        places = 0
    return currency, digits, places


def dates_row(check_id: str, dates: Sequence[str]) -> CheckResult:
    """Date cells with no raw ISO-8601 and at least one human text 1.0; formatted but not
    recognizably human 0.5; any ISO or no date cells 0."""
    dates = [d for d in dates if d.strip()]
    if not dates:
        return result(check_id, 0.0, "0: no date cells rendered")
    iso = [d for d in dates if _ISO.search(d)]
    if iso:
        return result(check_id, 0.0, f"0: raw ISO-8601 shown to users: {quote(iso[0])}")
    if any(_HUMAN.search(d) for d in dates):
        return result(check_id, 1.0, f"1: human-readable dates, e.g. {quote(dates[0])}")
    return result(check_id, 0.5, f"0.5: formatted but not recognizably human: {quote(dates[0])}")


def rgb(css: str) -> tuple[int, ...] | None:
    """A computed CSS colour's red, green and blue."""
    found = re.findall(r"[\d.]+", css)
    return tuple(round(float(v)) for v in found[:3]) if len(found) >= 3 else None


def at_hex(want: Rgb | None, color: str, background: str) -> bool:
    """The text or the background colour is within `TOLERANCE` of ``want``."""
    return want is not None and any(
        found is not None and all(abs(a - b) <= TOLERANCE for a, b in zip(found, want, strict=True))
        for found in (rgb(background), rgb(color))
    )


def palette_row(
    check_id: str, statuses: Sequence[tuple[str, str, str]], palette: Mapping[str, Rgb]
) -> CheckResult:
    """0.6 x statuses at their frozen hex (+-8 per channel) / max(3, rendered) + 0.4 when
    >= 3 statuses render with pairwise distinct (color, background)."""
    if not statuses:
        return result(check_id, 0.0, "0: no status cells rendered")
    hits = [st for st, color, bg in statuses if at_hex(palette.get(st), color, bg)]
    pairs = {(color, bg) for _, color, bg in statuses}
    distinct = len(statuses) >= 3 and len(pairs) == len(statuses)
    score = 0.6 * len(hits) / max(3, len(statuses)) + (0.4 if distinct else 0.0)
    off = [st for st, _, _ in statuses if st not in hits]
    return result(
        check_id,
        score,
        f"{g(score)}: {len(hits)}/{len(statuses)} "
        f"statuses at the frozen hex (0.6){'; off: ' + ', '.join(off) if off else ''}; "
        f"{len(pairs)} distinct styles over {len(statuses)} statuses "
        f"({'0.4' if distinct else '0'}/0.4)",
        statuses=[list(x) for x in statuses],
    )


def responsive_row(check_id: str, load: Any) -> CheckResult:
    """At 375x812: no horizontal scroll (+1 px) and at least one rendered row: 1.0; else 0."""
    width, inner = load.mobile_scroll_width, load.mobile_inner_width
    ev = {"screenshots": shots(load, "load-375")}
    if width is None or inner is None or width > inner + 1:
        return result(check_id, 0.0, f"0: horizontal scroll at 375 px (scrollWidth {width} > "
                      f"innerWidth {inner} + 1)", **ev)  # fmt: skip
    if load.mobile_rows == 0:
        return result(check_id, 0.0, "0: no scroll, but no rendered rows at 375 px", **ev)
    return result(check_id, 1.0, f"1: no horizontal scroll (scrollWidth {width} <= {inner} + 1) "
                  f"and {load.mobile_rows} rows at 375 px; tap targets not measured",
                  **ev)  # fmt: skip


def styling_row(check_id: str, load: Any) -> CheckResult:
    """Stylesheet (0.3) + >= 3 distinct backgrounds (0.25) + a body font not Times (0.25) +
    a visible #app-header (0.2)."""
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
        check_id, score, f"{g(score)}: {head} ({', '.join(parts)})", screenshots=shots(load)
    )
