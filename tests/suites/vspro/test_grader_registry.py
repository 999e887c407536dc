"""The check table, phase selection, the staged browser rows and coverage of sb-6's ids."""

from pathlib import Path

import pytest
from vspro_canned import grade_one, perfect

from benchwright.errors import SpecError
from benchwright.model import Status
from benchwright.scoring import compose, load_scorer
from benchwright.suites import grader_for
from benchwright.suites.kit.checks import CheckTable, app_check
from benchwright.suites.vspro import BROWSER_CHECKS, PHASE_NAMES, build_table, select_phases
from benchwright.suites.vspro.checks import (
    ALL_BROWSER_CHECKS,
    CheckSettings,
    browser_rows,
    tier_a,
)

SB6 = Path(__file__).parents[3] / "scorers" / "sb6.yaml"


def test_every_sb6_check_has_exactly_one_producer():
    scorer = load_scorer(SB6)
    produced = set(build_table().ids) | set(BROWSER_CHECKS)
    assert produced == set(scorer.wanted)
    assert not set(build_table().ids) & set(BROWSER_CHECKS)


def test_browser_rows_are_unavailable_and_say_why():
    rows = browser_rows(["t_camera", "v_filter"])
    assert [r.check_id for r in rows] == ["t_camera", "v_filter"]
    assert {r.status for r in rows} == {Status.UNAVAILABLE}
    assert {r.detail for r in rows} == {"browser check not implemented"}


def test_perfect_app_composes_to_all_ones_outside_the_staged_rows():
    rows = [r for r in build_table().evaluate(perfect(), CheckSettings())
            if r.check_id not in ALL_BROWSER_CHECKS] + browser_rows(ALL_BROWSER_CHECKS)  # fmt: skip
    card = compose(rows, load_scorer(SB6))
    for tier in ("A", "B", "C", "D", "P", "HARD"):
        assert card.tier(tier).mean == 1.0, tier
    assert set(card.unavailable) == set(ALL_BROWSER_CHECKS)
    assert card.flags.partial and not card.flags.excellent


def test_duplicate_registration_is_an_error():
    table = CheckTable.from_modules([tier_a])
    with pytest.raises(ValueError, match="registered twice"):
        table.register(table.get("server_runs"))


def test_unknown_check_lists_the_known_ones():
    with pytest.raises(KeyError, match="known: a_asset_budget"):
        build_table().get("server_run")


def test_absent_phase_statuses():
    obs = perfect()
    gone = obs.__class__(
        obs.seed,
        obs.expect,
        obs.fixture_ids,
        phases={k: v for k, v in obs.phases.items() if k != "sync1"},
    )
    assert grade_one(gone, "sync_shape").status is Status.NOT_ATTEMPTED
    broken = gone.with_failure("sync1", "HarnessError: port in use")
    row = grade_one(broken, "sync_shape")
    assert row.status is Status.INFRA and "port in use" in row.detail
    down = gone.with_app_down("sync1", "the app never became healthy at boot (0.0: crashed)")
    row = grade_one(down, "sync_shape")
    assert (row.status, row.score) == (Status.FAIL, 0.0)
    assert row.detail == "0: the app never became healthy at boot (0.0: crashed)"


def test_a_crashing_check_is_infra_not_fail():
    @app_check("boom", needs=("static",))
    def boom(obs, settings):
        raise RuntimeError("bug")

    table = CheckTable()
    table.register(boom.__app_check__)
    row = table.evaluate_one("boom", perfect(), CheckSettings())
    assert row.status is Status.INFRA and "RuntimeError: bug" in row.detail


def test_select_phases_adds_boot_and_trace_and_keeps_order():
    names = [p.name for p in select_phases(["traps", "sync1"])]
    assert names == ["boot", "sync1", "traps", "trace"]
    assert [p.name for p in select_phases(["static"])] == ["static"]
    assert tuple(p.name for p in select_phases(None)) == PHASE_NAMES


def test_select_phases_refuses_unknown_names():
    with pytest.raises(SpecError, match=r"unknown phase\(s\) sink.*known: static, boot"):
        select_phases(["sink"])


def test_grader_for_names_and_directories():
    assert grader_for("vspro").SCORER == "sb6.yaml"
    assert grader_for("suites/vspro").SCORER == "sb6.yaml"
    with pytest.raises(SpecError, match="known: vendorsync, vspro"):
        grader_for("suites/nope")


WEIRD = (
    [1, 2],
    {"data": [[1], None, {"id": ["x"], "created_at": 5}], "total": "many", "limit": [200]},
    {
        "cells": [{"day": [1], "status": {"a": 1}, "count": "3"}],
        "by_currency": [{"currency": []}],
        "oldest": 1,
        "newest": [],
        "results": [{"index": []}, "x", None],
        "error": ["no"],
    },
)


def _weird(value, replacement):
    from dataclasses import fields, is_dataclass, replace

    from vspro_canned import jr

    from benchwright.probes.http import JsonRead

    if isinstance(value, JsonRead):
        return jr(replacement, value.status)
    if isinstance(value, tuple):
        return tuple(_weird(v, replacement) for v in value)
    if is_dataclass(value) and value.__class__.__module__.endswith("phase_obs"):
        return replace(
            value, **{f.name: _weird(getattr(value, f.name), replacement) for f in fields(value)}
        )
    return value


@pytest.mark.parametrize("replacement", WEIRD)
def test_odd_app_answers_never_crash_a_check(replacement):
    obs = perfect()
    for name in obs.phases:
        obs = obs.with_phase(name, _weird(obs[name], replacement))
    rows = build_table().evaluate(obs, CheckSettings())
    crashed = {r.check_id: r.detail for r in rows if r.status is Status.INFRA}
    assert not crashed
