"""The vendorsync browser checks (tiers J and V, ``p_page_interactive``) on canned
views: each passes the golden page's view, fails the wrong page on the right rung, and is
UNAVAILABLE with ``PROBE UNAVAILABLE`` (never a zero) when the probe could not run."""

from __future__ import annotations

import pytest
from browser_views import (
    AFTER,
    BEFORE,
    PAGE_TEXT,
    REFUNDED,
    SETTLED,
    empty_view,
    error_view,
    load_view,
    observed,
    sync_view,
    views,
)
from scenario_obs import scenario

from benchwright.model import Status
from benchwright.probes.host import HostState
from benchwright.scoring.contention import HOST_CONTENDED
from benchwright.suites.kit.checks import CheckTable
from benchwright.suites.vendorsync.browser import StatusCell
from benchwright.suites.vendorsync.checks import CheckSettings, tier_j, tier_p_browser, tier_v
from benchwright.suites.vendorsync.checks._timing import judge_timing

TABLE = CheckTable.from_modules([tier_j, tier_v, tier_p_browser])
SETTINGS = CheckSettings()
ROWS = ("j_loads_data", "j_console_clean", "j_sync_journey", "j_error_state", "j_empty_state",
        "v_dates_readable", "v_status_distinct", "v_pagination", "v_filter",
        "v_responsive_375", "v_styling", "p_page_interactive")  # fmt: skip


def grade(check_id: str, **replaced):
    return TABLE.get(check_id).run(observed(views(**replaced)), SETTINGS)


def test_the_table_holds_the_twelve_rows_each_reading_the_browser_phase():
    assert set(TABLE.ids) == set(ROWS)
    assert {TABLE.get(c).needs for c in ROWS} == {("browser",)}


@pytest.mark.parametrize("check_id", ROWS)
def test_the_golden_page_earns_every_row(check_id):
    row = grade(check_id)
    assert (row.status, row.score) == (Status.PASS, 1.0), row.detail
    assert row.detail.startswith("1: ")


@pytest.mark.parametrize("check_id", ROWS)
def test_no_browser_makes_every_row_unavailable_with_probe_unavailable(check_id):
    row = TABLE.get(check_id).run(observed({}, unavailable="Chromium not found at /nope"), SETTINGS)
    assert (row.status, row.score) == (Status.UNAVAILABLE, 0.0)
    assert row.detail == "PROBE UNAVAILABLE: browser unavailable: Chromium not found at /nope"


def test_a_scenario_that_raised_leaves_its_rows_unavailable_not_zero():
    row = TABLE.get("j_sync_journey").run(
        observed(views(sync=None), {"sync": "TimeoutError: stuck"}), SETTINGS)  # fmt: skip
    assert row.status is Status.UNAVAILABLE
    assert row.detail == "PROBE UNAVAILABLE: probe unavailable: the sync scenario failed: " \
        "TimeoutError: stuck"  # fmt: skip


def test_a_slash_that_is_no_page_fails_the_rows_naming_what_it_answered():
    said = "`/` answered 404 application/json: no page to drive"
    row = TABLE.get("j_error_state").run(observed(views(error=None), no_page={"error": said}),
                                         SETTINGS)  # fmt: skip
    assert (row.status, row.score, row.detail) == (Status.FAIL, 0.0, f"0: {said} (error scenario)")


# -- J ----------------------------------------------------------------------------------------


def test_loads_data_halves_without_the_collection_and_zeroes_without_rows():
    wrong = grade("j_loads_data", load=load_view(page_info="1\u201325 of 25"))
    assert wrong.score == 0.5 and "the collection is 247 (0/0.5)" in wrong.detail
    assert grade("j_loads_data", load=load_view(page_info=None)).score == 0.5
    assert grade("j_loads_data", load=load_view(page_info="1-25 of 247")).score == 1.0
    every = grade("j_loads_data", load=load_view(page_info=None, rows=247))
    assert every.score == 1.0  # every row rendered accounts for the collection too
    assert grade("j_loads_data", load=load_view(rows=0, page_info="0\u20130 of 0")).score == 0.0


