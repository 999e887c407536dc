"""sb-7's arithmetic against §11's numbers: the worked example from raw rows, every
critical's transform by consequence class, and one defect multiplying once (a dead
server, a lossy sync) while independent defects still compound."""

from __future__ import annotations

from typing import Any

import pytest

from benchwright.model import CheckResult, Scorecard, Status
from benchwright.reports.scorecard import scorecard_dict
from benchwright.scoring import compose, perfect_rows, rows_from
from scoring.conftest import shipped

SB7 = shipped("sb7")
PART_TWO = ("J", "V", "P", "T", "E")
"""The browser tiers: UNAVAILABLE in a part-one grading."""


def row(check: str, score: float, status: Status | None = None, **evidence: Any) -> CheckResult:
    """One row as a check reports it: PASS at 1, FAIL below, or ``status``."""
    status = status or (Status.PASS if score >= 1.0 else Status.FAIL)
    return CheckResult(check, status, score, "test row", evidence)


def run(*changed: CheckResult) -> Scorecard:
    """The perfect run with ``changed`` rows in place of theirs, composed by sb-7."""
    by_id = {r.check_id: r for r in changed}
    return compose([by_id.get(r.check_id, r) for r in perfect_rows(SB7)], SB7)


def applied(card: Scorecard) -> dict[str, float]:
    return {f.check_id: f.factor for f in card.factors if f.applied}


def suppressed(card: Scorecard) -> dict[str, str | None]:
    return {f.check_id: f.suppressed_by for f in card.factors if f.suppressed_by}


# -- the worked example (§11) --------------------------------------------------------------

WORKED = (
    row("b_viz_records", 0.0),  # B 10/11
    row("c_send_idempotency", 0.0),  # C 6/7
    row("j_workflow_journey", 5 / 7),  # J (6 + 5/7)/7; a dead-flow critical
    row("p_sync_wall", 0.75),  # P 5.75/6
    row("t_labels_culling", 0.0),  # T 14/15
    row("e_frames_under_drag", 0.5),
    row("e_stream_apply_latency", 0.5),
    row("e_under_load_latency", 0.75),
    row("e_optimistic_paint", 0.75),  # e_mean (0.5 + 0.5 + 0.75 + 0.75 + 1) / 5 = 0.70
    row("j_console_clean", 0.0),
    row("console_clean", 0.0),  # the binary gate condition: locked
)


def test_the_worked_example_composes_from_raw_rows_to_0_8166() -> None:
    card = run(*WORKED)
    means = {t.name: t.mean for t in card.tiers}
    assert means["B"] == pytest.approx(10 / 11) and means["C"] == pytest.approx(6 / 7)
    assert means["J"] == pytest.approx((6 + 5 / 7) / 7) and means["T"] == pytest.approx(14 / 15)
    assert means["P"] == pytest.approx(5.75 / 6)
    assert card.components[0].value == 0.9614  # inner
    assert card.excellence is not None
    assert card.excellence.gate_fraction == 0.904  # (13 + 5/7 + 0 + 0.75) / 16
    assert card.excellence.e_mean == 0.70
    assert card.composed == 0.9220  # 0.88 x 0.9614 + 0.12 x 0.904 x 0.70
    assert applied(card) == {"j_workflow_journey": 0.8857}  # 0.6 + 0.4 x 0.714
    assert round(applied(card)["j_workflow_journey"], 3) == 0.886  # as §11 prints it
    assert card.score == 0.8166  # 0.9220 x 0.8857
    assert card.scorer_version == "sb-7.0-rc" and card.banner is not None
    assert not card.flags.excellent


def test_the_j_loads_data_diagnostic_never_enters_the_j_mean() -> None:
    card = run(row("j_loads_data", 0.5))
    assert {t.name: t.mean for t in card.tiers}["J"] == 1.0
    assert card.score == 1.0  # partial data visible: presence holds, no multiplier


# -- every critical, by consequence class (§11, §12) -----------------------------------------


