"""``grade`` reports each phase on stderr as it ends; stdout stays the scorecard (issue 18)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from benchwright.reports.phase_progress import PhaseProgress
from benchwright.suites.kit import PhaseRecord
from benchwright.suites.vspro import grader

REPO = Path(__file__).parents[3]
BENCHWRIGHT = Path(sys.executable).with_name("benchwright")


def _tree(root: Path) -> Path:
    package = root / "build" / "vspro"
    (package / "web").mkdir(parents=True)
    (package / "store.py").write_text("CREATE TABLE payments (id TEXT PRIMARY KEY)\n")
    (package / "web" / "index.html").write_text("<html></html>")
    return root / "build"


def test_the_grader_tells_its_listener_each_phase_start_and_end(tmp_path):
    heard: list[tuple[str, str | None]] = []
    grader.grade(_tree(tmp_path), phases=["static"],
                 on_phase=lambda name, rec: heard.append((name, rec and rec.outcome)))  # fmt: skip
    assert heard == [("static", None), ("static", "ok")]


def test_grade_prints_phase_lines_on_stderr_and_where_it_wrote_on_stdout(tmp_path):
    tree = _tree(tmp_path)
    done = subprocess.run(
        [str(BENCHWRIGHT), "grade", str(REPO / "suites" / "vspro"), "--tree", str(tree),
         "--phases", "static", "--json", "card.json"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={**os.environ, "NO_COLOR": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    [phase_line] = [line for line in done.stderr.splitlines() if line.startswith("phase ")]
    assert phase_line.startswith("phase static: ok in ") and phase_line.endswith("s")
    assert "phase static" not in done.stdout
    assert done.stdout.splitlines()[-1] == "wrote card.json (evidence: none)"


def test_off_a_terminal_each_finished_phase_is_one_plain_line():
    out = io.StringIO()
    with PhaseProgress(out) as progress:
        progress("boot", None)
        assert out.getvalue() == ""  # nothing while it runs, off a terminal
        progress("boot", PhaseRecord("boot", 3.214, "ok"))
        progress("http", PhaseRecord("http", 0.0, "app down"))  # skipped: only ever over
    assert out.getvalue() == "phase boot: ok in 3.21s\nphase http: app down in 0.00s\n"


def test_on_a_terminal_the_live_line_is_gone_before_the_phase_line_prints():
    out = io.StringIO()
    with PhaseProgress(out, live=True) as progress:
        progress("static", None)
        assert progress._status is not None  # the live status is running
        progress("static", PhaseRecord("static", 1.0, "failed: OSError: boom"))
        assert progress._status is None
        progress("boot", None)
    assert progress._status is None  # the context ended the one still running
    assert "phase static: failed: OSError: boom in 1.00s\n" in out.getvalue()
