"""The shared progress display: plain lines off a terminal, a live bar with counts on one."""

from __future__ import annotations

import io

from rich.console import Console

from benchwright.execution.progress import ProgressDisplay


def _console(terminal: bool) -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, force_terminal=terminal, width=200), buffer


def test_off_a_terminal_each_finished_job_is_one_plain_line_with_counts() -> None:
    console, buffer = _console(terminal=False)
    with ProgressDisplay(3, "tasks", console) as progress:
        for key in ("a", "b", "c"):
            progress.started(key)
        progress.finished("b", ok=True)
        progress.finished("a", ok=False)
        progress.finished("c", ok=True, line="PASS c #1")
    assert buffer.getvalue().splitlines() == [
        "done b (1/3 tasks, 0 failed)",
        "FAILED a (2/3 tasks, 1 failed)",
        "PASS c #1",
    ]
    assert (progress.done, progress.failed, progress.running) == (3, 1, {})


def test_on_a_terminal_the_bar_shows_done_running_failed_and_eta() -> None:
    console, buffer = _console(terminal=True)
    with ProgressDisplay(4, "trials", console) as progress:
        for key in ("t1 #1", "t2 #1", "t3 #1", "t4 #1"):
            progress.started(key)
        progress.finished("t2 #1", ok=False, line="FAIL  t2 #1")
        progress._bar.refresh()  # type: ignore[union-attr]  # draw now, not on the timer
        drawn = buffer.getvalue()
    assert "FAIL  t2 #1" in drawn
    assert "1/4" in drawn and "running 3" in drawn and "failed 1" in drawn and "ETA" in drawn
    assert "t1 #1, t3 #1, t4 #1" in drawn
    assert "done t2" not in drawn  # no plain line when the bar shows it


def test_the_live_bar_names_at_most_three_running_jobs() -> None:
    console, buffer = _console(terminal=True)
    with ProgressDisplay(5, "jobs", console) as progress:
        for n in range(5):
            progress.started(str(n))
        progress._bar.refresh()  # type: ignore[union-attr]
    assert "jobs: 0, 1, 2 +2" in buffer.getvalue()


def test_lines_go_to_out_and_a_running_job_shows_its_step() -> None:
    console, bar = _console(terminal=True)
    out, lines = _console(terminal=False)
    with ProgressDisplay(2, "trials", console, out=out) as progress:
        progress.started("t1 #1")
        progress.doing("t1 #1", "build")
        progress._bar.refresh()  # type: ignore[union-attr]
        progress.finished("t1 #1", ok=True, line="PASS  t1 #1")
    assert "trials: t1 #1 [build]" in bar.getvalue()
    assert lines.getvalue() == "PASS  t1 #1\n" and "PASS" not in bar.getvalue()