def test_console_clean_counts_errors_over_load_paging_and_sync():
    one = grade("j_console_clean", sync=sync_view(scenario=scenario("sync", errors=1)))
    assert one.score == 0.5 and one.detail.endswith("over load, empty, sync: 'sync: boom 0'")
    two = grade("j_console_clean", load=load_view(scenario=scenario("load", page_errors=1)),
                empty=empty_view(scenario=scenario("empty", errors=1)))  # fmt: skip
    assert two.score == 0.0 and two.evidence["errors"][0].startswith("load: TypeError")
    quiet = grade("j_console_clean", error=error_view(scenario=scenario("error", errors=3)))
    assert quiet.score == 1.0  # the error scenario refuses the API on purpose


def test_sync_journey_scores_its_four_quarters():
    assert grade("j_sync_journey", sync=sync_view(disabled_while_running=False)).score == 0.75
    assert grade("j_sync_journey", sync=sync_view(sync_status=500)).score == 0.75
    assert grade("j_sync_journey", sync=sync_view(enabled_after=False)).score == 0.75
    stale = grade("j_sync_journey", sync=sync_view(after=BEFORE))
    assert stale.score == 0.75 and "view refreshed no" in stale.detail
    none = sync_view(found=False, clicked=False, disabled_while_running=False,
                     sync_status=None, enabled_after=False, after=BEFORE)  # fmt: skip
    assert grade("j_sync_journey", sync=none).score == 0.0
    assert grade("j_sync_journey", sync=sync_view(before=AFTER)).score == 0.75


def test_error_state_needs_a_visible_error_saying_what_to_do_and_a_retry():
    assert grade("j_error_state", error=error_view(error_visible=False)).score == 0.0
    assert grade("j_error_state", error=error_view(retry_visible=False)).score == 0.0
    vague = grade("j_error_state", error=error_view(error_text="Something went wrong"))
    assert vague.score == 0.0 and "text saying what to do" in vague.detail


def test_empty_state_needs_empty_shown_and_zero_when_rows_render():
    assert grade("j_empty_state", empty=empty_view(empty_visible=False)).score == 0.0
    rows = grade("j_empty_state", empty=empty_view(rows=3))
    assert rows.score == 0.0 and "3 rows rendered on an empty database" in rows.detail
    assert grade("j_empty_state", empty=empty_view(empty_text="  ")).score == 0.0


# -- V ----------------------------------------------------------------------------------------


def test_a_raw_iso_timestamp_anywhere_on_the_page_zeroes_the_dates_row():
    text = PAGE_TEXT.replace("Last sync: Dec 4, 2026, 1:38 PM", "Last sync: 2026-12-04T13:38:00Z")
    row = grade("v_dates_readable", load=load_view(page_text=text))
    assert row.score == 0.0 and "'2026-12-04T13:38'" in row.detail
    cells = grade("v_dates_readable", load=load_view(dates=("2026-03-01T12:00:00Z",) * 25,
                                                     page_text="2026-03-01T12:00:00Z"))  # fmt: skip
    assert cells.score == 0.0
    assert grade("v_dates_readable", load=load_view(dates=())).score == 0.0


def test_dates_formatted_but_not_local_earn_half():
    row = grade("v_dates_readable", load=load_view(dates=("2026-03-01 12:00",) * 25))
    assert row.score == 0.5
    assert grade("v_dates_readable", load=load_view(dates=("01/03/2026 12:00",) * 25)).score == 1


