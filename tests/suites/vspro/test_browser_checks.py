"""The browser checks on canned observations: each passes the golden page's view, fails
the near miss with the right rung, and is UNAVAILABLE (never a zero) without a probe."""

from dataclasses import replace

import pytest
from browser_canned import (
    REFUNDED,
    empty_view,
    error_view,
    load_view,
    note_view,
    scenario,
    snap,
    sync_view,
    views,
    viz_view,
    with_browser,
)
from vspro_canned import EXPECT, grade_one, perfect

from benchwright.model import Status
from benchwright.suites.vspro.browser import FilterDrive, publishable, ranked
from benchwright.suites.vspro.checks import ALL_BROWSER_CHECKS, CheckSettings, build_table

MINE = ("j_first_use", "j_sync_journey", "j_error_state", "j_empty_state", "j_loads_data",
        "j_console_clean", "ui_error_actionable", "v_currency_rendered", "v_dates_readable",
        "v_filter", "v_pagination", "v_responsive_375", "v_status_distinct", "v_styling",
        "p_page_interactive", "e_optimistic_paint", "console_clean")  # fmt: skip


def row(check_id, **scenarios):
    return grade_one(with_browser(views(**scenarios)), check_id)


@pytest.mark.parametrize("check_id", MINE)
def test_the_golden_view_earns_the_top_rung(check_id):
    found = row(check_id)
    assert (found.status, found.score) == (Status.PASS, 1.0), found.detail
    assert found.detail.startswith("1: ")


@pytest.mark.parametrize("check_id", MINE)
def test_no_browser_is_unavailable_with_the_reason_never_a_zero(check_id):
    found = grade_one(with_browser({}, unavailable="Chromium not found at /nope"), check_id)
    assert found.status is Status.UNAVAILABLE
    assert found.detail == "browser unavailable: Chromium not found at /nope"


@pytest.mark.parametrize("check_id", MINE)
def test_without_the_browser_phase_the_check_was_not_attempted(check_id):
    assert grade_one(perfect(), check_id).status is Status.NOT_ATTEMPTED


def test_every_browser_check_of_mine_is_registered_once():
    assert set(MINE) <= set(build_table().ids) and set(MINE) <= set(ALL_BROWSER_CHECKS)


def test_a_scenario_that_raised_is_unavailable_naming_it():
    obs = with_browser(views(load=None), errors={"load": "TimeoutError: stuck"})
    found = grade_one(obs, "v_styling")
    assert found.status is Status.UNAVAILABLE
    assert found.detail == "probe unavailable: the load scenario failed: TimeoutError: stuck"
    # p_page_interactive does not refuse on a probe error: the value is simply absent
    assert (
        grade_one(obs, "p_page_interactive").detail == "0: no first-row stamp (TimeoutError: stuck)"
    )


# -- J --------------------------------------------------------------------------------------


def test_j_first_use_gate_and_weakest_component():
    assert row("j_first_use", load=load_view(rows=0)).detail.startswith("0: gate closed")
    slow = row("j_first_use", load=load_view(first_row_ms=2600))
    assert slow.score == 0.75 and "2600 ms (rung <=3000 ms" in slow.detail
    off_by_one = row("j_first_use", load=load_view(claimed_total=EXPECT.total - 1))
    assert off_by_one.score == 0.0 and f"claimed total {EXPECT.total - 1} vs" in off_by_one.detail
    noisy = row("j_first_use", load=load_view(scenario=scenario("load", errors=1)))
    assert noisy.score == 0.0 and "first: 'boom 0'" in noisy.detail


def test_j_loads_data_halves():
    assert row("j_loads_data", load=load_view(claimed_total=None)).score == 0.5
    assert row("j_loads_data", load=load_view(rows=0, claimed_total=None)).score == 0.0


def test_j_console_clean_counts_load_and_sync():
    one = row("j_console_clean", sync=sync_view(scenario=scenario("sync", page_errors=1)))
    assert one.score == 0.5 and "TypeError: x is undefined 0" in one.detail
    two = row("j_console_clean", load=load_view(scenario=scenario("load", errors=2)))
    assert two.score == 0.0


def test_j_sync_journey_quarters():
    assert row("j_sync_journey", sync=sync_view(button_found=False)).detail == (
        "0: sync button never found"
    )
    assert row("j_sync_journey", sync=sync_view(in_flight_ms=1500)).score == 0.75
    unchanged = row("j_sync_journey", sync=sync_view(after=sync_view().before))
    assert unchanged.score == 0.75 and "missing refreshed" in unchanged.detail
    failed = row("j_sync_journey", sync=sync_view(error_text="Sync failed: try again"))
    assert failed.score == 0.75 and "missing completed" in failed.detail
    # a 'completed' with no causal evidence at all is demoted
    bare = sync_view(in_flight_ms=None, api_sync_seen=False, after=sync_view().before)
    assert row("j_sync_journey", sync=bare).score == 0.25


