"""``benchwright calibrate`` and the pin it prints: a run must prove every calibration-owned
figure and pass the freeze gate; ``grade --thresholds F --thresholds-sha256 H`` drops the
UNCALIBRATED banner and the -rc suffix, and one byte changed in F exits 3 naming both."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from benchwright.cli import app
from benchwright.errors import RefusedError
from benchwright.model import CheckResult, Status
from benchwright.scoring import load_scorer, perfect_rows, sha256_hex
from benchwright.scoring.calibration import FitContext, fit, thresholds_bytes
from benchwright.scoring.thresholds import HostDescription, ThresholdsPin
from benchwright.suites.calibrate_run import default_out, proven_figures
from benchwright.suites.vspro import CALIBRATION, CheckSettings

REPO = Path(__file__).parents[3]
SUITE = str(REPO / "suites" / "vspro")
GOLDEN = REPO / "suites" / "vspro" / "reference"
CONFIG = REPO / "scorers" / "sb6.yaml"
FIGURES = {
    "p_list_latency": 30.0, "p_buckets_latency": 40.0, "p_summary_latency": 30.0,
    "p_sync_wall": 500.0, "p_page_interactive": 900.0, "p_first_frame": 1200.0,
    "e_under_load_latency": 40.0, "e_optimistic_paint": 8.0, "t_tooltip": 20.0,
    "e_frames_under_drag": 60.0,
}  # fmt: skip
HOST = HostDescription(cpu_model="Test CPU", cpu_count=2, kernel="Linux 6", python="3.11")


def _calibrated(tmp_path: Path) -> tuple[Path, str]:
    scorer = load_scorer(CONFIG)
    assert scorer.thresholds is not None
    ladders = CheckSettings.from_scorer(scorer).ladders
    values = fit([FIGURES], CALIBRATION, scorer.thresholds.values, ladders,
                 FitContext(HOST, "2026-12-01", "ab" * 32))  # fmt: skip
    path = tmp_path / "sb6-thresholds.calibrated.json"
    path.write_bytes(thresholds_bytes(values))
    return path, sha256_hex(path.read_bytes())


def _grade_static(tmp_path: Path, *pin: str):
    out = tmp_path / "card.json"
    args = ["grade", SUITE, "--tree", str(GOLDEN), "--phases", "static", "--json", str(out)]
    return CliRunner().invoke(app, [*args, *pin]), out


def test_the_drag_floors_and_ladders_of_a_pinned_file_reach_the_checks(tmp_path: Path) -> None:
    path, sha = _calibrated(tmp_path)
    settings = CheckSettings.from_scorer(load_scorer(CONFIG, thresholds=ThresholdsPin(path, sha)))
    assert settings.drag_rungs == (48, 36, 24, 12)
    assert settings.k_p == 1.5  # every figure has more than 1.5 x 1.25 room here
    assert settings.ladders["t_tooltip"][0].at_most == 150
    shipped = CheckSettings.from_scorer(load_scorer(CONFIG))
    assert shipped.drag_rungs == (48, 36, 24, 12)  # the public frozen file's floors
    assert shipped.k_p == 1.0


@pytest.mark.skipif(not (GOLDEN / "vspro").is_dir(), reason="golden reference not present")
def test_grade_with_a_pinned_calibrated_file_has_no_banner_and_no_rc(tmp_path: Path) -> None:
    path, sha = _calibrated(tmp_path)
    done, out = _grade_static(tmp_path, "--thresholds", str(path), "--thresholds-sha256", sha)
    assert done.exit_code == 0, done.output
    assert "UNCALIBRATED" not in done.output and "-rc" not in done.output
    assert "scorer sb-6.0 (" in done.output
    assert f"thresholds {path} sha256 {sha}" in done.output
    doc = json.loads(out.read_text())
    assert doc["scorer_version"] == "sb-6.0" and doc["banner"] is None
    assert doc["provenance"]["thresholds_sha256"] == sha
    shipped, _ = _grade_static(tmp_path)  # the public reference pass's calibrated figures
    assert "UNCALIBRATED" not in shipped.output and "scorer sb-6.0 (" in shipped.output


@pytest.mark.skipif(not (GOLDEN / "vspro").is_dir(), reason="golden reference not present")
def test_one_byte_changed_in_the_pinned_file_exits_3_naming_both_hashes(tmp_path: Path) -> None:
    path, sha = _calibrated(tmp_path)
    data = bytearray(path.read_bytes())
    data[data.index(b'"k_P": 1.5') + 7] = ord("2")  # 1.5 -> 2.5
    path.write_bytes(bytes(data))
    done, out = _grade_static(tmp_path, "--thresholds", str(path), "--thresholds-sha256", sha)
    assert done.exit_code == 3
    assert sha in done.output and sha256_hex(bytes(data)) in done.output
    assert "claims calibrated: true" in done.output and not out.exists()


def test_thresholds_and_its_sha256_go_together(tmp_path: Path) -> None:
    path, _ = _calibrated(tmp_path)
    alone, _ = _grade_static(tmp_path, "--thresholds", str(path))
    assert alone.exit_code == 2 and "go together" in alone.output
    short, _ = _grade_static(tmp_path, "--thresholds", str(path), "--thresholds-sha256", "ab12")
    assert short.exit_code == 2 and "want 64 hex digits" in short.output


def test_calibrate_refuses_zero_runs_as_invalid_input() -> None:
    done = CliRunner().invoke(app, ["calibrate", SUITE, "--runs", "0"])
    assert done.exit_code == 2 and "--runs: must be at least 1, got 0" in done.output


def test_calibrate_refuses_parallel_runs_saying_why_and_takes_one_worker() -> None:
    parallel = CliRunner().invoke(app, ["calibrate", SUITE, "--workers", "2"])
    assert parallel.exit_code == 2
    why = "calibrate grades the reference one run at a time: it measures latency on an idle host"
    assert parallel.output.startswith(f"error: --workers 2: {why}")
    one = CliRunner().invoke(app, ["calibrate", SUITE, "--workers", "1", "--runs", "0"])
    assert one.exit_code == 2 and "--workers" not in one.output  # past the refusal
    assert "--runs: must be at least 1, got 0" in one.output


def test_calibrate_never_overwrites_the_file_the_config_pins() -> None:
    pinned = REPO / "scorers" / "sb6-thresholds.json"
    before = pinned.read_bytes()
    done = CliRunner().invoke(app, ["calibrate", SUITE, "--out", str(pinned)])
    assert done.exit_code == 2, done.output
    assert "is the file the scorer config pins" in done.output
    assert pinned.read_bytes() == before


def _reference_rows(**changes: CheckResult) -> list[CheckResult]:
    """A perfect reference grading whose calibration-owned rows carry their figures."""
    rows = []
    for row in perfect_rows(load_scorer(CONFIG)):
        m = next((m for m in CALIBRATION if m.check == row.check_id), None)
        if m is not None:
            row = replace(row, evidence={m.key: FIGURES[m.check] / m.scale})
        rows.append(changes.get(row.check_id, row))
    return rows


def _grading(tmp_path: Path, rows: list[CheckResult]) -> SimpleNamespace:
    return SimpleNamespace(rows=tuple(rows), root=tmp_path, tree_sha256="ab" * 32)


def test_a_proven_run_passes_its_freeze_gate_and_gives_its_figures(tmp_path: Path) -> None:
    got = proven_figures(_grading(tmp_path, _reference_rows()), load_scorer(CONFIG), CALIBRATION,
                         "run 1/3")  # fmt: skip
    assert got == FIGURES
    assert json.loads((tmp_path / "sb6-reference-pass.json").read_text())["reference_pass"]


def test_a_run_with_a_contended_calibration_row_refuses_the_fit(tmp_path: Path) -> None:
    contended = CheckResult("e_under_load_latency", Status.UNAVAILABLE, 0.0,
                            "host contended: 58% of the CPU went elsewhere")  # fmt: skip
    rows = _reference_rows(e_under_load_latency=contended)
    with pytest.raises(RefusedError) as caught:
        proven_figures(_grading(tmp_path, rows), load_scorer(CONFIG), CALIBRATION, "run 2/3")
    assert str(caught.value) == ("run 2/3: 1 calibration-owned measurement(s) unproven; "
                                 "refusing to fit (never on an unproven measurement)")  # fmt: skip
    assert caught.value.reasons == [
        "e_under_load_latency is UNAVAILABLE (host contended: 58% of the CPU went elsewhere)"
    ]
    assert not (tmp_path / "sb6-reference-pass.json").exists()


def test_a_run_whose_reference_fails_the_freeze_gate_refuses_the_fit(tmp_path: Path) -> None:
    slow = CheckResult("j_first_use", Status.FAIL, 0.75, "0.75: first data 2159.9 ms")
    with pytest.raises(RefusedError) as caught:
        proven_figures(_grading(tmp_path, _reference_rows(j_first_use=slow)),
                       load_scorer(CONFIG), CALIBRATION, "run 1/3")  # fmt: skip
    assert str(caught.value).startswith("run 1/3: the reference failed the freeze gate")
    assert "j_first_use scores 0.7500 < 0.95" in caught.value.reasons


_REASONS = r"(^error:   [a-z]\w+[: ].+$\n?)+"
_HOST_REFUSALS = tuple(
    re.compile(rf"^error: {head}$\n{_REASONS}", re.M)
    for head in (
        r"this host is too slow to calibrate on",
        r"run 1/1: \d+ calibration-owned measurement\(s\) unproven; refusing to fit "
        r"\(never on an unproven measurement\)",
        r"run 1/1: the reference failed the freeze gate; refusing to calibrate on it",
    )
)
"""The refusals a real calibration may rightly give on a slow or busy host, whole: the
message, then one named measurement (with its figures) per line under it."""


def _refused_for_the_host(output: str) -> bool:
    return any(shape.search(output) for shape in _HOST_REFUSALS)


def _printed(error: RefusedError) -> str:
    return "".join(f"error: {line}\n" for line in error.lines())


def test_the_host_refusal_shapes_match_what_calibrate_prints() -> None:
    """The shapes above are the real messages as the CLI prints them, so the slow test
    below cannot excuse an arbitrary exit 3 (a harness failure, a bare message)."""
    slow = RefusedError("this host is too slow to calibrate on", [
        "e_optimistic_paint: the reference's worst 100.4 x 1.25 headroom = 125.5 exceeds "
        "the 100 top rung"])  # fmt: skip
    assert _refused_for_the_host(_printed(slow))
    broken = RefusedError("run 1/1: the harness failed during phase(s) boot")
    assert not _refused_for_the_host(_printed(broken))
    assert not _refused_for_the_host(_printed(RefusedError(str(slow))))  # no measurement named


@pytest.mark.slow
@pytest.mark.skipif(not (GOLDEN / "vspro").is_dir(), reason="golden reference not present")
@pytest.mark.alone  # it fits latencies, and writes the repo's pass marker golden_twice reads
def test_calibrate_writes_a_file_that_then_pins(tmp_path: Path) -> None:
    out = tmp_path / "cal" / "sb6.calibrated.json"
    done = subprocess.run(
        [sys.executable, "-m", "benchwright", "calibrate", SUITE, "--runs", "1", "--out", str(out)],
        capture_output=True, text=True, cwd=REPO, timeout=600,
    )  # fmt: skip
    if done.returncode == 3 and _refused_for_the_host(done.stdout + done.stderr):
        # A slow or busy host is a right refusal, not a failure; the pin itself is proven
        # above on a synthetic fit (test_grade_with_a_pinned_calibrated_file_...).
        assert not out.exists(), "a refused calibration must write nothing"
        return
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"run 1/1: \d+ s, freeze gate passed; p_list_latency ", done.stdout)
    sha = sha256_hex(out.read_bytes())
    assert f"wrote {out} sha256 {sha} (scorer sb-6.0, calibrated)" in done.stdout
    assert f"--thresholds {out} --thresholds-sha256 {sha}" in done.stdout
    doc = json.loads(out.read_text())
    assert doc["calibrated"] is True and len(doc["evidence"]["runs"]) == 1
    assert doc["evidence"]["host"]["cpu_count"] >= 1
    graded = subprocess.run(
        [sys.executable, "-m", "benchwright", "grade", SUITE, "--tree", str(GOLDEN), "--phases",
         "static", "--thresholds", str(out), "--thresholds-sha256", sha],
        capture_output=True, text=True, cwd=REPO, timeout=300,
    )  # fmt: skip
    assert graded.returncode == 0, graded.stdout + graded.stderr
    assert "UNCALIBRATED" not in graded.stdout and "scorer sb-6.0 (" in graded.stdout


def test_the_default_output_sits_beside_the_scorer_config() -> None:
    assert default_out(CONFIG) == REPO / "scorers" / "sb6-thresholds.calibrated.json"
