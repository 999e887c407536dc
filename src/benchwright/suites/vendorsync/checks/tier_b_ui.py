"""Tier B (behaviour) read from the page's source: its states, its money, its assets
(facts entries 16-18). The rendered page is the browser tiers' (J, V)."""

from __future__ import annotations

import re

from benchwright.model import CheckResult
from benchwright.suites.kit.checks import app_check, frac, g, result
from benchwright.suites.vendorsync.checks._common import CheckSettings
from benchwright.suites.vendorsync.checks._read import has_id, page_text, words
from benchwright.suites.vendorsync.observations import Observations

STATES = {
    "loading": ("loading",),
    "empty": ("empty", "no payments", "never synced", "nothing"),
    "error": ("error", "failed", "retry", "try again"),
}
"""State -> its contractual id is the key (spec §7), the words that speak of it."""
LOCALE_MONEY = re.compile(r"Intl\.NumberFormat|\.toLocaleString\s*\(")
HAND_MONEY = re.compile(r"\.toFixed\s*\(\s*2\s*\)|/\s*100\b|€|\\u20ac", re.IGNORECASE)
REMOTE = "(?:https?:)?//"
TAGS = "script|link|img|iframe|source|video|audio|embed"
EXTERNAL_ASSETS = (
    re.compile(rf"""<(?:{TAGS})\b[^>]*?\b(?:src|href)\s*=\s*["']?\s*{REMOTE}""", re.IGNORECASE),
    re.compile(rf"""url\(\s*["']?\s*{REMOTE}""", re.IGNORECASE),
    re.compile(rf"""@import\s+(?:url\()?\s*["']?\s*{REMOTE}""", re.IGNORECASE),
    re.compile(rf"""(?:\bimport\s*\(?|\bfrom)\s*["']{REMOTE}"""),
)  # fmt: skip
"""How a page loads an asset from another host: markup, CSS and JS module forms."""


@app_check("ui_states", needs=("static",))
def ui_states(obs: Observations, s: CheckSettings) -> CheckResult:
    """The page's files speak of loading, empty and error, each with its contractual id
    (#loading, #empty, #error); a third per state."""
    static = obs["static"]
    text = page_text(static)
    if not text:
        return result("ui_states", 0.0, "0: no page files")
    missing = [
        state
        for state, said in STATES.items()
        if not (has_id(static, state) and words(text, *said))
    ]
    score = frac(len(STATES) - len(missing), len(STATES))
    detail = f"no #{', #'.join(missing)} state" if missing else "loading, empty and error"
    return result("ui_states", score, f"{g(score)}: {detail}", missing=missing)


@app_check("ui_currency", needs=("static",))
def ui_currency(obs: Observations, s: CheckSettings) -> CheckResult:
    """Money formatted with the locale currency API (Intl.NumberFormat / toLocaleString);
    0.5 for hand formatting (two decimals, /100, a euro sign)."""
    text = page_text(obs["static"])
    if LOCALE_MONEY.search(text):
        return result("ui_currency", 1.0, "1: the locale currency API formats money")
    if HAND_MONEY.search(text):
        return result("ui_currency", 0.5, "0.5: money formatted by hand, not by the locale API")
    return result("ui_currency", 0.0, "0: no money formatting found in the page")


@app_check("ui_offline", needs=("static",))
def ui_offline(obs: Observations, s: CheckSettings) -> CheckResult:
    """The page loads no asset from an http(s):// address (no CDN); no page 0."""
    static = obs["static"]
    if "index.html" not in static.web:
        return result("ui_offline", 0.0, "0: no page (web/index.html)")
    for name, text in static.web.items():
        for pattern in EXTERNAL_ASSETS:
            found = pattern.search(text)
            if found:
                return result("ui_offline", 0.0, f"0: {name} loads a remote asset: "
                              f"{found.group(0)[:80]!r}")  # fmt: skip
    return result("ui_offline", 1.0, "1: every asset comes from the app's own server")
