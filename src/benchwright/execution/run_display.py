"""What a suite run shows on a terminal: one line per trial, a live bar, the tier summary.

The summary leads with the correctness tier and names the latency-only tasks as
outside every pass rate, so the headline number cannot be misread; with several
iterations it says that a task passes only if all did, and adds the per-trial
figures (pass@1, pass@K, mean score) beside it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table

from benchwright.execution.pass_at_k import figures_text, shown_ks
from benchwright.execution.progress import ProgressDisplay
from benchwright.execution.records import TrialResult
from benchwright.execution.run_meta import usage_line
from benchwright.reports.ace import summary_lines

MARKS = {"passed": "PASS", "failed": "FAIL", "errored": "ERROR", "completed": "RAN"}


class TrialProgress:
    """A run's events on the shared display: a line per verdict on ``out``, the live
    counts (and, with one worker, each trial's phase) on ``err``."""

    def __init__(self, total: int, out: Console, err: Console) -> None:
        self.display = ProgressDisplay(total, "trials", err, out=out)
        self.label = ""

    def __enter__(self) -> TrialProgress:
        self.display.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.display.__exit__(*exc)

    def __call__(self, event: str, payload: Any) -> None:
        if event == "start":
            task_id, iteration = payload
            self.label = trial_label(task_id, iteration)
            self.display.started(self.label)
        elif event == "phase":  # only from a trial running in this process: the latest one
            self.display.doing(self.label, payload)
        elif event == "result":
            label = trial_label(payload.task_id, payload.iteration)
            self.display.finished(label, payload.verdict in OK_VERDICTS, _line(payload))
        elif event == "note":
            self.display.note(payload)


OK_VERDICTS = ("passed", "completed")


def trial_label(task_id: str, iteration: int) -> str:
    return f"{task_id} #{iteration}"


def _line(result: TrialResult) -> str:
    mark = MARKS.get(result.verdict, result.verdict)
    reason = failure_reason(result)
    why = f": {reason}" if reason else ""
    return (
        f"{mark:5} {result.task_id} #{result.iteration} ({result.tier}, {result.agent_s:.2f}s){why}"
    )


def failure_reason(result: TrialResult) -> str:
    """Why a trial did not pass, in one line: its error, else (when it failed) its first
    failing check and that check's detail (``failing-test-passes: exit 1: 1 failed``);
    ``""`` for a trial that passed. The terminal, ``runs show`` and the viewer all say it
    this way, so a reader meets one wording wherever they look."""
    if result.error:
        return result.error
    failed = next((c for c in result.checks if not c.passed), None)
    return f"{failed.check_id}: {failed.detail}" if failed and result.verdict == "failed" else ""


UNCONFINED_WARNING = (
    "WARNING: isolation: none — agents and check commands ran unsandboxed (--no-sandbox); "
    "an agent could have reached the harness, other trials and these results"
)


def print_summary(summary: dict[str, Any], run_dir: str, console: Console) -> None:
    iterations = summary["iterations"]
    table = Table(title=f"{summary['suite']} / {summary['agent']} ({iterations} iteration(s))")
    header, rows = class_rows(summary)
    for n, column in enumerate(header):
        # the names on the left unbroken, the counts and times right-aligned
        table.add_column(column, no_wrap=True, justify="left" if n < 2 else "right")
    for row in rows:
        table.add_row(*row)
    console.print(table)
    if any(row.get("per_trial") for row in summary["classes"].values()):
        console.print(per_trial_table(summary))
    for task_id, task in summary["tasks"].items():
        for n, fields in enumerate(task.get("ace", ()), start=1):
            for line in summary_lines(fields):
                console.print(
                    f"{task_id} #{n}: {line}", highlight=False, markup=False, soft_wrap=True
                )
    if summary.get("isolation") == "none":
        console.print(UNCONFINED_WARNING, style="bold red")
    for tier in ("correctness", "build"):
        console.print(tier_line(summary, tier), soft_wrap=True)
        for line in per_trial_lines(summary, (tier,)):
            console.print(line, highlight=False, soft_wrap=True)
    console.print(latency_line(summary))
    if summary.get("usage", {}).get("trials"):
        console.print(f"run: {usage_line(summary['usage'])}", highlight=False, markup=False)
    if not summary["complete"]:
        console.print("incomplete run: some trials have no result")
    console.print(f"results: {run_dir}")


def class_rows(summary: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The per-class table (header, rows): tasks, tried, errored, passed (``pass all`` with
    several iterations: a task passes only if every iteration did) and latency."""
    strict = "pass all" if summary["iterations"] > 1 else "pass"
    header = ["class", "tier", "tasks", "tried", "err", strict, "p50 s", "p95 s", "max s"]
    rows = []
    for name, row in summary["classes"].items():
        lat = row["latency_s"]
        passed = str(row.get("passed", "-")) if row["tier"] != "latency" else "-"
        counts = [str(row[k]) for k in ("tasks", "attempted", "errored")]
        times = [_s(lat[k]) for k in ("p50", "p95", "max")]
        rows.append([str(name), row["tier"], *counts, passed, *times])
    return header, rows


def tier_line(summary: Mapping[str, Any], tier: str) -> str:
    """``correctness: 4/6 passed (66.7%), 0 errored, 6 task(s)`` (``build`` alike)."""
    iterations = summary["iterations"]
    every = f"; a task passes only if all {iterations} iterations passed" if iterations > 1 else ""
    t = summary["tiers"][tier]
    rate = summary[f"{tier}_pass_rate"]
    shown = "n/a" if rate is None else f"{rate:.1%}"
    return (f"{tier}: {t['passed']}/{t['attempted']} passed ({shown}), "
            f"{t['errored']} errored, {t['tasks']} task(s){every if t['tasks'] else ''}"
            )  # fmt: skip


def latency_line(summary: Mapping[str, Any]) -> str:
    lat = summary["tiers"]["latency"]
    return (f"latency-only: {lat['tasks']} task(s), {lat['completed']} completed, "
            f"{lat['errored']} errored (not in any pass rate)")  # fmt: skip


def per_trial_table(summary: dict[str, Any]) -> Table:
    """Per class with figures: its trials, how many passed and errored, pass@1, pass@K and
    the mean score (a table of its own: beside the counts it would not fit 80 columns)."""
    ks = shown_ks(summary["iterations"])
    table = Table(title="per trial (pass@k: unbiased estimate; score: mean over trials)")
    table.add_column("class", no_wrap=True)
    for column in ("trials", "passed", "err", *(f"pass@{k}" for k in ks), "score"):
        table.add_column(column, justify="right")
    for name, row in summary["classes"].items():
        if figures := row.get("per_trial"):
            rates = figures["pass_at_k"]
            table.add_row(str(name), str(figures["trials"]), str(figures["passed"]),
                          str(figures["errored"]), *(_s(rates.get(k)) for k in ks),
                          _s(figures["mean_score"]))  # fmt: skip
    return table


def per_trial_lines(
    summary: dict[str, Any], tiers: tuple[str, ...] = ("correctness", "build")
) -> list[str]:
    """``correctness per trial: pass@1 …`` for each tier with figures (none in a summary
    written before they existed)."""
    ks = shown_ks(summary.get("iterations"))
    per_tier = summary.get("per_trial")
    per_tier = per_tier if isinstance(per_tier, Mapping) else {}
    return [f"{t} per trial: {figures_text(per_tier[t], ks)}" for t in tiers
            if isinstance(per_tier.get(t), Mapping)]  # fmt: skip


def task_line(summary: dict[str, Any], task: dict[str, Any]) -> str:
    """``correctness; failed, passed, failed; pass@1 0.33, pass@3 1.00, mean score 0.50``."""
    its = ", ".join(task.get("iterations") or []) or "-"
    figures = task.get("per_trial")
    ks = shown_ks(summary.get("iterations"))
    more = f"; {figures_text(figures, ks, counts=False)}" if isinstance(figures, Mapping) else ""
    return f"{task.get('tier')}; {its}{more}"


def _s(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"