@pytest.mark.parametrize(
    ("changed", "factor"),
    [
        # crash: the boot ladder is the input, and below 0.4 it is 0
        (row("server_runs", 0.75), 0.9),
        (row("server_runs", 0.6), 0.84),
        (row("server_runs", 0.4), 0.76),
        (row("server_runs", 0.15), 0.6),
        (row("server_runs", 0.0), 0.6),
        # data loss, a fraction: ANY shortfall cliffs the input to at most 0.5
        (row("sync_completeness", 0.9999), 0.8),
        (row("sync_completeness", 11_000 / 12_288), 0.8),
        (row("sync_completeness", 0.3), 0.72),
        # data loss, binary rows: confirmed by the score, sized by the leg, capped at 0.5
        (row("r_no_row_loss", 0.0, severity_leg=0.98), 0.8),
        (row("r_no_row_loss", 0.0, severity_leg=0.2), 0.68),
        (row("r_cache_truth", 0.0, severity_leg=0.75), 0.8),
        (row("r_workflow_durability", 0.0, severity_leg=0.5), 0.8),
        # ... and an absent surface brings no fraction: severity input 0
        (row("r_workflow_durability", 0.0), 0.6),
        (row("r_no_row_loss", 0.0), 0.6),
        # wrong money: any shortfall is severity 0
        (row("b_money_rendered", 0.99), 0.6),
        (row("x_conservation_residual", 0.0), 0.6),
        (row("x_no_lost_write", 0.0), 0.6),
        (row("r_no_dupe_effect", 0.0), 0.6),
        # the DST trap: the multiplier reads the DST-window cells, not the score
        (row("b_buckets_dst", 0.9, severity_leg=1.0), None),
        (row("b_buckets_dst", 0.99, severity_leg=0.95), 0.6),
        (row("b_buckets_dst", 0.99), 0.6),  # no leg: the score is the input
        # dead primary flow
        (row("j_loads_data", 0.5), None),  # presence: some data visible
        (row("j_loads_data", 0.0), 0.6),
        (row("j_workflow_journey", 5 / 7), 0.8857),
        (row("j_workflow_journey", 0.0), 0.6),  # no workflow UI: absent surface
    ],
)  # fmt: skip
def test_each_critical_prices_its_consequence_class(changed: CheckResult, factor: float) -> None:
    card = run(changed)
    assert applied(card) == ({} if factor is None else {changed.check_id: factor})
    expected = card.composed * (factor or 1.0)
    assert card.score == pytest.approx(round(expected, 4), abs=1e-12)


def test_legs_survive_the_card_so_it_composes_to_its_own_score_again() -> None:
    card = run(row("r_no_row_loss", 0.0, severity_leg=0.98), row("b_buckets_dst", 0.9,
                                                                 severity_leg=1.0))  # fmt: skip
    assert card.row("r_no_row_loss").severity_leg == 0.98
    again = compose(rows_from(scorecard_dict(card), "card.json", SB7), SB7)
    assert again.score == card.score and applied(again) == {"r_no_row_loss": 0.8}


def test_a_leg_is_read_only_where_the_scorer_asks_for_one() -> None:
    assert applied(run(row("x_no_lost_write", 0.0, severity_leg=1.0))) == {"x_no_lost_write": 0.6}


def test_a_held_invariant_multiplies_by_exactly_one_whatever_its_leg_says() -> None:
    card = run(row("r_no_row_loss", 1.0, severity_leg=0.0),
               row("b_buckets_dst", 1.0, severity_leg=0.0))  # fmt: skip
    assert applied(card) == {} and card.score == 1.0


@pytest.mark.parametrize("leg", [True, "0.9", float("nan"), None])
def test_a_leg_that_is_no_number_leaves_the_score_as_the_input(leg: Any) -> None:
    assert applied(run(row("r_no_row_loss", 0.0, severity_leg=leg))) == {"r_no_row_loss": 0.6}


def test_a_leg_outside_0_1_is_clamped() -> None:
    assert applied(run(row("r_no_row_loss", 0.0, severity_leg=7))) == {"r_no_row_loss": 0.8}
    assert applied(run(row("r_no_row_loss", 0.0, severity_leg=-3))) == {"r_no_row_loss": 0.6}


def test_non_implementation_never_outscores_one_violation() -> None:
    absent = run(row("r_workflow_durability", 0.0))
    one_reverted = run(row("r_workflow_durability", 0.0, severity_leg=0.5))
    assert absent.score < one_reverted.score


def test_wrong_money_costs_more_than_data_loss_which_costs_more_than_a_dead_flow() -> None:
    money = run(row("x_no_lost_write", 0.0)).score
    loss = run(row("r_no_row_loss", 0.0, severity_leg=0.99)).score
    flow = run(row("j_workflow_journey", 5 / 7)).score
    assert money < loss < flow < 1.0


def test_independent_criticals_compound() -> None:
    card = run(row("b_money_rendered", 0.0), row("r_workflow_durability", 0.0, severity_leg=0.5))
    assert applied(card) == {"b_money_rendered": 0.6, "r_workflow_durability": 0.8}
    assert card.score == round(card.composed * 0.6 * 0.8, 4)


