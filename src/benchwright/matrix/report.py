"""A matrix result as terminal text, a markdown table, a JSON document and an HTML page.

The JSON (``schema: benchwright.matrix/1``) holds a ``baseline`` section with
counts, so ``matrix --json run.json`` today is ``matrix --baseline run.json``
tomorrow.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchwright.errors import SpecError
from benchwright.matrix.drift import Comparison, DriftReport, baseline_of
from benchwright.matrix.run import MatrixResult
from benchwright.matrix.stats import Rate
from benchwright.web import environment
from benchwright.web.static import STATIC

SCHEMA = "benchwright.matrix/1"
_env = environment(Path(__file__).with_name("templates"))


def _pct(value: float) -> str:
    return f"{value:.1%}"


def _ci(rate: Rate) -> str:
    low, high = rate.interval
    return f"[{_pct(low)}, {_pct(high)}]"


def _rate(rate: Rate) -> str:
    return f"{rate.passed}/{rate.total} ({_pct(rate.value)}, CI {_ci(rate)})"


def _score(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def summary(result: MatrixResult, drift: DriftReport | None) -> list[str]:
    """Lines for the terminal: every cell, the pooled rates (each with the mean score of
    its tasks), then the drift decisions."""
    level = f"{result.confidence:.0%}"
    lines = [f"Matrix: {result.name} ({level} Wilson intervals)",
             f"Overall pass rate: {_rate(result.overall)}, "
             f"mean score {_score(result.mean_score())}", "", "Cells:"]  # fmt: skip
    lines += [f"  {cell.key}: {_rate(cell.rate)}, mean score {_score(cell.mean_score)}"
              for cell in result.cells]  # fmt: skip
    for title, attribute in (("By model:", "model"), ("By prompt:", "prompt")):
        lines += ["", title] + [
            f"  {k}: {_rate(r)}, mean score {_score(result.mean_score(attribute, k))}"
            for k, r in result.by(attribute).items()
        ]
    if drift is not None:
        lines += ["", *drift_lines(drift)]
    return lines


def drift_lines(drift: DriftReport) -> list[str]:
    head = "Score drift detected" if drift.drift_detected else "No score drift detected"
    lines = [f"{head} (threshold {_pct(drift.threshold)}, and the interval must exclude 0):"]
    lines += [f"  {_comparison(c)}" for c in drift.comparisons]
    lines += [f"  {m}: in the baseline, not in this matrix" for m in drift.missing]
    return lines


def _comparison(c: Comparison) -> str:
    low, high = c.interval
    return (
        f"{c.scope} {c.key}: {_pct(c.stated)} -> {_pct(c.current.value)} "
        f"(delta {c.delta:+.1%}, CI of delta [{low:+.1%}, {high:+.1%}]): {c.verdict}"
    )


def markdown(result: MatrixResult, drift: DriftReport | None) -> str:
    level = f"{result.confidence:.0%}"
    lines = [f"## Matrix: {result.name}", "",
             f"| Model | Prompt | Passed | Pass rate | {level} CI | Mean score |",
             "| --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for cell in result.cells:
        r = cell.rate
        lines.append(f"| {cell.model} | {cell.prompt} | {r.passed}/{r.total} | "
                     f"{_pct(r.value)} | {_ci(r)} | {_score(cell.mean_score)} |")  # fmt: skip
    lines.append(f"| **all** | **all** | {result.overall.passed}/{result.overall.total} | "
                 f"{_pct(result.overall.value)} | {_ci(result.overall)} | "
                 f"{_score(result.mean_score())} |")  # fmt: skip
    if drift is not None and drift.comparisons:
        lines += ["", "| Scope | Key | Baseline | Current | Delta | CI of delta | Verdict |",
                  "| --- | --- | --- | --- | --- | --- | --- |"]  # fmt: skip
        for c in drift.comparisons:
            low, high = c.interval
            lines.append(f"| {c.scope} | {c.key} | {_pct(c.stated)} | {_pct(c.current.value)} | "
                         f"{c.delta:+.1%} | [{low:+.1%}, {high:+.1%}] | {c.verdict} |")  # fmt: skip
    return "\n".join(lines) + "\n"


def html(result: MatrixResult, drift: DriftReport | None) -> str:
    """One self-contained page (stylesheet inlined, no script): the pass rate of every
    cell, model and prompt as bars with their Wilson intervals, the cells' table and the
    drift decisions, for a reader who would rather look than read the terminal lines."""
    cells = [(cell.key, cell.rate) for cell in result.cells]
    table = [
        {"model": c.model, "prompt": c.prompt, "passed": f"{c.rate.passed}/{c.rate.total}",
         "rate": _pct(c.rate.value), "ci": _ci(c.rate), "mean_score": _score(c.mean_score)}
        for c in result.cells
    ]  # fmt: skip
    return _env.get_template("matrix.html").render(
        inline_css=(STATIC / "web.css").read_text(encoding="utf-8"),
        name=result.name,
        level=f"{result.confidence * 100:g} %",
        overall=_rate(result.overall),
        mean_score=_score(result.mean_score()),
        cells=cells,
        table=table,
        by_model=list(result.by("model").items()),
        by_prompt=list(result.by("prompt").items()),
        drift=drift_lines(drift) if drift is not None else [],
    )


def document(result: MatrixResult, drift: DriftReport | None) -> dict[str, Any]:
    def rate(r: Rate) -> dict[str, Any]:
        low, high = r.interval
        return {"passed": r.passed, "total": r.total, "pass_rate": r.value, "ci": [low, high]}

    def pooled(attribute: str) -> dict[str, Any]:
        return {k: rate(r) | {"mean_score": result.mean_score(attribute, k)}
                for k, r in result.by(attribute).items()}  # fmt: skip

    return {
        "schema": SCHEMA,
        "name": result.name,
        "confidence": result.confidence,
        "overall": rate(result.overall) | {"mean_score": result.mean_score()},
        "by_model": pooled("model"),
        "by_prompt": pooled("prompt"),
        "cells": [
            {
                "model": c.model,
                "prompt": c.prompt,
                "trajectory": c.trajectory,
                **rate(c.rate),
                "per_trial": c.per_trial,
                "tasks": c.tasks,
            }
            for c in result.cells
        ],
        "baseline": baseline_of(result),
        "drift": None if drift is None else _drift_document(drift),
    }


def _drift_document(drift: DriftReport) -> dict[str, Any]:
    return {
        "threshold": drift.threshold,
        "drift_detected": drift.drift_detected,
        "missing": drift.missing,
        "comparisons": [
            {
                "scope": c.scope,
                "key": c.key,
                "baseline": c.stated,
                "current": c.current.value,
                "delta": c.delta,
                "ci_delta": list(c.interval),
                "past_threshold": c.past_threshold,
                "significant": c.significant,
                "drift": c.drift,
            }
            for c in drift.comparisons
        ],
    }


def write_text(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise SpecError.single(str(path), f"cannot write: {exc}") from None


def write_json(path: Path, doc: dict[str, Any]) -> None:
    write_text(path, json.dumps(doc, indent=2) + "\n")
