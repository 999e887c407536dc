"""Tier J rows that read the page's load and states (§12), each at 1.0 on a correct
console's browser record and down its rung for one defect; a scenario the probe lost is
UNAVAILABLE, never an app zero."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest
import yaml
from builders import REPO
from sb7_browser_canned import empty_view, error_view, with_browser, with_load
from sb7_observations import perfect, row, swap
from scenario_obs import scenario

from benchwright.model import Status
from benchwright.suites.sb7.checks._browser import NOMINAL

LOAD_ROWS = ("j_loads_data", "j_first_use")


@pytest.mark.parametrize("check", [*LOAD_ROWS, "j_console_clean", "j_error_state",
                                   "j_empty_state", "console_clean"])  # fmt: skip
def test_a_correct_console_scores_one(check: str) -> None:
    found = row(perfect(), check)
    assert (found.status, found.score) == (Status.PASS, 1.0), found.detail


def test_no_visible_rows_closes_the_first_use_gate_and_halves_loads_data() -> None:
    blank = with_load(perfect(), rows=0, first_row_ms=None)
    assert row(blank, "j_first_use").score == 0.0
    assert row(blank, "j_loads_data").score == 0.5


def test_a_claimed_total_off_the_vendors_collection_fails_reconciliation() -> None:
    obs = perfect()
    total = obs["browser"].scenarios["load"].vendor_total[0]
    wrong = with_load(obs, claimed_total=total - 1)
    assert row(wrong, "j_loads_data").score == 0.5
    assert row(wrong, "j_first_use").score == 0.0
    raced = with_load(obs, vendor_total=(total - 1, total), claimed_total=total - 1)
    assert row(raced, "j_first_use").score == 1.0  # a payment created while the page loaded


def test_first_data_steps_down_its_ladder() -> None:
    assert row(with_load(perfect(), first_row_ms=2500.0), "j_first_use").score == 0.75
    assert row(with_load(perfect(), first_row_ms=9000.0), "j_first_use").score == 0.0


def test_a_console_error_caps_first_use_and_counts_in_console_clean() -> None:
    noisy = with_load(perfect(), scenario=scenario("load", errors=1))
    assert row(noisy, "j_first_use").score == 0.6
    assert row(noisy, "j_console_clean").score == 0.5
    both = with_browser(noisy, sync=SimpleNamespace(scenario=scenario("sync", page_errors=1)))
    found = row(both, "j_console_clean")
    assert found.score == 0.0 and "boom 0" in found.detail


def test_console_clean_without_the_sync_scenario_is_unavailable() -> None:
    found = perfect()["browser"]
    lost = perfect().with_phase("browser", replace(found, scenarios={
        k: v for k, v in found.scenarios.items() if k != "sync"}))  # fmt: skip
    assert row(lost, "j_console_clean").status is Status.UNAVAILABLE


@pytest.mark.parametrize("name", ["load", "sync", "flow", "viz", "empty"])
def test_one_console_error_in_any_nominal_scenario_fails_console_clean(name: str) -> None:
    noisy = with_browser(perfect(), **{name: SimpleNamespace(scenario=scenario(name, errors=1))})
    found = row(noisy, "console_clean")
    assert (found.status, found.score) == (Status.FAIL, 0.0)
    assert f"first {name}: " in found.detail


def test_console_clean_ignores_the_scenarios_that_provoke_errors() -> None:
    """``error`` blocks the API and ``feed`` kills notifierd: their errors are the point."""
    error = replace(error_view(), scenario=scenario("error", errors=3))
    noisy = with_browser(
        perfect(), error=error, feed=SimpleNamespace(scenario=scenario("feed", errors=2))
    )
    assert row(noisy, "console_clean").score == 1.0


def test_console_clean_fails_an_unproven_scenario_and_is_unavailable_without_a_browser() -> None:
    found = perfect()["browser"]
    kept = {k: v for k, v in found.scenarios.items() if k != "viz"}
    lost = replace(found, scenarios=kept, scenario_errors={"viz": "boom"})
    unproven = row(perfect().with_phase("browser", lost), "console_clean")
    assert unproven.score == 0.0 and "unproven" in unproven.detail
    assert "viz: boom" in unproven.detail
    gone = perfect().with_phase("browser", replace(found, unavailable="no Chromium"))
    assert row(gone, "console_clean").status is Status.UNAVAILABLE


def test_console_clean_covers_the_scenarios_the_scorer_prints() -> None:
    config = yaml.safe_load((REPO / "scorers" / "sb7.yaml").read_text())
    special = next(c for c in config["excellence"]["conditions"] if c.get("special"))
    assert tuple(special["scenarios"]) == NOMINAL


def test_error_state_ladder() -> None:
    generic = with_browser(perfect(), error=error_view(actionable_text=None,
                                                       error_text="Something failed"))  # fmt: skip
    assert row(generic, "j_error_state").score == 0.3
    dead_retry = with_browser(perfect(), error=error_view(retry_recovered=False))
    assert row(dead_retry, "j_error_state").score == 0.6
    blank = with_browser(perfect(), error=error_view(error_visible=False, error_text=None,
                                                     actionable_text=None))  # fmt: skip
    assert row(blank, "j_error_state").score == 0.0


def test_phantom_rows_on_the_empty_database_score_zero() -> None:
    phantom = with_browser(perfect(), empty=empty_view(rows=3))
    assert row(phantom, "j_empty_state").score == 0.0


def test_an_empty_state_without_text_needs_the_pre_sync_state_d3_documents() -> None:
    blocking = empty_view(empty_text=None, table_visible=False)
    said_empty = with_browser(perfect(), empty=blocking)  # the fixture's D3: empty table
    found = row(said_empty, "j_empty_state")
    assert found.score == 0.3 and found.evidence["d3"] == "empty"
    d3_blocks = "## D3\nThe table waits behind a blocking loading state until the first sync.\n"
    said_blocks = swap(said_empty, "tree", decisions=d3_blocks)
    assert row(said_blocks, "j_empty_state").score == 1.0
    shown_table = with_browser(perfect(), empty=empty_view(empty_text=None))
    assert row(shown_table, "j_empty_state").score == 1.0  # an empty table, as D3 says


def test_a_blank_empty_page_scores_zero() -> None:
    blank = empty_view(empty_text=None, loading_text=None, table_visible=False,
                       body_text_length=0)  # fmt: skip
    assert row(with_browser(perfect(), empty=blank), "j_empty_state").score == 0.0


def test_a_lost_scenario_is_unavailable_and_no_browser_too() -> None:
    found = perfect()["browser"]
    failed = perfect().with_phase("browser", replace(found, scenario_errors={
        "load": "TimeoutError: bound"}))  # fmt: skip
    assert row(failed, "j_first_use").status is Status.UNAVAILABLE
    gone = perfect().with_phase("browser", replace(found, unavailable="no Chromium"))
    assert row(gone, "j_error_state").status is Status.UNAVAILABLE
