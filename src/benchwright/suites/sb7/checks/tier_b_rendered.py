"""``b_money_rendered`` (tier B, critical, wrong money): the money the page shows is the
money the vendor holds, digit for digit at each currency's exponent, and no summary adds
currencies together.

Each visible row carries its payment id (spec §7 ``data-id``), so each Amount cell is
graded against its own payment's fixture amount and currency (v3 never changes an
amount) -- stronger than pairing against the first page's set of amounts. A row whose id
is no fixture payment (one the run created) is not graded."""

from __future__ import annotations

from typing import Any

from benchwright.model import CheckResult
from benchwright.suites.kit.browser.rendered import EXPONENT, amount_cell, currency_of
from benchwright.suites.kit.browser.rows import quote, shots, view
from benchwright.suites.kit.checks import app_check, frac, g, result
from benchwright.suites.kit.wire import body
from benchwright.suites.sb7.browser import BROWSER, LOAD
from benchwright.suites.sb7.checks._common import missing_fixture, phase, sync_dead, vacuous
from benchwright.suites.sb7.checks.tier_x_money import cross_sums
from benchwright.suites.sb7.observations import FINAL, READS, Observations

TRAPS = ("JPY", "KWD")
"""The currencies whose exponent (0 and 3) a two-decimals habit gets wrong."""


def cell_ok(text: str, currency: str, amount_minor: int) -> bool:
    """The cell shows ``amount_minor`` in ``currency``: the same digits, exactly the
    currency's decimals, and no other currency named."""
    named = currency_of(text)
    parsed = amount_cell(text if named else f"{currency} {text}")
    if parsed is None or (named is not None and named != currency):
        return False
    _, digits, places = parsed
    return digits == amount_minor and places == EXPONENT.get(currency, -1)


def graded(obs: Observations, load: Any) -> list[tuple[str, str, bool]]:
    """``(currency, text, correct)`` of every visible Amount cell of a fixture payment."""
    rows = obs.truth.rows  # type: ignore[union-attr]
    return [(rows[pid].currency, text, cell_ok(text, rows[pid].currency, rows[pid].amount_minor))
            for pid, text in load.amounts if pid in rows]  # fmt: skip


def _crossed(obs: Observations) -> list[str]:
    """Every summary field (after sync #1, at quiescence) holding the cross-currency sum."""
    found = []
    for name, where in (("after sync #1", READS), ("final", FINAL)):
        read = phase(obs, where)
        fields = cross_sums(body(read.summary)) if read is not None else None
        found += [f"{name} {field}" for field in fields or ()]
    return found


@app_check("b_money_rendered", needs=(BROWSER,))
def b_money_rendered(obs: Observations, _s) -> CheckResult:
    """0.6 x the fraction of Amount cells exponent-correct + 0.4 x traps (half each: every
    JPY cell with 0 decimals, every KWD cell with 3, each currency rendered); any summary
    field equal to the cross-currency sum 0 (cliff). No cells 0; a dead sync vacuous."""
    if obs.truth is None:
        return missing_fixture("b_money_rendered")
    load, refused = view(obs, "b_money_rendered", LOAD)
    if refused:
        return refused
    if sync_dead(obs):
        return vacuous("b_money_rendered")
    ev = {"screenshots": shots(load, "load-1280"), "cells": [t for _p, t in load.amounts]}
    crossed = _crossed(obs)
    if crossed:
        return result("b_money_rendered", 0.0, f"0: cross-currency sum: {', '.join(crossed)}",
                      **ev)  # fmt: skip
    cells = graded(obs, load)
    if not cells:
        return result("b_money_rendered", 0.0, "0: no Amount cell of a fixture payment "
                      f"rendered ({len(load.amounts)} visible rows)", **ev)  # fmt: skip
    right = sum(ok for _c, _t, ok in cells)
    traps = {cur: [ok for c, _t, ok in cells if c == cur] for cur in TRAPS}
    trap = sum(0.5 for marks in traps.values() if marks and all(marks))
    score = 0.6 * frac(right, len(cells)) + 0.4 * trap
    notes = ", ".join(f"{cur} {'clean' if m and all(m) else 'absent' if not m else 'wrong'}"
                      for cur, m in traps.items())  # fmt: skip
    wrong = [f"{t} ({c})" for c, t, ok in cells if not ok]
    tail = f"; first wrong {quote(wrong[0])}" if wrong else ""
    return result("b_money_rendered", score, f"{g(score)}: {right}/{len(cells)} cells exponent-"
                  f"correct (0.6); traps {notes} ({g(trap)}/1 of 0.4); no cross-currency sum"
                  f"{tail}", **ev)  # fmt: skip
