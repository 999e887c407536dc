"""The attribution roots as the sb-7 rows carry them: a dead server blocks every row that
needed the app (``blocked_by: server_runs``), a dead sync makes its dependents vacuous
(``blocked_by: sync_completeness``), and composed by the sb-7 scorer each defect
multiplies once."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sb7_observations import dead_server, dead_sync, perfect

from benchwright.model import Status
from benchwright.scoring import compose, load_scorer
from benchwright.suites.sb7.checks import BROWSER_CHECKS, build_table, judge

SB7 = load_scorer(Path(__file__).resolve().parents[3] / "scorers" / "sb7.yaml")
TREE_ONLY = {"a_package_layout", "a_asset_budget", "d_decisions_doc"}
"""Rows graded from the tree alone: a dead server does not touch them."""


def _rows(obs) -> dict:
    """Part one's rows (the browser rows issue 29 implements prove their roots themselves)."""
    ids = set(build_table().ids) - set(BROWSER_CHECKS)
    return {r.check_id: r for r in judge(obs) if r.check_id in ids}


def test_a_dead_server_blocks_every_row_that_needed_the_app() -> None:
    rows = _rows(dead_server())
    assert rows["server_runs"].score == 0.0 and "ModuleNotFoundError" in rows["server_runs"].detail
    for check, found in rows.items():
        if check in TREE_ONLY | {"server_runs"}:
            continue
        assert found.status is Status.FAIL, (check, found.detail)
        assert found.evidence.get("blocked_by") == "server_runs", (check, found.detail)
    assert rows["a_package_layout"].status is Status.PASS


def test_a_dead_server_multiplies_once() -> None:
    card = compose(judge(dead_server()), SB7)
    fired = [f.check_id for f in card.factors if f.applied]
    assert fired == ["server_runs"]


def test_a_dead_sync_multiplies_once() -> None:
    card = compose(judge(dead_sync()), SB7)
    fired = [f.check_id for f in card.factors if f.applied]
    assert fired == ["sync_completeness"]
    attributed = {a.root: a.dependents for a in card.attribution}
    assert "x_conservation_residual" in attributed["sync_completeness"]


def test_a_correct_app_multiplies_by_nothing() -> None:
    card = compose(judge(perfect()), SB7)
    assert [f.check_id for f in card.factors if f.applied] == []
    assert all(t.mean == 1.0 for t in card.tiers if t.mean is not None)


def test_without_a_fixture_the_grading_is_unavailable_not_failed() -> None:
    rows = _rows(replace(perfect(), truth=None))
    assert rows["sync_completeness"].status is Status.UNAVAILABLE
    assert rows["x_m3_terminal_conservation"].status is Status.UNAVAILABLE
