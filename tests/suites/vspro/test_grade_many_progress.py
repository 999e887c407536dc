"""``grade --many`` shows each tree's phases while they run (issue #26: it printed nothing
until a tree finished): workers feed their phases to the driver, which shows the running
phase and its elapsed time per tree and prints each finished phase, prefixed by its tree."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from control_cases import SUITE
from rich.console import Console

from benchwright.execution.progress import ProgressDisplay
from benchwright.reports.phase_progress import PhaseFeed, TreePhases
from benchwright.suites.kit import PhaseRecord


def _tree(root: Path) -> Path:
    package = root / "vspro"
    (package / "web").mkdir(parents=True)
    (package / "store.py").write_text("CREATE TABLE payments (id TEXT PRIMARY KEY)\n")
    (package / "web" / "index.html").write_text("<html></html>")
    return root


def test_the_driver_shows_each_trees_running_phase_and_prints_each_finished_one(tmp_path):
    out = io.StringIO()
    display = ProgressDisplay(2, "trees", Console(file=out, width=200), live=False)
    with display, TreePhases(tmp_path, display) as phases:
        for tree in ("a", "b"):
            display.started(tree)
        PhaseFeed(phases.feed("a"))("static", None)
        PhaseFeed(phases.feed("a"))("static", PhaseRecord("static", 0.5, "ok"))
        PhaseFeed(phases.feed("a"))("boot", None)
        PhaseFeed(phases.feed("b"))("static", None)
        with phases.feed("b").open("a") as feed:  # a line still being written waits
            feed.write('{"phase": "boot", "at": ')
        phases.poll()
        assert re.fullmatch(r"phase boot \d+s", display.running["a"])
        assert re.fullmatch(r"phase static \d+s", display.running["b"])
        assert out.getvalue() == "a: phase static: ok in 0.50s\n"
        PhaseFeed(phases.feed("a"))("boot", PhaseRecord("boot", 3.214, "app down"))
        phases.finished("a")  # its last phases are printed before its row
        assert out.getvalue().endswith("a: phase boot: app down in 3.21s\n")
        display.finished("a", True, "graded a")
        phases.poll()
        assert "a" not in display.running  # a finished tree is never shown running again


def test_a_feed_that_cannot_be_written_never_fails_the_grading(tmp_path):
    PhaseFeed(tmp_path / "gone" / "t.jsonl")("boot", None)  # a Ray node without the folder
    assert not (tmp_path / "gone").exists()


@pytest.mark.slow
def test_grade_many_prints_each_trees_phases_before_its_row(cli, tmp_path):
    trees = [str(_tree(tmp_path / name)) for name in ("left", "right")]
    done = cli("grade", str(SUITE), "--many", *trees, "--phases", "static", "--workers", "2")
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    for name in ("left", "right"):
        [phase] = [
            i for i, line in enumerate(lines) if line.startswith(f"{name}: phase static: ok in ")
        ]
        [row] = [i for i, line in enumerate(lines) if line.startswith(f"graded {name} ")]
        assert phase < row
    assert "phase static" not in done.stdout  # stdout keeps the rows only
