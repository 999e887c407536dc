"""Compare two runs task by task: which tasks changed verdict, and which check rows moved.

The pass-rate line (`compare_summaries`) says *that* a run got worse; this says *where*.
Verdicts come from each ``summary.json``; scores from the trials' ``result.json`` files
beside it (a task's score is the mean of its check rows' scores over its iterations, a
row's score the mean over iterations). Given a bare summary file with no trials beside
it, verdicts still compare and scores are None.

Both runs go through `verify_run` first: a tampered file in either refuses the whole
comparison (`SpecError`, exit 2), because a comparison that quietly dropped it would
still print a verdict someone forged the inputs of. So does a run that cannot be
verified here (never sealed on this machine, or a summary from before summaries were
sealed), unless the caller allows it: a copy given a new run id with its MACs stripped
is exactly such a run, and its verdicts are whatever its files say. Allowed, the
comparison carries one ``UNVERIFIED: …`` line per such run, which comes first.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from statistics import fmean
from typing import Any

from benchwright.errors import SpecError
from benchwright.execution.run_meta import usage_deltas
from benchwright.execution.summary import compare_summaries, read_summary, summary_doc
from benchwright.execution.verification import RunSeals, verify_run

CHANGES = ("newly_failing", "newly_passing", "score_changed", "unchanged", "only_a", "only_b")
"""Every task lands in exactly one: a verdict change first, then a score change."""
_PASSING = ("passed", "completed")


def compare_runs(a: Path, b: Path, allow_unverified: bool = False) -> dict[str, Any]:
    """The pass-rate deltas and the per-task changes of runs ``a`` and ``b`` (run
    directories or ``summary.json`` files), with an ``UNVERIFIED`` line per run that cannot
    be verified here; `SpecError` when the schemas differ, a file fails verification, or
    a run cannot be verified and ``allow_unverified`` is False."""
    seals_a, seals_b = (
        verify_run(_run_dir(a), _summary_file(a)),
        verify_run(_run_dir(b), _summary_file(b)),
    )
    refusals = [f"{seal.sentence}: refused" for s in (seals_a, seals_b) for seal in s.tampered()]
    if refusals:
        raise SpecError("compare", [("", line) for line in refusals])
    sa, sb = _summary(a, seals_a), _summary(b, seals_b)
    rates = compare_summaries(sa, sb)  # refuses different schemas first
    unverified = [line for s in (seals_a, seals_b) if (line := s.headline(verdicts=True))]
    if unverified and not allow_unverified:
        raise SpecError("compare", [("", f"{line}: refused (--allow-unverified compares it)")
                                    for line in unverified])  # fmt: skip
    scores_a, scores_b = _row_scores(seals_a), _row_scores(seals_b)
    tasks: dict[str, Any] = {}
    ta, tb = sa.get("tasks") or {}, sb.get("tasks") or {}
    for task_id in [*ta, *(t for t in tb if t not in ta)]:
        va, vb = _verdict(ta.get(task_id)), _verdict(tb.get(task_id))
        rows = _row_deltas(scores_a.get(task_id, {}), scores_b.get(task_id, {}))
        score = _delta(_mean(scores_a.get(task_id)), _mean(scores_b.get(task_id)))
        change = _change(va, vb, score["delta"])
        tasks[task_id] = {"change": change, "a": va, "b": vb, "score": score, "rows": rows}
    counts = {c: sum(t["change"] == c for t in tasks.values()) for c in CHANGES}
    verification = {"a": seals_a.counts(), "b": seals_b.counts()}
    usage = usage_deltas(sa.get("usage"), sb.get("usage"))
    return {"verified": not unverified, "unverified": unverified, "pass_rates": rates,
            "usage": usage, "counts": counts, "tasks": tasks,
            "verification": verification}  # fmt: skip


def comparison_lines(result: Mapping[str, Any]) -> list[str]:
    """The comparison as text: the ``UNVERIFIED`` lines, pass rates, counts, then each
    changed task and its rows."""
    lines = list(result["unverified"])
    lines += [f"{k}: {r['a']} -> {r['b']} (delta {r['delta']})"
              for k, r in result["pass_rates"].items()]  # fmt: skip
    lines += [f"{k}: {r['a']} -> {r['b']} (delta {r['delta']:+g})"
              for k, r in result.get("usage", {}).items() if r["delta"] is not None]  # fmt: skip
    counts = result["counts"]
    lines.append("tasks: " + ", ".join(f"{n} {c.replace('_', ' ')}" for c, n in counts.items()))
    for change in CHANGES:
        if change == "unchanged" or not counts[change]:
            continue
        lines.append(f"{change.replace('_', ' ')}:")
        for task_id, t in result["tasks"].items():
            if t["change"] != change:
                continue
            s = t["score"]
            score = "" if s["delta"] is None else f", score {s['a']} -> {s['b']} ({s['delta']:+g})"
            lines.append(f"  {task_id}: {t['a'] or '-'} -> {t['b'] or '-'}{score}")
            lines += [f"    {row}: {d['a']} -> {d['b']} ({d['delta']:+g})"
                      for row, d in t["rows"].items() if d["delta"]]  # fmt: skip
    return lines


def _summary_file(path: Path) -> Path:
    return path / "summary.json" if path.is_dir() else path


def _run_dir(path: Path) -> Path:
    return path if path.is_dir() else path.parent


def _summary(given: Path, seals: RunSeals) -> dict[str, Any]:
    """The summary that was verified (never a second read of the file)."""
    path = _summary_file(given)
    return read_summary(path) if seals.summary is None else summary_doc(path, seals.summary_doc)


def _row_scores(seals: RunSeals) -> dict[str, dict[str, list[float]]]:
    """task -> check row -> its scores over the trials' results that may be counted."""
    found: dict[str, dict[str, list[float]]] = {}
    for trial in seals.trials:
        if not trial.counted or trial.result is None:
            continue
        task = found.setdefault(trial.task_id, {})
        for check in trial.result.checks:
            task.setdefault(check.check_id, []).append(float(check.score))
    return found


def _mean(rows: Mapping[str, list[float]] | None) -> float | None:
    if not rows:
        return None
    return round(fmean(fmean(scores) for scores in rows.values()), 6)


def _row_deltas(a: Mapping[str, list[float]], b: Mapping[str, list[float]]) -> dict[str, Any]:
    rows = [*a, *(r for r in b if r not in a)]
    return {r: _delta(_rounded(a.get(r)), _rounded(b.get(r))) for r in rows}


def _rounded(scores: list[float] | None) -> float | None:
    return None if not scores else round(fmean(scores), 6)


def _delta(a: float | None, b: float | None) -> dict[str, Any]:
    return {"a": a, "b": b, "delta": None if a is None or b is None else round(b - a, 6)}


def _verdict(task: Mapping[str, Any] | None) -> str | None:
    return None if task is None else str(task.get("verdict"))


def _change(a: str | None, b: str | None, delta: float | None) -> str:
    if a is None or b is None:
        return "only_b" if a is None else "only_a"
    if (a in _PASSING) != (b in _PASSING):
        return "newly_passing" if b in _PASSING else "newly_failing"
    return "score_changed" if delta else "unchanged"
