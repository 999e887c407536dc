"""The one line a suite run's ending is printed with (issue #26), without running trials."""

from __future__ import annotations

import re
from pathlib import Path

from benchwright.execution.records import PhaseRecord, TrialResult
from benchwright.execution.run_exit import (
    RunningTrials,
    Stopped,
    budget_message,
    interrupt_message,
)


def _result(task: str, timed_out: bool, error: str = "agent: cannot start") -> TrialResult:
    phases = (PhaseRecord("main", None, 2.0, 2.0, timed_out, None),)
    why = "budget: phase main exceeded its 2s budget (process group killed)" if timed_out else error
    return TrialResult(task, None, "correctness", 1, "command:x", "errored", why, phases)


def test_the_listener_remembers_what_runs_its_phase_and_forgets_what_finished():
    heard: list[str] = []
    running = RunningTrials(lambda event, payload: heard.append(event))
    running("start", ("fix-01", 1))
    running("phase", "plan")
    running("start", ("nav-02", 1))
    running("phase", "main")  # phases are the latest trial's: trials here run one at a time
    running("result", _result("fix-01", False))
    [stopped] = running.stopped()
    assert (stopped.task_id, stopped.iteration, stopped.phase) == ("nav-02", 1, "main")
    assert re.fullmatch(r"nav-02 #1 \(\d+\.\ds, phase main\)", stopped.text())
    assert heard == ["start", "phase", "start", "phase", "result"]  # every event forwarded


def test_the_interrupt_line_counts_names_at_most_four_and_quotes_the_run_dir():
    stopped = [Stopped(f"t{n}", 1, 9.04) for n in range(6)]
    line = interrupt_message(Path("runs/my run"), 0, 34, stopped, 9.3)
    assert line == (
        "interrupted after 9.3s: 0 of 34 trials finished (kept on disk); stopped while running "
        "(they run again on resume): t0 #1 (9.0s), t1 #1 (9.0s), t2 #1 (9.0s), t3 #1 (9.0s) "
        "and 2 more; continue with: benchwright run --resume 'runs/my run'"
    )
    assert interrupt_message(Path("runs/x"), 3, 3, [], 1.0) == (
        "interrupted after 1.0s: 3 of 3 trials finished (kept on disk); continue with: "
        "benchwright run --resume runs/x"
    )


def test_budget_is_named_for_every_or_some_errored_trials_and_absent_otherwise():
    assert budget_message([_result("a", True), _result("b", True)]) == (
        "every trial ran out of its budget, the agent's failure (budget: phase main exceeded "
        "its 2s budget (process group killed)); give it more with --budget SECONDS"
    )
    assert budget_message([_result("a", False), _result("b", True)]).startswith(
        "1 of 2 trials ran out of their budget, the agent's failure (budget: phase main"
    )
    assert budget_message([_result("a", False)]) is None  # the harness's: exit 3 stays
