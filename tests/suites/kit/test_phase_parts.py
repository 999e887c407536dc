"""A phase run in parts (``--phases browser:load+viz``): the selection grammar, the lanes a
sub-selection keeps, and the NOT_ATTEMPTED rows of the scenarios it left out (stand-in
phases and steps: the rule is the kit's, whatever the suite)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchwright.errors import SpecError
from benchwright.model import Status
from benchwright.suites.kit import Phase, select_phases
from benchwright.suites.kit.browser import BrowserRecord, keep_lanes, named, scenario
from benchwright.suites.kit.browser.rows import view
from benchwright.suites.kit.record import PhaseLog


def _run(ctx: Any, obs: Any, only: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A phase that says which parts it was asked to run."""
    return only


PHASES = (Phase("boot", _run), Phase("browser", _run, parts=lambda: ("load", "viz", "empty")))


def test_a_phase_in_parts_runs_only_those_and_a_bare_name_runs_it_whole() -> None:
    chosen = select_phases(PHASES, ("boot",), ["browser:viz+load"])
    assert [(p.name, p.only) for p in chosen] == [("boot", ()), ("browser", ("viz", "load"))]
    assert [p(None, None) for p in chosen] == [(), ("viz", "load")]
    (whole,) = [p for p in select_phases(PHASES, (), ["browser"]) if p.name == "browser"]
    assert whole(None, None) == ()


@pytest.mark.parametrize(("names", "message"), [
    (["browser:nope"], r"--phases: phase browser has no part\(s\) nope \(known: load, viz, empty"),
    (["boot:load"], r"--phases: phase boot has no parts to select \(boot:load\)"),
    (["browser:load", "browser"], r"--phases: phase browser named twice"),
])  # fmt: skip
def test_a_part_the_phase_does_not_have_is_refused_naming_it(names, message) -> None:
    with pytest.raises(SpecError, match=message):
        select_phases(PHASES, ("boot",), names)


def _noop(lane: Any, ctx: Any, shots: Path) -> None:
    return None


def _instance(lane: Any, ctx: Any, shots: Path, seen: Any) -> None:
    return None


PLAN = [
    (scenario("sync", _noop), scenario("flow", _noop)),
    (scenario("load", _noop),),
    (scenario("error", _noop), named(_instance, "empty")),
]


def test_a_lane_is_kept_whole_when_it_carries_a_named_scenario() -> None:
    kept, skipped = keep_lanes(PLAN, ("flow", "empty"))
    assert kept == [PLAN[0], PLAN[2]] and skipped == ("load",)
    assert keep_lanes(PLAN, ()) == (PLAN, ())
    with pytest.raises(SpecError, match=r"unknown browser scenario\(s\) viz \(known: sync, flow"):
        keep_lanes(PLAN, ("viz",))


def test_a_skipped_scenarios_rows_are_not_attempted_never_unavailable() -> None:
    obs = PhaseLog(phases={"browser": BrowserRecord(None, {"load": object()}, skipped=("viz",))})
    _seen, row = view(obs, "t_draw_budget", "viz")
    assert row is not None and row.status is Status.NOT_ATTEMPTED
    assert "viz scenario was not selected" in row.detail
    _seen, lost = view(obs, "j_sync_journey", "sync")  # planned, never recorded: the probe's
    assert lost is not None and lost.status is Status.UNAVAILABLE
    found, none = view(obs, "j_first_use", "load")
    assert none is None and found is not None


def test_console_cleanliness_over_a_scenario_left_out_is_not_attempted() -> None:
    from benchwright.suites.kit.browser.console import console_clean_row

    obs = PhaseLog(phases={"browser": BrowserRecord(None, {}, skipped=("viz",))})
    found = console_clean_row(obs, ("load", "viz"))
    assert found.status is Status.NOT_ATTEMPTED
    assert "viz scenario(s) were not selected" in found.detail
