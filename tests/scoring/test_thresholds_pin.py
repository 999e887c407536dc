"""Thresholds pinning: a calibrated file must hash to the pin, or nothing is scored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from benchwright.errors import RefusedError, SpecError
from benchwright.scoring import compose, load_scorer, perfect_rows, sha256_hex
from scoring.conftest import WriteConfig


def _calibrate(path: Path, **changes: Any) -> str:
    doc = json.loads(path.read_text())
    doc.update({"calibrated": True, **changes})
    path.write_text(json.dumps(doc))
    return sha256_hex(path.read_bytes())


@pytest.mark.parametrize("name", ["sb6", "sb7"])
def test_a_tampered_calibrated_file_is_refused_naming_both_hashes(
    write_config: WriteConfig, name: str
) -> None:
    config = write_config(name)
    pin = load_scorer(config).config.thresholds.sha256  # type: ignore[union-attr]
    actual = _calibrate(config.parent / f"{name}-thresholds.json", k_P=1.5)
    with pytest.raises(RefusedError) as caught:
        load_scorer(config)
    assert caught.value.exit_code == 3
    assert pin in str(caught.value) and actual in str(caught.value)


@pytest.mark.parametrize(("name", "version"), [("sb6", "sb-6.0"), ("sb7", "sb-7.0")])
def test_a_calibrated_file_matching_its_pin_drops_the_rc_and_the_banner(
    write_config: WriteConfig, name: str, version: str
) -> None:
    config = write_config(name)
    actual = _calibrate(config.parent / f"{name}-thresholds.json")
    doc = yaml.safe_load(config.read_text())
    doc["thresholds"]["sha256"] = actual
    config.write_text(yaml.safe_dump(doc))
    scorer = load_scorer(config)
    card = compose(perfect_rows(scorer), scorer)
    assert card.scorer_version == version
    assert card.banner is None and not card.flags.uncalibrated
    assert card.provenance["thresholds_sha256"] == actual


def test_uncalibrated_thresholds_put_a_banner_and_rc_on_every_verdict() -> None:
    from scoring.conftest import shipped

    scorer = shipped("sb7")
    card = compose(perfect_rows(scorer), scorer)
    assert card.scorer_version == "sb-7.0-rc"
    assert card.banner == "UNCALIBRATED: thresholds are not a frozen calibration fit (sb-7.0-rc)"


def test_sb6_ships_the_public_reference_pass_calibrated_figures() -> None:
    """Entrants graded here are scored on the public sb-6 reference pass's frozen figures
    (facts D5), so the shipped sb-6 verdict is sb-6.0 with no banner, and the drag floors
    are the frozen file's 48/36/24/12, not the methodology page's 24/18/12/6."""
    from scoring.conftest import shipped

    scorer = shipped("sb6")
    card = compose(perfect_rows(scorer), scorer)
    assert card.scorer_version == "sb-6.0" and card.banner is None
    assert scorer.floors("e_frames_under_drag") == (48, 36, 24, 12)
    assert scorer.k_p == 1.0 and scorer.gamma("T") == scorer.gamma("A") == 1.0


def test_the_shipped_pins_match_the_shipped_files() -> None:
    from scoring.conftest import SCORERS, shipped

    for name in ("sb6", "sb7"):
        pinned = shipped(name).thresholds
        assert pinned is not None
        assert pinned.pin == sha256_hex((SCORERS / f"{name}-thresholds.json").read_bytes())


def test_thresholds_calibration_m_overrides_the_config(write_config: WriteConfig) -> None:
    config = write_config("sb6")
    path = config.parent / "sb6-thresholds.json"
    doc = json.loads(path.read_text())
    doc["m"], doc["calibrated"] = 0.5, False  # an edited calibrated file would be refused
    path.write_text(json.dumps(doc))
    assert load_scorer(config).m == 0.5


def test_an_invalid_thresholds_file_names_its_field(write_config: WriteConfig) -> None:
    config = write_config("sb6")
    path = config.parent / "sb6-thresholds.json"
    doc = json.loads(path.read_text())
    doc["gamma_core"] = 9.0
    path.write_text(json.dumps(doc))
    with pytest.raises(SpecError) as caught:
        load_scorer(config)
    assert caught.value.source.endswith("sb6-thresholds.json")
    assert caught.value.problems[0][0] == "gamma_core"