def test_an_unavailable_critical_never_multiplies() -> None:
    card = run(row("r_cache_truth", 0.0, Status.UNAVAILABLE))
    assert applied(card) == {} and "r_cache_truth" in card.unavailable
    assert {t.name: t.mean for t in card.tiers}["R"] == 1.0  # out of the mean, not a zero


# -- one defect multiplies once (§11) --------------------------------------------------------

STATIC = {"a_package_layout", "a_asset_budget", "d_decisions_doc"}
"""Part-one rows read from the tree alone: a dead server does not touch them."""


def _dead_server() -> Scorecard:
    """Part one with a server that crashes at boot: every row that needed it running
    failed (marked, as the kit marks them, ``blocked_by: server_runs``); the browser
    tiers unavailable."""
    tiers = SB7.tier_of
    changed = [row("server_runs", 0.0)]
    for check in SB7.wanted:
        if tiers.get(check) in PART_TWO or check in ("j_loads_data", "j_console_clean",
                                                     "console_clean"):  # fmt: skip
            changed.append(row(check, 0.0, Status.UNAVAILABLE))
        elif check not in STATIC and check != "server_runs":
            changed.append(row(check, 0.0, blocked_by="server_runs"))
    return run(*changed)


def test_a_dead_server_multiplies_once() -> None:
    card = _dead_server()
    assert applied(card) == {"server_runs": 0.6}
    assert card.score == round(card.composed * 0.6, 4)
    shortfalls = {f.check_id for f in card.factors if f.factor < 1.0} - {"server_runs"}
    assert shortfalls == {"sync_completeness", "b_money_rendered", "b_buckets_dst",
                          "x_conservation_residual", "x_no_lost_write", "r_no_row_loss",
                          "r_no_dupe_effect", "r_cache_truth", "r_workflow_durability"}  # fmt: skip
    assert suppressed(card)["r_workflow_durability"] == "server_runs"
    assert suppressed(card)["x_no_lost_write"] == "sync_completeness"  # through its root
    assert [a.root for a in card.attribution] == ["server_runs"]  # one line, one defect


def test_a_dead_servers_card_composes_to_its_own_score_again() -> None:
    card = _dead_server()
    again = compose(rows_from(scorecard_dict(card), "card.json", SB7), SB7)
    assert (again.score, applied(again)) == (card.score, applied(card))


LOSSY = (
    row("sync_completeness", 0.9),  # ~1,230 payments silently missing
    row("b_total_field", 0.0),
    row("b_buckets_dst", 0.5, severity_leg=0.5),
    row("b_money_rendered", 0.0),
    row("c_paged_walk", 0.9),
    row("x_l4_convergence", 0.7),
    row("x_m3_terminal_conservation", 0.0),
    row("x_conservation_residual", 0.0),
    row("x_no_lost_write", 0.0),
    row("r_no_row_loss", 0.0, blocked_by="sync_completeness"),  # vacuous: nothing to lose
    row("r_cache_truth", 0.0, blocked_by="sync_completeness"),
    row("r_no_dupe_effect", 0.0, blocked_by="sync_completeness"),
)


def test_a_lossy_sync_multiplies_once_for_its_dependents() -> None:
    card = run(*LOSSY)
    assert applied(card) == {"sync_completeness": 0.8}  # 0.6 + 0.4 x min(0.9, 0.5)
    assert card.score == round(card.composed * 0.8, 4)
    explained = {"b_buckets_dst", "b_money_rendered", "x_conservation_residual", "x_no_lost_write",
                 "r_no_row_loss", "r_cache_truth", "r_no_dupe_effect"}  # fmt: skip
    assert set(suppressed(card)) == explained
    assert set(suppressed(card).values()) == {"sync_completeness"}
    (attribution,) = card.attribution
    assert attribution.root == "sync_completeness"


def test_vacuous_rows_still_price_zero_through_their_tier() -> None:
    card = run(*LOSSY)
    means = {t.name: t.mean for t in card.tiers}
    assert means["R"] == pytest.approx(7 / 10)
    assert means["X"] == pytest.approx((8 + 0.7) / 12)


def test_a_defect_the_root_does_not_explain_still_multiplies() -> None:
    card = run(*LOSSY, row("r_workflow_durability", 0.0, severity_leg=0.5))
    assert applied(card) == {"sync_completeness": 0.8, "r_workflow_durability": 0.8}
