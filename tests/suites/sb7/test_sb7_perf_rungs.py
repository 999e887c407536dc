"""sb-7's calibration-owned rungs: the suite's defaults are the shipped rc thresholds file
(so a grading without a scorer and one with it agree until calibration moves the file),
and a scorer's file overrides them, ``k_P`` included."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import yaml

from benchwright.scoring import Rung, load_scorer
from benchwright.suites.sb7.checks import CheckSettings

SCORERS = Path(__file__).resolve().parents[3] / "scorers"


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
