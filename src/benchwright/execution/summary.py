"""The run summary: per tier and per class, with pass rates nobody can misread.

Rules (docs/suites.md, "The summary"): a task passes only if every iteration
passed; an errored task stays in its tier's denominator; latency tasks are in
no pass rate. Beside those strict counts, ``per_trial`` reads the same trials
one by one (pass@1, pass@k, mean score: `pass_at_k`, docs/runs.md).
`compare_summaries` refuses summaries of different schema versions, because a
version bump means the numbers mean something else.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from benchwright.checks.ace.grade import ace_summary
from benchwright.errors import SpecError
from benchwright.execution.pass_at_k import outcome_of, pooled_figures, task_figures
from benchwright.execution.records import SCHEMA_VERSION, TrialResult
from benchwright.execution.run_meta import usage_totals
from benchwright.model import TIERS, Suite


def task_verdict(tier: str, verdicts: Sequence[str], iterations: int) -> str:
    if len(verdicts) < iterations:
        return "not_attempted"
    if "errored" in verdicts:
        return "errored"
    if tier == "latency":
        return "completed"
    return "passed" if all(v == "passed" for v in verdicts) else "failed"


def percentile(samples: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile; None without samples."""
    if not samples:
        return None
    ordered = sorted(samples)
    return round(ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)], 6)


def _counts(tier: str, verdicts: Sequence[str]) -> dict[str, int]:
    attempted = sum(v != "not_attempted" for v in verdicts)
    errored = verdicts.count("errored")
    if tier == "latency":
        return {"tasks": len(verdicts), "attempted": attempted, "errored": errored,
                "completed": verdicts.count("completed")}  # fmt: skip
    return {"tasks": len(verdicts), "attempted": attempted, "errored": errored,
            "verified": attempted - errored, "passed": verdicts.count("passed")}  # fmt: skip


def _latency(samples: Sequence[float]) -> dict[str, Any]:
    top = round(max(samples), 6) if samples else None
    return {"samples": len(samples), "p50": percentile(samples, 50),
            "p95": percentile(samples, 95), "max": top}  # fmt: skip


def _rate(counts: Mapping[str, int]) -> float | None:
    return round(counts["passed"] / counts["attempted"], 6) if counts["attempted"] else None


def summarize(
    suite: Suite, task_ids: Sequence[str], results: Mapping[tuple[str, int], TrialResult],
    *, iterations: int, run_id: str, agent: str, complete: bool,
) -> dict[str, Any]:  # fmt: skip
    tasks: dict[str, Any] = {}
    for task_id in task_ids:
        tier, task_class = suite.tiers[task_id], suite.task(task_id).task_class
        done = [results[(task_id, n)] for n in range(1, iterations + 1) if (task_id, n) in results]
        verdict = task_verdict(tier, [r.verdict for r in done], iterations)
        error = next((r.error for r in done if r.error), None)
        tasks[task_id] = {"class": task_class, "tier": tier, "verdict": verdict,
                          "iterations": [r.verdict for r in done], "error": error}  # fmt: skip
        tasks[task_id]["per_trial"] = _task_per_trial(suite, task_id, done, iterations)
        if rung := suite.task(task_id).rung:
            tasks[task_id]["ace"] = [ace_summary(rung, r.checks) for r in done]
    tiers = {t: _counts(t, [v["verdict"] for v in tasks.values() if v["tier"] == t]) for t in TIERS}
    classes: dict[str, Any] = {}
    for name in dict.fromkeys(v["class"] for v in tasks.values()):
        ids = [i for i, v in tasks.items() if v["class"] == name]
        tier = tasks[ids[0]]["tier"]
        samples = [r.agent_s for (i, _), r in results.items() if i in ids and r.agent_finished]
        counts = _counts(tier, [tasks[i]["verdict"] for i in ids])
        usage = _usage(r for (i, _), r in results.items() if i in ids)
        classes[name] = {"tier": tier, **counts, "latency_s": _latency(samples), "usage": usage,
                         "per_trial": _pooled_per_trial(tasks, ids)}  # fmt: skip
    return {
        "schema_version": SCHEMA_VERSION, "run_id": run_id, "suite": suite.name,
        "agent": agent, "iterations": iterations, "complete": complete, "tiers": tiers,
        "correctness_pass_rate": _rate(tiers["correctness"]),
        "build_pass_rate": _rate(tiers["build"]),
        "per_trial": _tiers_per_trial(tasks),
        "latency_only_tasks": tiers["latency"]["tasks"],
        "classes": classes, "tasks": tasks, "isolation": _isolation(results.values()),
        "usage": _usage(results.values()),
    }  # fmt: skip


def _usage(results: Iterable[TrialResult]) -> dict[str, Any]:
    """Tokens, cost, model calls, events, wall and nodes summed over ``results``' measured
    ``run`` blocks (`run_meta.usage_totals`; docs/runs.md, "Run metadata")."""
    return usage_totals(r.run for r in results)


def _task_per_trial(
    suite: Suite, task_id: str, done: Sequence[TrialResult], iterations: int
) -> dict[str, Any] | None:
    """The task's pass@k and mean score over the trials it has; None for a latency task."""
    if suite.tiers[task_id] == "latency":
        return None
    task = suite.task(task_id)
    return task_figures([outcome_of(task, r.verdict, r.checks) for r in done], iterations)


def _pooled_per_trial(tasks: Mapping[str, Any], ids: Sequence[str]) -> dict[str, Any] | None:
    """Pooled over the attempted tasks among ``ids``, the same tasks as the pass rate's
    denominator (an incomplete run's unfinished tasks are in neither)."""
    attempted = [tasks[i]["per_trial"] for i in ids if tasks[i]["verdict"] != "not_attempted"]
    return pooled_figures([f for f in attempted if f is not None])


def _tiers_per_trial(tasks: Mapping[str, Any]) -> dict[str, Any]:
    """The correctness and build tiers' pooled figures (latency tasks have none)."""
    return {
        tier: _pooled_per_trial(tasks, [i for i, v in tasks.items() if v["tier"] == tier])
        for tier in TIERS
        if tier != "latency"
    }


def _isolation(results: Iterable[TrialResult]) -> str:
    """``none`` when any trial ran unconfined: one unsandboxed trial taints the run."""
    return "none" if any(r.isolation == "none" for r in results) else "bwrap"


def read_summary(path: Path) -> dict[str, Any]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SpecError.single(str(path), f"cannot read a summary: {exc}") from None
    return summary_doc(path, raw)


def summary_doc(path: Path, raw: Any) -> dict[str, Any]:
    """``raw`` (read from ``path``) if it is a run summary; `SpecError` otherwise."""
    if not isinstance(raw, dict) or "schema_version" not in raw:
        raise SpecError.single(str(path), "not a benchwright run summary (no schema_version)")
    return raw


def compare_summaries(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    """Pass-rate deltas of two summaries; `SpecError` when their schema versions differ."""
    if a["schema_version"] != b["schema_version"]:
        raise SpecError.single(
            "compare",
            f"schema_version {a['schema_version']} vs {b['schema_version']}: the pass rates "
            "mean different things; re-run both with the same benchwright",
        )
    out: dict[str, Any] = {}
    for key in ("correctness_pass_rate", "build_pass_rate"):
        x, y = a.get(key), b.get(key)
        out[key] = {"a": x, "b": y, "delta": None if x is None or y is None else round(y - x, 6)}
    return out
