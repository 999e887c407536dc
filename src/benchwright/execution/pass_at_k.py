"""Per-trial figures of a task run K times: pass@1, unbiased pass@k and the mean score.

"The task passed every one of its K trials" (the summary's ``passed``) is one reading
of K trials, and a harsh one: an agent that solves a task one time in three looks the
same as one that never does. These figures read the same trials per trial instead
(docs/runs.md, "pass@k"), and this module is the only place they are computed: the run
summary, ``matrix`` and, through ``summary.json``, the terminal, ``runs show`` and the
viewer all show what it returns.

* **pass@k** is the unbiased estimator of Chen et al. (2021): with n trials of which c
  passed, ``1 - C(n-c, k) / C(n, k)``, the chance that k trials drawn without
  replacement hold at least one pass. pass@1 is c/n, the mean over trials.
* **A trial's score** is the score of its ``executed_app`` check when the task has one
  (that check is the whole grade of a built app), else the mean of its check scores.
* **An errored trial** (no verdict: the agent could not run, a check was INFRA) counts
  as a trial that did not pass and scored 0. It stays in n, as an errored task stays
  in its tier's denominator: an agent cannot raise its figures by crashing, and the
  ``errored`` count beside the figures says how many there were.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

from benchwright.model import CheckResult, Task

SCORE_CHECK_TYPE = "executed_app"
"""The check type whose score is a trial's score when the task has one."""
DIGITS = 6
"""Figures are rounded like the summary's pass rates."""


@dataclass(frozen=True, slots=True)
class TrialOutcome:
    """What the figures need of one trial."""

    passed: bool
    errored: bool
    score: float


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k estimate from ``c`` passes in ``n`` trials, ``1 <= k <= n``.

    Computed exactly (as a fraction) before the one rounding to float, so it is monotone
    in k and exactly c/n at k=1 and 1.0 when fewer than k trials failed.
    """
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"pass@k needs 0 <= c <= n and 1 <= k <= n; got n={n}, c={c}, k={k}")
    return float(1 - Fraction(comb(n - c, k), comb(n, k)))


def trial_score(task: Task, checks: Sequence[CheckResult], *, errored: bool) -> float:
    """The trial's score in [0, 1]: its ``executed_app`` check's score when the task has
    one, else the mean of its check scores; 0 for an errored trial or one without checks."""
    if errored or not checks:
        return 0.0
    scores = {check.check_id: check.score for check in checks}
    graded_by = next((s.id for s in task.checks if s.type == SCORE_CHECK_TYPE), None)
    if graded_by is not None and graded_by in scores:
        return scores[graded_by]
    return sum(scores.values()) / len(scores)


def outcome_of(task: Task, verdict: str, checks: Sequence[CheckResult]) -> TrialOutcome:
    """A trial's outcome from its verdict (``passed``/``failed``/``errored``) and checks."""
    errored = verdict == "errored"
    return TrialOutcome(verdict == "passed", errored, trial_score(task, checks, errored=errored))


def task_figures(outcomes: Sequence[TrialOutcome], iterations: int) -> dict[str, Any]:
    """One task's figures over its trials: counts, pass@k for every k up to
    ``min(iterations, trials)`` (keyed ``"1"``, ``"2"``, …) and the mean score."""
    n, c = len(outcomes), sum(o.passed for o in outcomes)
    ks = range(1, min(iterations, n) + 1)
    return {
        "trials": n,
        "passed": c,
        "errored": sum(o.errored for o in outcomes),
        "pass_at_k": {str(k): round(pass_at_k(n, c, k), DIGITS) for k in ks},
        "mean_score": round(sum(o.score for o in outcomes) / n, DIGITS) if n else None,
    }


def pooled_figures(tasks: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The figures of a class or tier: each the mean over its tasks' `task_figures` (every
    task weighs the same, as in the per-problem mean of Chen et al.), counts summed;
    None without a task. A k enters only when every task has it."""
    if not tasks:
        return None
    ks = set.intersection(*(set(t["pass_at_k"]) for t in tasks))
    scores = [t["mean_score"] for t in tasks if t["mean_score"] is not None]
    return {
        "tasks": len(tasks),
        "trials": sum(t["trials"] for t in tasks),
        "passed": sum(t["passed"] for t in tasks),
        "errored": sum(t["errored"] for t in tasks),
        "pass_at_k": {k: _mean([t["pass_at_k"][k] for t in tasks]) for k in sorted(ks, key=int)},
        "mean_score": _mean(scores) if len(scores) == len(tasks) else None,
    }


def _mean(values: Sequence[float]) -> float:
    return round(sum(values) / len(values), DIGITS)


def shown_ks(iterations: object) -> tuple[str, ...]:
    """The k shown where space is short: 1 and K (every k is in ``summary.json``)."""
    many = isinstance(iterations, int) and not isinstance(iterations, bool) and iterations > 1
    return ("1", str(iterations)) if many else ("1",)


def figures_text(figures: Mapping[str, Any], ks: Sequence[str], *, counts: bool = True) -> str:
    """``pass@1 0.33, pass@3 1.00, mean score 0.50`` and, with ``counts``, `` (3 trial(s),
    0 errored)``: errored trials are inside the figures, so the line says how many. The
    terminal, ``runs show`` and the viewer all print the figures with this. A summary
    that is not verified may hold anything: what is not a number shows as ``?``."""
    rates = figures.get("pass_at_k")
    rates = rates if isinstance(rates, Mapping) else {}
    text = ", ".join(f"pass@{k} {_two(rates.get(k))}" for k in ks)
    text += f", mean score {_two(figures.get('mean_score'))}"
    if not counts:
        return text
    trials, errored = _count(figures.get("trials")), _count(figures.get("errored"))
    return f"{text} ({trials} trial(s), {errored} errored)"


def _two(value: object) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if _number(value) else "?"


def _count(value: object) -> str:
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else "?"


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
