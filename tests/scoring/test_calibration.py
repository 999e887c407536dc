"""The calibration fit: worst figure per measurement, k_P tightens, slow hosts are refused,
drag floors come from the reference, and the same inputs always give the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchwright.errors import RefusedError, SpecError
from benchwright.model import CheckResult, Status
from benchwright.scoring import Rung, compose, load_scorer, perfect_rows, sha256_hex
from benchwright.scoring.calibration import (
    HEADROOM,
    K_P_MAX,
    FitContext,
    Measurement,
    Role,
    fit,
    run_figures,
    thresholds_bytes,
)
from benchwright.scoring.thresholds import HostDescription, ThresholdsFile, ThresholdsPin
from scoring.conftest import WriteConfig

LIST = Measurement("p_list_latency", "p95_ms", Role.TIGHTENED)
PAGE = Measurement("p_page_interactive", "first_row_ms", Role.TIGHTENED)
TOOLTIP = Measurement("t_tooltip", "latency_ms", Role.SPEC)
DRAG = Measurement("e_frames_under_drag", "frames", Role.FLOORS)
SYNC = Measurement("p_sync_wall", "seconds", Role.TIGHTENED, scale=1000.0)
MEASUREMENTS = (LIST, PAGE, TOOLTIP, DRAG)
LADDERS = {
    "p_list_latency": (Rung(150, 1.0), Rung(300, 0.75), Rung(600, 0.5), Rung(1200, 0.25)),
    "p_page_interactive": (Rung(2000, 1.0), Rung(3000, 0.75), Rung(4500, 0.5), Rung(8000, 0.25)),
    "t_tooltip": (Rung(150, 1.0), Rung(400, 0.6), Rung(1200, 0.3)),
}
BASE = ThresholdsFile(calibrated=False, gamma_core=1.5, gamma_hard=2.0, k_P=1.0, m=0.55)
CONTEXT = FitContext(
    HostDescription(cpu_model="Test CPU", cpu_count=2, kernel="Linux 6", python="3.11.9"),
    "2026-12-01",
    "ab" * 32,
)


def run(list_ms: float = 40, page_ms: float = 500, tooltip_ms: float = 20, frames: float = 60):
    return {
        "p_list_latency": list_ms,
        "p_page_interactive": page_ms,
        "t_tooltip": tooltip_ms,
        "e_frames_under_drag": frames,
    }


def fitted(*runs: dict[str, float]) -> ThresholdsFile:
    return fit(runs, MEASUREMENTS, BASE, LADDERS, CONTEXT)


def test_k_p_is_set_by_the_ladder_with_the_least_room_on_the_worst_run() -> None:
    # list: 150 / (100 x 1.25) = 1.2; page: 2000 / (1000 x 1.25) = 1.6 -> k_P 1.2
    values = fitted(run(list_ms=80, page_ms=1000), run(list_ms=100, page_ms=900))
    assert values.calibrated and values.k_P == 1.2
    assert values.evidence is not None
    assert values.evidence.worst["p_list_latency"] == 100
    assert values.evidence.worst["p_page_interactive"] == 1000
    assert [r.at_most for r in values.ladders["p_list_latency"]] == [150, 300, 600, 1200]


def test_k_p_never_exceeds_its_cap_and_is_rounded_down() -> None:
    assert fitted(run(list_ms=1, page_ms=1)).k_P == K_P_MAX
    # 150 / (97 x 1.25) = 1.237... -> 1.23 (rounded towards the looser bar)
    assert fitted(run(list_ms=97, page_ms=1)).k_P == 1.23


def test_a_reference_without_headroom_under_a_printed_budget_keeps_k_p_1_and_says_so() -> None:
    values = fitted(run(list_ms=130))  # 130 x 1.25 = 162.5 > 150, but 130 <= 150
    assert values.k_P == 1.0
    assert values.evidence is not None
    said = "p_list_latency: the reference's worst 130 x 1.25 headroom = 162.5 is over the 150 "
    notes = values.evidence.notes
    assert any(n.startswith(f"{said}top rung: k_P cannot tighten it") for n in notes)


def test_a_reference_slower_than_a_printed_top_rung_is_refused() -> None:
    with pytest.raises(RefusedError) as caught:
        fitted(run(), run(page_ms=2100))
    assert str(caught.value) == "this host is too slow to calibrate on"
    assert caught.value.reasons == [
        "p_page_interactive: the reference's worst 2100 exceeds the printed 2000 top rung"
    ]
    assert caught.value.exit_code == 3


def test_an_excellence_rung_out_of_the_hosts_reach_is_recorded_host_bound_not_refused() -> None:
    """A row that may be out of a host's reach (a software renderer's frame is over its
    budget): the fit records the reference's worst for it and goes on; the printed ladder
    stands and k_P is not bounded by it. Any other row over its top still refuses."""
    reach = Measurement("p_page_interactive", "first_row_ms", Role.TIGHTENED,
                        may_be_out_of_reach=True)  # fmt: skip
    values = fit([run(), run(page_ms=2100)], (LIST, reach), BASE, LADDERS, CONTEXT)
    assert values.host_bound == {"p_page_interactive": 2100}
    assert [r.at_most for r in values.ladders["p_page_interactive"]] == [2000, 3000, 4500, 8000]
    assert values.k_P == K_P_MAX  # the list ladder alone: 150 / (40 x 1.25) -> capped
    assert values.evidence is not None
    assert any("out of this host's reach" in n for n in values.evidence.notes)
    assert ThresholdsFile.model_validate_json(thresholds_bytes(values)) == values
    with pytest.raises(RefusedError):
        fitted(run(), run(page_ms=2100))


def test_a_host_bound_rows_figure_is_still_a_measurement() -> None:
    """Calibrating again under a file that made the row host-bound reads its figure."""
    rows = [_row("p_page_interactive", Status.UNAVAILABLE, "host-bound: the frozen reference's "
                 "worst here is 2100 ms", first_row_ms=1900.0)]  # fmt: skip
    assert run_figures(rows, (PAGE,)) == ({"p_page_interactive": 1900.0}, [])


def test_a_spec_ladder_refuses_a_host_without_headroom_and_accepts_it_at_the_edge() -> None:
    with pytest.raises(RefusedError) as caught:
        fitted(run(tooltip_ms=121))
    assert caught.value.reasons == [
        "t_tooltip: the reference's worst 121 x 1.25 headroom = 151.25 exceeds the 150 top rung"
    ]
    values = fitted(run(tooltip_ms=120))  # 120 x 1.25 = 150: exactly the budget
    assert [r.at_most for r in values.ladders["t_tooltip"]] == [150, 400, 1200]


def test_drag_floors_come_from_the_reference_worst_frames_over_the_headroom() -> None:
    assert fitted(run(frames=60)).floors == {"e_frames_under_drag": [48, 36, 24, 12]}
    assert fitted(run(frames=61), run(frames=59)).floors == {
        "e_frames_under_drag": [47, 35, 23, 11]
    }
    with pytest.raises(RefusedError) as caught:
        fitted(run(frames=4))
    assert caught.value.reasons == [
        "e_frames_under_drag: the reference's worst 4 / 1.25 headroom = 3 leaves no room for "
        "4 distinct floors"
    ]


def test_gamma_and_m_are_copied_and_the_file_says_why() -> None:
    values = fitted(run())
    assert (values.gamma_core, values.gamma_hard, values.m) == (1.5, 2.0, 0.55)
    assert values.evidence is not None
    assert values.evidence.notes[0] == (
        "gamma_core, gamma_hard, m copied from the scorer's thresholds: the suite's scorer "
        "defines no fit for them"
    )


def test_runs_that_disagree_more_than_the_fit_can_absorb_are_noted() -> None:
    # k_P 1.5: page top 2000 / 1.5 = 1333.33; a run 2.5x worse than 1000 would miss it.
    # list: 16 / 4 = 4x, but 16 x 4 = 64 stays under its 100 top: no note.
    values = fitted(run(page_ms=400, list_ms=4), run(page_ms=1000, list_ms=16, frames=40))
    assert values.evidence is not None
    assert values.evidence.notes[1:] == [
        "p_page_interactive varied 2.5x over the runs (400 to 1000): one more run that much "
        "worse (2500) would miss the 1333.33 top rung; calibrate on a quieter host or with "
        "more runs",
        "e_frames_under_drag varied 1.5x over the runs (40 to 60): one more run that much "
        "worse (26.67) would miss the 32 top rung; calibrate on a quieter host or with more runs",
    ]
    calm = fitted(run(page_ms=400, frames=50), run(page_ms=500, frames=60))
    assert calm.evidence is not None and len(calm.evidence.notes) == 1


def test_the_fit_is_deterministic_and_reproducible_from_its_own_evidence() -> None:
    runs = (run(list_ms=33.4, page_ms=1428.2), run(list_ms=41.0, page_ms=990.5, frames=58))
    first = thresholds_bytes(fitted(*runs))
    assert thresholds_bytes(fitted(*runs)) == first
    evidence = ThresholdsFile.model_validate_json(first).evidence
    assert evidence is not None and evidence.headroom == HEADROOM
    assert thresholds_bytes(fitted(*evidence.runs)) == first


def test_no_runs_is_refused() -> None:
    with pytest.raises(RefusedError, match="at least one run"):
        fitted()


def _row(check: str, status: Status = Status.PASS, detail: str = "", **evidence: object):
    return CheckResult(check, status, 1.0 if status is Status.PASS else 0.0, detail, evidence)


def test_run_figures_reads_evidence_in_the_ladder_unit() -> None:
    rows = [_row("p_list_latency", p95_ms=33.38467), _row("p_sync_wall", seconds=0.4687)]
    assert run_figures(rows, (LIST, SYNC)) == (
        {"p_list_latency": 33.385, "p_sync_wall": 468.7},
        [],
    )


def test_run_figures_names_every_unproven_measurement() -> None:
    rows = [
        _row("p_list_latency", Status.UNAVAILABLE, "host contended: 61% of the CPU elsewhere"),
        _row("p_page_interactive", Status.FAIL, first_row_ms=True),
        _row("t_tooltip"),
    ]
    figures, problems = run_figures(rows, MEASUREMENTS)
    assert figures == {}
    assert problems == [
        "p_list_latency is UNAVAILABLE (host contended: 61% of the CPU elsewhere)",
        "p_page_interactive: evidence first_row_ms is True, not a measured figure",
        "t_tooltip: evidence latency_ms is None, not a measured figure",
        "e_frames_under_drag: no row",
    ]


def test_floors_must_descend_and_the_schema_forbids_unknown_fields() -> None:
    with pytest.raises(ValueError, match="floors must be positive and strictly decreasing"):
        ThresholdsFile(calibrated=True, floors={"e_frames_under_drag": [24, 24, 12, 6]})
    doc = json.loads(thresholds_bytes(fitted(run())))
    doc["evidence"]["hostname"] = "box"
    with pytest.raises(ValueError, match="hostname"):
        ThresholdsFile.model_validate(doc)


def _written(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "calibrated.json"
    path.write_bytes(thresholds_bytes(fitted(run())))
    return path, sha256_hex(path.read_bytes())


def test_a_pinned_calibrated_file_drops_the_banner_and_the_rc(
    write_config: WriteConfig, tmp_path: Path
) -> None:
    path, sha = _written(tmp_path)
    scorer = load_scorer(write_config("sb6"), thresholds=ThresholdsPin(path, sha))
    card = compose(perfect_rows(scorer), scorer)
    assert card.scorer_version == "sb-6.0" and card.banner is None
    assert card.provenance["thresholds_sha256"] == sha
    assert card.provenance["thresholds_file"].endswith("calibrated.json")
    assert scorer.floors("e_frames_under_drag") == (48, 36, 24, 12)


def test_one_byte_changed_refuses_naming_both_hashes(
    write_config: WriteConfig, tmp_path: Path
) -> None:
    path, sha = _written(tmp_path)
    path.write_bytes(path.read_bytes().replace(b'"k_P": 1.5', b'"k_P": 1.4', 1))
    with pytest.raises(RefusedError) as caught:
        load_scorer(write_config("sb6"), thresholds=ThresholdsPin(path, sha))
    assert sha in str(caught.value) and sha256_hex(path.read_bytes()) in str(caught.value)


def test_a_pin_given_for_a_file_binds_even_an_uncalibrated_one(
    write_config: WriteConfig, tmp_path: Path
) -> None:
    config = write_config("sb6")
    rc = config.parent / "sb6-thresholds.json"
    rc.write_text(rc.read_text().replace('"calibrated": true', '"calibrated": false', 1))
    with pytest.raises(RefusedError, match="was pinned but its sha256 is"):
        load_scorer(config, thresholds=ThresholdsPin(rc, "0" * 64))
    scorer = load_scorer(config, thresholds=ThresholdsPin(rc, sha256_hex(rc.read_bytes())))
    assert scorer.version == "sb-6.0-rc"


def test_a_missing_pinned_file_is_invalid_input_naming_it(
    write_config: WriteConfig, tmp_path: Path
) -> None:
    with pytest.raises(SpecError, match=r"gone\.json: file not found"):
        load_scorer(write_config("sb6"), thresholds=ThresholdsPin(tmp_path / "gone.json", "0"))
