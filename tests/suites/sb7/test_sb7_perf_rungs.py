"""sb-7's calibration-owned rungs: the suite's defaults are the shipped rc thresholds file
(so a grading without a scorer and one with it agree until calibration moves the file),
a scorer's file overrides them, ``k_P`` included, and the calibration fit finds each
harness-side figure in its row."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import yaml
from sb7_observations import perfect
from sb7_perf_records import battery, with_perf
from sb7_viz_canned import viz_view, with_viz

from benchwright.scoring import Rung, load_scorer
from benchwright.scoring.calibration import run_figures
from benchwright.suites.sb7 import CALIBRATION
from benchwright.suites.sb7.checks import CheckSettings, judge

SCORERS = Path(__file__).resolve().parents[3] / "scorers"
HARNESS_SIDE = ("p_api_latency", "p_under_stream", "e_under_load_latency", "p_sync_wall")


def _file() -> dict:
    return json.loads((SCORERS / "sb7-thresholds.json").read_text(encoding="utf-8"))


def test_the_defaults_are_the_shipped_rc_thresholds() -> None:
    shipped = _file()
    ladders = {name: tuple(Rung(r["at_most"], r["score"]) for r in rungs)
               for name, rungs in shipped["ladders"].items()}  # fmt: skip
    settings = CheckSettings()
    assert dict(settings.ladders) == ladders
    assert {k: list(v) for k, v in settings.floors.items()} == shipped["floors"]
    assert settings.k_p == shipped["k_P"] == 1.0


def test_the_scorer_pins_the_file_it_ships() -> None:
    config = yaml.safe_load((SCORERS / "sb7.yaml").read_text(encoding="utf-8"))
    digest = hashlib.sha256((SCORERS / "sb7-thresholds.json").read_bytes()).hexdigest()
    assert config["thresholds"]["sha256"] == digest
    assert set(config["calibration_owned"]) == set(_file()["ladders"]) | set(_file()["floors"])


def test_a_scorers_file_overrides_the_defaults(tmp_path: Path) -> None:
    changed = _file() | {"k_P": 1.5}
    changed["ladders"]["p_api_latency"][0]["at_most"] = 120
    changed["floors"]["e_frames_under_drag"] = [44, 32, 24, 12]
    text = json.dumps(changed)
    config = yaml.safe_load((SCORERS / "sb7.yaml").read_text(encoding="utf-8"))
    config["thresholds"] = {"file": "t.json", "sha256": hashlib.sha256(text.encode()).hexdigest()}
    (tmp_path / "t.json").write_text(text, encoding="utf-8")
    (tmp_path / "sb7.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    settings = CheckSettings.from_scorer(load_scorer(tmp_path / "sb7.yaml"))
    assert settings.ladders["p_api_latency"][0] == Rung(120, 1.0) and settings.k_p == 1.5
    assert settings.floors["e_frames_under_drag"] == (44, 32, 24, 12)
    assert settings.ladders["p_sync_wall"] == CheckSettings().ladders["p_sync_wall"]


def test_calibration_measures_exactly_the_owned_rows() -> None:
    config = yaml.safe_load((SCORERS / "sb7.yaml").read_text(encoding="utf-8"))
    assert sorted(m.check for m in CALIBRATION) == sorted(config["calibration_owned"])


def test_the_harness_side_rows_carry_their_calibration_figures() -> None:
    """On a correct app's record: the battery's worst p95 on the payments scale (buckets
    at 180 ms of 200 is 135 ms of 150), the reads' p95 under the burst, the sync seconds."""
    obs = with_perf(perfect(), idle=battery(buckets=180.0))
    rows = [r for r in judge(obs) if r.check_id in HARNESS_SIDE]
    mine = [m for m in CALIBRATION if m.check in HARNESS_SIDE]
    figures, problems = run_figures(rows, mine)
    assert problems == []
    assert figures["p_api_latency"] == 135.0
    assert figures["p_under_stream"] == figures["e_under_load_latency"] == 20.0
    assert figures["p_sync_wall"] == pytest.approx(20_400, abs=1.0)


VIEW_SIDE = ("p_drag_frames", "e_frames_under_drag", "p_stream_apply", "e_stream_apply_latency")


def test_the_fields_timed_rows_carry_their_calibration_figures() -> None:
    """The viz lane's calibration-owned rows name the figure `calibrate` fits on: the
    drag's frames and the median apply (``calibrate suites/sb7`` refused without them)."""
    obs = with_viz(viz_view())
    rows = [r for r in judge(obs) if r.check_id in VIEW_SIDE]
    mine = [m for m in CALIBRATION if m.check in VIEW_SIDE]
    figures, problems = run_figures(rows, mine)
    assert problems == [] and set(figures) == set(VIEW_SIDE)
    assert (
        figures["p_drag_frames"] == figures["e_frames_under_drag"] == viz_view().drag.window.frames
    )
    assert figures["p_stream_apply"] == figures["e_stream_apply_latency"] > 0