def test_j_sync_journey_refuses_when_the_second_instance_never_booted():
    why = "the empty instance never became healthy (timed out after 15 s)"
    obs = with_browser(views(sync=None, empty=None), errors={"sync": why, "empty": why})
    found = grade_one(obs, "j_sync_journey")
    assert found.status is Status.UNAVAILABLE and why in found.detail
    # an app whose own half-capped sync failed is still graded by its click
    assert row("j_sync_journey", sync=sync_view(half_seeded=0)).score == 1.0


@pytest.mark.parametrize("check_id", ["j_error_state", "ui_error_actionable"])
def test_error_state_ladder(check_id):
    generic = row(check_id, error=error_view(actionable_text=None))
    assert generic.score == 0.3 and generic.detail.startswith("0.3: a generic error")
    dead = row(check_id, error=error_view(retry_recovered=False))
    assert dead.score == 0.6 and "did not recover" in dead.detail
    assert row(check_id, error=error_view(retry_recovered=None)).score == 1.0
    blank = row(check_id, error=error_view(error_visible=False, error_text=None,
                                           actionable_text=None))  # fmt: skip
    assert blank.score == 0.0 and blank.detail.startswith("0: no visible error state")


def test_j_empty_state_ladder():
    assert row("j_empty_state", empty=empty_view(rows=3)).detail.startswith("0: 3 rows rendered")
    assert row("j_empty_state", empty=empty_view(empty_text=None)).score == 0.3
    blank = empty_view(empty_text=None, body_text_length=0)
    assert row("j_empty_state", empty=blank).detail == "0: a blank page on an empty database"


def test_console_clean_is_binary_and_fails_unproven_scenarios():
    assert row("console_clean", viz=viz_view(errors=1)).score == 0.0
    missing = grade_one(with_browser(views(viz=None)), "console_clean")
    assert (
        missing.status is Status.FAIL
        and "unproven" in missing.detail
        and "viz: did not run" in missing.detail
    )
    errored = grade_one(with_browser(views(empty=None), errors={"empty": "boot failed"}),
                        "console_clean")  # fmt: skip
    assert errored.score == 0.0 and "empty: boot failed" in errored.detail
    # the error and note scenarios are expected to be noisy: excluded
    assert row("console_clean", note=note_view(scenario=scenario("note", errors=3))).score == 1.0


# -- V --------------------------------------------------------------------------------------


def test_v_currency_rendered_catches_wrong_exponents_and_traps():
    good = list(load_view().amounts)
    jpy = next(i for i, t in enumerate(good) if "JPY" in t)
    wrong = good.copy()
    wrong[jpy] = wrong[jpy].replace(" JPY", ".00 JPY")  # 1-2 trailing decimals: wrong money
    found = row("v_currency_rendered", load=load_view(amounts=tuple(wrong)))
    assert found.score == pytest.approx(0.6 * 11 / 12 + 0.2)
    assert "JPY wrong" in found.detail
    no_kwd = tuple(t for t in good if "KWD" not in t)
    assert "KWD absent" in row("v_currency_rendered", load=load_view(amounts=no_kwd)).detail
    assert (
        row("v_currency_rendered", load=load_view(amounts=())).detail
        == "0: no amount cells rendered"
    )


def test_v_currency_rendered_needs_a_real_fixture_amount():
    good = list(load_view().amounts)
    eur = next(i for i, t in enumerate(good) if "EUR" in t)
    good[eur] = "€1.00 EUR"  # right exponent, but no such amount on the first page
    assert row("v_currency_rendered", load=load_view(amounts=tuple(good))).score < 1.0


def test_v_dates_readable_rungs():
    iso = load_view(dates=("2026-03-23T00:00:00+01:00",))
    assert row("v_dates_readable", load=iso).detail.startswith("0: raw ISO-8601")
    assert row("v_dates_readable", load=load_view(dates=("23.03.2026",))).score == 1.0
    assert row("v_dates_readable", load=load_view(dates=("2026 / 082",))).score == 0.5
    assert row("v_dates_readable", load=load_view(dates=())).score == 0.0


def test_v_filter_rungs():
    base = load_view().filter
    wrong_total = replace(base, picked=replace(base.picked, readout_total=REFUNDED + 1))
    found = row("v_filter", load=load_view(filter=wrong_total))
    assert found.score == 0.5 and f"readout {REFUNDED + 1} vs {REFUNDED}" in found.detail
    stuck = replace(base, restored=replace(base.restored, filter_value="refunded"))
    assert row("v_filter", load=load_view(filter=stuck)).score == 0.5
    ignored = replace(base, picked=snap(statuses=("settled", "refunded")))
    assert row("v_filter", load=load_view(filter=ignored)).score == 0.2
    undrivable = FilterDrive(True, True, False, None, False, None)
    assert row("v_filter", load=load_view(filter=undrivable)).score == 0.2
    absent = FilterDrive(False, False, False, None, False, None)
    assert row("v_filter", load=load_view(filter=absent)).detail == "0: no #status-filter control"