def test_status_badges_must_differ_on_a_page_with_two_statuses():
    same = StatusCell("refunded", SETTLED.ink, SETTLED.fill, True)
    row = grade("v_status_distinct", load=load_view(statuses=(SETTLED, same)))
    assert row.score == 0.0 and "look the same" in row.detail
    plain = StatusCell("settled", "rgb(0, 0, 0)", "rgba(0, 0, 0, 0)", False)
    assert grade("v_status_distinct", load=load_view(statuses=(plain,) * 3)).score == 0.0
    assert grade("v_status_distinct", load=load_view(statuses=(SETTLED,) * 3)).score == 0.5
    assert grade("v_status_distinct", load=load_view(statuses=())).score == 0.0
    assert grade("v_status_distinct", load=load_view(statuses=(REFUNDED, SETTLED))).score == 1


def test_pagination_wants_its_controls_turning_and_a_bounded_page():
    no_next = grade("v_pagination", load=load_view(controls=("prev", "page-info")))
    assert no_next.score == 0.4 and "missing #next" in no_next.detail
    assert grade("v_pagination", load=load_view(turned_to=None)).score == 0.4
    assert grade("v_pagination", load=load_view(rows=247)).score == 0.6
    assert grade("v_pagination", load=load_view(rows=50)).score == 0.6


def test_filter_wants_a_visible_status_filter():
    row = grade("v_filter", load=load_view(controls=("prev", "next", "page-info")))
    assert (row.score, row.detail) == (0.0, "0: no visible #status-filter")


def test_horizontal_scroll_at_375_zeroes_the_responsive_row():
    wide = grade("v_responsive_375", load=load_view(mobile_scroll_width=640))
    assert wide.score == 0.0 and "640 px wide in a 375 px viewport" in wide.detail
    assert grade("v_responsive_375", load=load_view(mobile_rows=0)).score == 0.0


def test_styling_adds_its_three_parts():
    assert grade("v_styling", load=load_view(stylesheet=False)).score == 0.6
    assert grade("v_styling", load=load_view(backgrounds=("rgb(1, 1, 1)",))).score == 0.7
    assert grade("v_styling", load=load_view(font_family='"Times New Roman"')).score == 0.7
    bare = load_view(stylesheet=False, backgrounds=(), font_family="serif")
    assert grade("v_styling", load=bare).score == 0.0


# -- P ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("ms", "score"), [(1999.0, 1.0), (2500.0, 0.75), (4000.0, 0.5),
                                           (7000.0, 0.25), (9000.0, 0.0)])  # fmt: skip
def test_page_interactive_climbs_down_its_ladder(ms, score):
    assert grade("p_page_interactive", load=load_view(first_row_ms=ms)).score == score


def test_page_interactive_without_a_row_is_zero_and_reads_the_retimed_load():
    assert grade("p_page_interactive", load=load_view(first_row_ms=None)).score == 0.0
    obs = observed(views(load=load_view(first_row_ms=5000.0)),
                   retimed={"load": load_view(first_row_ms=900.0)})  # fmt: skip
    assert TABLE.get("p_page_interactive").run(obs, SETTINGS).score == 1.0


BUSY = HostState(0.4, 2, 0.71, 0.0, 0.95, 5.1)
QUIET = HostState(0.4, 2, 0.01, 0.0, 0.05, 0.3)


def test_page_interactive_is_judged_against_the_host_of_the_load_scenario():
    slow = views(load=load_view(first_row_ms=5000.0))
    rows = [TABLE.get("p_page_interactive").run(observed(slow, host={"load": BUSY}), SETTINGS)]
    judged = judge_timing(rows, observed(slow, host={"load": BUSY}))[0]
    assert judged.status is Status.UNAVAILABLE and judged.detail.startswith(HOST_CONTENDED)
    quiet = judge_timing(rows, observed(slow, host={"load": QUIET}))[0]
    assert quiet.score == 0.25 and quiet.evidence["host"]["contended"] is False
    other = TABLE.get("v_styling").run(observed(), SETTINGS)
    assert judge_timing([other], observed(host={"load": BUSY}))[0] == other
