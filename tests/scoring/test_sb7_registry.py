"""scorers/sb7.yaml and sb7-thresholds.json against the methodology's §11 and §12.

Every expectation below is written out from the seed's text, not read back from the
config, so a config that drifts from the methodology fails here naming the figure. The
pin's refusal (a calibrated sb-7 file off its pin) and its release (on its pin: sb-7.0,
no banner) are test_thresholds_pin.py's, parametrized over sb-6 and sb-7.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from benchwright.errors import SpecError
from benchwright.model import CheckResult, Status
from benchwright.scoring import compose, load_scorer, perfect_rows, sha256_hex
from scoring.conftest import SCORERS, WriteConfig, shipped

WEIGHTS = {"A": 0.04, "B": 0.09, "C": 0.09, "D": 0.06, "J": 0.12,
           "V": 0.06, "P": 0.08, "T": 0.14, "X": 0.16, "R": 0.16}  # fmt: skip
"""§11: the ten non-E tiers of ``inner``."""
COUNTS = {"A": 6, "B": 11, "C": 7, "D": 5, "J": 7, "V": 5, "P": 6, "T": 15, "X": 12, "R": 10,
          "E": 5}  # fmt: skip
"""§12's checks per tier (J's nine less its two weight-zero diagnostics)."""
CRITICALS = {
    "server_runs": "crash",
    "sync_completeness": "data-loss",
    "b_money_rendered": "wrong-money",
    "b_buckets_dst": "wrong-money",
    "x_conservation_residual": "wrong-money",
    "x_no_lost_write": "wrong-money",
    "r_no_row_loss": "data-loss",
    "r_no_dupe_effect": "wrong-money",
    "r_cache_truth": "data-loss",
    "r_workflow_durability": "data-loss",
    "j_loads_data": "dead-flow",
    "j_workflow_journey": "dead-flow",
}
"""§11's critical registry: twelve consequences."""
SYNC_DEPENDENTS = {
    "b_total_field", "b_row_shape", "b_summary_shape", "b_money_rendered", "b_buckets_dst",
    "b_viz_records", "c_paged_walk", "c_b1_drop_resume", "c_b2_retry_after",
    "c_b5_generation_304", "c_conditional_resync", "c_webhook_discipline", "t_scene_binding",
    "t_height_pixels", "t_pick_buffer", "t_labels_culling", "t_brush_link",
    "x_l1_no_invented_states", "x_l2_per_key_order", "x_l3_monotonic_reads", "x_l4_convergence",
    "x_l5_group_atomicity", "x_m1_amount_immutability", "x_m2_pair_conservation",
    "x_m3_terminal_conservation", "x_conservation_residual", "x_no_lost_write",
    "x_ooo_dup_forged", "r_b3_sigkill_resync", "r_no_row_loss", "r_no_dupe_effect",
    "r_cache_truth",
}  # fmt: skip
"""The rows §12 scores 0 'attributed to sync_completeness' (or vacuous) on a dead sync."""


def test_tier_weights_are_section_11s_and_sum_to_one() -> None:
    config = shipped("sb7").config
    assert {name: tier.weight for name, tier in config.tiers.items() if name != "E"} == WEIGHTS
    assert sum(WEIGHTS.values()) == pytest.approx(1.0, abs=1e-12)
    assert config.components["inner"].weight == 0.88
    assert config.components["inner"].tiers == list(WEIGHTS)
    assert config.excellence is not None and config.excellence.weight == 0.12


def test_the_scorer_asserts_the_mechanism_axis_and_the_excellence_slice() -> None:
    rules = [(r.sum, r.min, r.equals) for r in shipped("sb7").config.constraints]
    assert (list(WEIGHTS), None, 1.0) in rules
    assert (["T", "X", "R"], 0.46, None) in rules
    assert (["E"], 0.10, None) in rules


def _compress_mechanisms(doc: dict[str, Any]) -> None:
    doc["tiers"]["T"]["weight"] = 0.13  # the 0.01 moves to V: weights still sum to 1
    doc["tiers"]["V"]["weight"] = 0.07


def _compress_excellence(doc: dict[str, Any]) -> None:
    doc["components"]["inner"]["weight"] = 0.92
    doc["excellence"]["weight"] = 0.08