def test_v_pagination_parts():
    assert row("v_pagination", load=load_view(pagination=())).score == 0.4
    assert row("v_pagination", load=load_view(rows=51)).score == 0.6


def test_v_responsive_375():
    wide = row("v_responsive_375", load=load_view(mobile_scroll_width=377))
    assert wide.score == 0.0 and "scrollWidth 377 > innerWidth 375" in wide.detail
    assert row("v_responsive_375", load=load_view(mobile_scroll_width=376)).score == 1.0
    assert row("v_responsive_375", load=load_view(mobile_rows=0)).score == 0.0


def test_v_status_distinct():
    st = list(load_view().statuses)
    st[1] = ("pending", "rgb(31, 41, 55)", "rgb(254, 158, 11)")  # 9 off on red
    found = row("v_status_distinct", load=load_view(statuses=tuple(st)))
    assert found.score == pytest.approx(0.6 * 3 / 4 + 0.4) and "off: pending" in found.detail
    st[1] = ("pending", "rgb(31, 41, 55)", "rgb(253, 158, 11)")  # 8 off: within tolerance
    assert row("v_status_distinct", load=load_view(statuses=tuple(st))).score == 1.0
    same = tuple((s, "rgb(0, 0, 0)", "rgb(1, 1, 1)") for s, _, _ in load_view().statuses)
    assert row("v_status_distinct", load=load_view(statuses=same)).score == 0.0
    two = load_view().statuses[:2]
    assert row("v_status_distinct", load=load_view(statuses=two)).score == pytest.approx(0.4)


def test_v_styling_parts():
    times = row("v_styling", load=load_view(font_family='"Times New Roman"'))
    assert times.score == 0.75 and "missing font" in times.detail
    plain = load_view(stylesheet=False, backgrounds=("rgb(1, 1, 1)",), header_visible=False)
    assert row("v_styling", load=plain).score == 0.25


# -- P and E --------------------------------------------------------------------------------


def test_p_page_interactive_ladder_and_k_p():
    late = row("p_page_interactive", load=load_view(first_row_ms=2001))
    assert late.score == 0.75 and "2001 ms (rung <=3000 ms" in late.detail
    never = load_view(first_row_ms=None)
    assert row("p_page_interactive", load=never).score == 0.0
    tight = CheckSettings(k_p=2.0)
    obs = with_browser(views(load=load_view(first_row_ms=1500)))
    assert grade_one(obs, "p_page_interactive", tight).score == 0.75


def test_e_optimistic_paint_terms():
    assert row("e_optimistic_paint", note=note_view(painted_while_held=False)).detail == (
        "0: not painted while held (the cell waited for the network)"
    )
    assert row("e_optimistic_paint", note=note_view(cell_found=False)).score == 0.0
    assert row("e_optimistic_paint", note=note_view(editor_opened=False)).score == 0.0
    assert row("e_optimistic_paint", note=note_view(paint_ms=180.0)).score == pytest.approx(0.94)
    assert row("e_optimistic_paint", note=note_view(preexisting=True)).score == pytest.approx(0.85)
    assert row("e_optimistic_paint", note=note_view(saved=False)).score == pytest.approx(0.8)
    assert row("e_optimistic_paint", note=note_view(saving_seen=False)).score == pytest.approx(0.85)


# -- evidence -------------------------------------------------------------------------------


def test_rows_name_their_screenshots():
    assert row("j_empty_state").evidence["screenshots"] == ["/work/browser/empty/empty.png"]


def test_publishable_keeps_five_small_shots_in_preference_order(tmp_path):
    from pathlib import Path

    names = ["sync-after", "viz-after-drag", "load-1280", "error", "empty", "load-375",
             "note-conflict", "viz-before-drag", "viz-fallback", "zz-extra"]  # fmt: skip
    shots = [Path(f"/x/{n}.png") for n in names]
    sizes = dict.fromkeys(shots, 600_000)
    chosen = publishable(shots, sizes)
    assert [p.stem for p in chosen] == ["load-1280", "viz-before-drag", "load-375", "error",
                                        "empty"]  # fmt: skip
    rest = ["sync-after", "note-conflict", "viz-after-drag", "viz-fallback", "zz-extra"]
    assert [p.stem for p in ranked(shots)][5:] == rest
    too_big = publishable(shots, sizes | {shots[2]: 1_600_000})  # load-1280: skipped
    assert [p.stem for p in too_big] == ["viz-before-drag", "load-375", "error", "empty",
                                         "sync-after"]  # fmt: skip
    heavy = dict.fromkeys(shots, 1_200_000)
    assert len(publishable(shots, heavy)) == 2  # 3 x 1.2 MB would pass 3.5 MB together
    assert publishable(shots[:2], sizes) == (shots[0], shots[1])  # fewer than five: all
