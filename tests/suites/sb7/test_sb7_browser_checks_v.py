"""Tier V (§12) and the critical ``b_money_rendered``, each at 1.0 on a correct console's
load and down its rung for one defect: wrong decimals for JPY and KWD, a cross-currency
summary field, ISO dates, unnamed currencies, off-palette badges, a page that scrolls
sideways at 375 px, browser-default styling."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sb7_browser_canned import BADGES, SYMBOL, with_load
from sb7_observations import answer, dead_sync, perfect, row, swap

from benchwright.model import Status
from benchwright.scoring.attribution import BLOCKED_BY
from benchwright.suites.kit.wire import body
from benchwright.suites.sb7.checks.tier_x_money import blocks

ROWS = ("b_money_rendered", "v_dates_readable", "v_money_presentation", "v_status_badges",
        "v_responsive_375", "v_styling")  # fmt: skip


@pytest.mark.parametrize("check", ROWS)
def test_a_correct_console_scores_one(check: str) -> None:
    found = row(perfect(), check)
    assert (found.status, found.score) == (Status.PASS, 1.0), found.detail


def _amounts(currency: str, wrong: str) -> tuple:
    """The first page with every ``currency`` cell written as ``wrong`` formats it."""
    obs = perfect()
    truth = obs.truth.rows
    return tuple((pid, wrong.format(truth[pid].amount_minor) if truth[pid].currency == currency
                  else text) for pid, text in obs["browser"].scenarios["load"].amounts)  # fmt: skip


def test_the_first_page_carries_both_traps() -> None:
    currencies = {perfect().truth.rows[pid].currency
                  for pid, _ in perfect()["browser"].scenarios["load"].amounts}  # fmt: skip
    assert {"JPY", "KWD"} <= currencies


def test_yen_with_two_decimals_is_wrong_money() -> None:
    cells = _amounts("JPY", "¥{}.00")
    n_jpy = sum(text.startswith("¥") for _, text in cells)
    found = row(with_load(perfect(), amounts=cells), "b_money_rendered")
    assert found.score == pytest.approx(0.6 * (len(cells) - n_jpy) / len(cells) + 0.2)
    assert "JPY wrong" in found.detail and "KWD clean" in found.detail


def test_dinar_at_two_decimals_is_wrong_money() -> None:
    cells = tuple((pid, f"KWD {int(t.split()[1].replace(',', '').replace('.', '')) / 1000:.2f}")
                  if t.startswith("KWD") else (pid, t)
                  for pid, t in perfect()["browser"].scenarios["load"].amounts)  # fmt: skip
    found = row(with_load(perfect(), amounts=cells), "b_money_rendered")
    assert found.score < 0.8 and "KWD wrong" in found.detail


def test_a_currency_absent_from_the_page_loses_its_trap_half() -> None:
    obs = perfect()
    truth = obs.truth.rows
    cells = tuple((p, t) for p, t in obs["browser"].scenarios["load"].amounts
                  if truth[p].currency != "KWD")  # fmt: skip
    found = row(with_load(obs, amounts=cells), "b_money_rendered")
    assert found.score == pytest.approx(0.8) and "KWD absent" in found.detail


def test_another_currency_named_on_a_cell_is_wrong_money() -> None:
    pid, text = perfect()["browser"].scenarios["load"].amounts[0]
    currency = perfect().truth.rows[pid].currency
    other = next(s for c, s in SYMBOL.items() if c != currency and c not in ("JPY", "KWD"))
    swapped = (pid, other + text.removeprefix(SYMBOL[currency]))
    rest = perfect()["browser"].scenarios["load"].amounts[1:]
    assert row(with_load(perfect(), amounts=(swapped, *rest)), "b_money_rendered").score < 1.0


def test_a_cross_currency_summary_field_zeroes_rendered_money() -> None:
    obs = perfect()
    summary = dict(body(obs["final"].summary))
    summary["grand_total"] = sum(t for _c, t in blocks(summary, "by_currency").values())
    found = row(swap(obs, "final", summary=answer(summary)), "b_money_rendered")
    assert found.score == 0.0 and "grand_total" in found.detail


def test_a_dead_sync_makes_rendered_money_vacuous() -> None:
    found = row(dead_sync(), "b_money_rendered")
    assert found.score == 0.0 and found.evidence[BLOCKED_BY] == "sync_completeness"


def test_no_fixture_truth_is_unavailable() -> None:
    assert row(replace(perfect(), truth=None), "b_money_rendered").status is Status.UNAVAILABLE


def test_raw_iso_dates_score_zero() -> None:
    iso = with_load(perfect(), dates=("2026-03-01T14:00:00+01:00",))
    assert row(iso, "v_dates_readable").score == 0.0


def test_amounts_without_a_currency_are_ambiguous_money() -> None:
    cells = perfect()["browser"].scenarios["load"].amounts
    bare = tuple((pid, text.lstrip("€$¥KWD ")) for pid, text in cells[:10]) + cells[10:]
    found = row(with_load(perfect(), amounts=bare), "v_money_presentation")
    assert found.score == pytest.approx(40 / 50)


def test_badges_off_the_frozen_hexes_lose_the_palette_share() -> None:
    pastel = tuple((s, "rgb(20, 20, 20)", "rgb(220, 230, 250)") if s == "failed" else (s, c, b)
                   for s, c, b in BADGES)  # fmt: skip
    assert row(with_load(perfect(), statuses=pastel), "v_status_badges").score == pytest.approx(
        0.6 * 3 / 4 + 0.4
    )
    same = tuple((s, "rgb(0, 0, 0)", "rgb(255, 255, 255)") for s, _c, _b in BADGES)
    assert row(with_load(perfect(), statuses=same), "v_status_badges").score == 0.0


def test_horizontal_scroll_at_375_scores_zero() -> None:
    wide = with_load(perfect(), mobile_scroll_width=640)
    assert row(wide, "v_responsive_375").score == 0.0
    assert row(with_load(perfect(), mobile_rows=0), "v_responsive_375").score == 0.0


def test_browser_default_styling_loses_its_parts() -> None:
    default = with_load(perfect(), stylesheet=False, backgrounds=(), font_family="Times New Roman",
                        header_visible=False)  # fmt: skip
    assert row(default, "v_styling").score == 0.0