@pytest.mark.parametrize(
    ("edit", "message"),
    [(_compress_mechanisms, "T + X + R = 0.45, must be >= 0.46"),
     (_compress_excellence, "E = 0.08, must be >= 0.1")],
)  # fmt: skip
def test_a_quietly_compressed_axis_is_refused_at_load(
    write_config: WriteConfig, edit: Any, message: str
) -> None:
    with pytest.raises(SpecError) as caught:
        load_scorer(write_config("sb7", edit))
    assert message in str(caught.value)


def test_every_tier_holds_section_12s_checks_91_in_all() -> None:
    config = shipped("sb7").config
    assert {name: len(tier.checks) for name, tier in config.tiers.items()} == COUNTS
    assert config.diagnostics == ["j_loads_data", "j_console_clean"]
    checks = [c for tier in config.tiers.values() for c in tier.checks] + config.diagnostics
    assert len(checks) == len(set(checks)) == 91


def test_gamma_is_hard_for_t_x_r_and_core_for_the_rest(write_config: WriteConfig) -> None:
    hard = {"T", "X", "R"}
    gammas = {n: t.gamma for n, t in shipped("sb7").config.tiers.items()}
    assert gammas == {n: "hard" if n in hard else "core" for n in [*WEIGHTS, "E"]}
    config = write_config("sb7")
    thresholds = config.parent / "sb7-thresholds.json"
    doc = json.loads(thresholds.read_text())
    thresholds.write_text(json.dumps({**doc, "gamma_hard": 2.0, "gamma_core": 3.0}))
    scorer = load_scorer(config)  # uncalibrated: the pin does not bind
    assert (scorer.gamma("X"), scorer.gamma("B")) == (2.0, 3.0)
    halved = ("x_l3_monotonic_reads", "b_row_shape")
    rows = [r for r in perfect_rows(scorer) if r.check_id not in halved]
    card = compose(rows, scorer)  # both missing rows count 0; the other 11 / 10 count 1
    means = {t.name: t.mean for t in card.tiers}
    assert means["X"] == pytest.approx(11 / 12) and means["B"] == pytest.approx(10 / 11)
    half = compose([*rows, *_half(*halved)], scorer)
    means = {t.name: t.mean for t in half.tiers}
    assert means["X"] == pytest.approx((11 + 0.5**2) / 12)  # score ** gamma_hard
    assert means["B"] == pytest.approx((10 + 0.5**3) / 11)  # score ** gamma_core


def _half(*checks: str) -> list[CheckResult]:
    return [CheckResult(c, Status.FAIL, 0.5, "half marks") for c in checks]


def test_the_critical_registry_is_section_11s_twelve_at_m_0_6() -> None:
    scorer = shipped("sb7")
    criticals = scorer.config.criticals
    assert criticals is not None and criticals.dedupe_by_root
    assert {e.check: e.consequence for e in criticals.checks} == CRITICALS
    assert scorer.m == criticals.m == 0.6


def test_transforms_follow_each_consequence_class() -> None:
    entries = {e.check: e for e in shipped("sb7").config.criticals.checks}  # type: ignore[union-attr]
    transforms = {c: (e.transform, e.leg) for c, e in entries.items()}
    assert transforms == {
        "server_runs": ("cliff", False),
        "sync_completeness": ("data_loss", False),
        "b_money_rendered": ("cliff", False),
        "b_buckets_dst": ("cliff", True),
        "x_conservation_residual": ("cliff", False),
        "x_no_lost_write": ("cliff", False),
        "r_no_row_loss": ("data_loss", True),
        "r_no_dupe_effect": ("cliff", False),
        "r_cache_truth": ("data_loss", True),
        "r_workflow_durability": ("data_loss", True),
        "j_loads_data": ("presence", False),
        "j_workflow_journey": ("linear", False),
    }
    assert entries["server_runs"].below == 0.4  # §12: below 0.4 the severity input is 0
    assert all(e.cap == 0.5 for e in entries.values() if e.transform == "data_loss")
    assert all(e.below == 1.0 for c, e in entries.items() if c != "server_runs")


def test_every_critical_but_the_boot_hangs_under_a_critical_root() -> None:
    """So a dead server multiplies once: every other critical is suppressed through it."""
    scorer = shipped("sb7")
    roots = scorer.config.roots
    below = set(roots["server_runs"]) | {
        dep for root in roots["server_runs"] if root in roots for dep in roots[root]
    }
    assert set(CRITICALS) - {"server_runs"} <= below


def test_three_roots_with_the_dependents_section_12_names() -> None:
    roots = shipped("sb7").config.roots
    assert list(roots) == ["server_runs", "sync_completeness", "t_vs7dbg_truth"]
    assert set(roots["sync_completeness"]) == SYNC_DEPENDENTS
    # §11's 14, plus the two criticals a dead server empties that no other root holds
    assert len(roots["server_runs"]) == 16
    assert {"sync_completeness", "r_workflow_durability", "j_workflow_journey"} <= set(
        roots["server_runs"]
    )
    tiers = shipped("sb7").config.tiers
    assert len(roots["t_vs7dbg_truth"]) == 12
    assert set(roots["t_vs7dbg_truth"]) <= set(tiers["T"].checks)
    assert not {"t_context_real", "t_draw_budget"} & set(roots["t_vs7dbg_truth"])


def test_the_excellence_gate_is_section_11s_sixteen_conditions() -> None:
    excellence = shipped("sb7").config.excellence
    assert excellence is not None and excellence.gate == "mean_share" and excellence.tier == "E"
    assert [c.name for c in excellence.conditions] == [
        "j_first_use == 1", "j_workflow_journey == 1", "j_error_state == 1",
        "j_empty_state == 1", "console_clean", "v_responsive_375 >= 1",
        "v_dates_readable >= 1", "t_scene_binding >= 1", "x_conservation_residual >= 1",
        "r_no_row_loss >= 1", "p_drag_frames == 1", "p_idle_flatness == 1",
        "p_stream_apply == 1", "p_under_stream == 1", "p_api_latency == 1", "p_sync_wall == 1",
    ]  # fmt: skip
    console = next(c for c in excellence.conditions if c.special)
    assert console.scenarios == ["load", "sync", "flow", "viz", "empty"]


def test_calibration_owns_the_ladders_and_never_a_critical_or_a_frozen_rule() -> None:
    config = shipped("sb7").config
    owned = set(config.calibration_owned)
    assert not owned & set(CRITICALS)
    assert "p_idle_flatness" not in owned  # §12: frozen in the spec, 0 draws per 500 ms
    assert owned == {"p_drag_frames", "p_stream_apply", "p_under_stream", "p_api_latency",
                     "p_sync_wall", "e_frames_under_drag", "e_stream_apply_latency",
                     "e_under_load_latency", "e_optimistic_paint"}  # fmt: skip


def _ladder(scorer: Any, name: str) -> list[tuple[float, float]]:
    return [(r.at_most, r.score) for r in scorer.rungs(name)]


def test_the_thresholds_file_prints_section_12s_rungs() -> None:
    scorer = shipped("sb7")
    quarters = (1.0, 0.75, 0.5, 0.25)
    for name, budgets in {
        "p_stream_apply": (250, 500, 1000, 2000),
        "p_under_stream": (150, 300, 600, 1200),
        "p_api_latency": (150, 300, 600, 1500),
        "p_sync_wall": (120_000, 240_000, 420_000, 600_000),
        "e_stream_apply_latency": (100, 200, 400, 800),
        "e_under_load_latency": (150, 300, 600, 1200),
    }.items():
        assert _ladder(scorer, name) == list(zip(budgets, quarters, strict=True)), name
    assert _ladder(scorer, "e_optimistic_paint") == [(100, 1.0), (250, 0.6), (800, 0.3)]
    assert scorer.floors("p_drag_frames") == (32, 24, 16, 8)
    assert scorer.floors("e_frames_under_drag") == (40, 32, 24, 12)
    assert (scorer.k_p, scorer.gamma("T"), scorer.gamma("A")) == (1.0, 1.0, 1.0)


def test_until_calibrated_every_verdict_is_sb_7_0_rc_under_the_banner() -> None:
    scorer = shipped("sb7")
    card = compose(perfect_rows(scorer), scorer)
    assert card.score == 1.0
    assert card.scorer_version == "sb-7.0-rc"
    assert card.flags.uncalibrated
    assert card.banner == "UNCALIBRATED: thresholds are not a frozen calibration fit (sb-7.0-rc)"


def test_the_shipped_pin_is_the_shipped_files_sha256() -> None:
    pinned = shipped("sb7").thresholds
    assert pinned is not None and pinned.matches_pin
    assert pinned.pin == sha256_hex((SCORERS / "sb7-thresholds.json").read_bytes())
