"""The audit as a table for people and as JSON for machines, closed by the one line that
states the verdict and decides the exit code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchwright.errors import EXIT_FAILED, EXIT_PASSED
from benchwright.suites.audit.run import AuditResult

PAD = " " * 61
"""Indent of the continuation lines, under the first target figure."""


def audit_lines(result: AuditResult) -> list[str]:
    """The audit table, gravest severity first: control, severity, isolated score (what
    the severity order judges), full score, golden score, expectations met, then one line
    per target check (control / golden), the critical factors it triggered, a re-grade
    and each failure; then the severity-order detail; last, `verdict_line`."""
    mode = (
        "quick: each control and the golden through the control's phases"
        if result.quick
        else f"golden {result.golden_score:.4f}, graded in {result.golden_seconds:.0f} s"
    )
    lines = [f"audit {result.suite} ({mode})"]
    lines.append(f"{'control':<21} {'severity':<10} {'isolated':>8} {'score':>7} {'golden':>7}"
                 f"  {'ok':<4}  target checks (control / golden)")  # fmt: skip
    for v in sorted(result.verdicts, key=lambda v: (v.control.rank, v.isolated)):
        head = f"{v.control.name:<21} {v.control.severity:<10} {v.isolated:8.4f} "
        head += f"{v.score:7.4f} {v.golden_score:7.4f}  {'PASS' if v.passed else 'FAIL':<4}  "
        figures = [f"{t.check_id} {t.control:.4f} / {t.golden:.4f}" for t in v.targets]
        lines += [(head if n == 0 else PAD) + f for n, f in enumerate(figures or ["-"])]
        if v.factors:
            lines.append(f"{PAD}critical: {', '.join(v.factors)}")
        if v.regraded:
            lines.append(f"{PAD}re-graded once: {', '.join(v.regraded)} UNAVAILABLE (host "
                         "contended) in the first grading")  # fmt: skip
        lines += [f"{PAD}FAILED: {p}" for p in v.problems]
    if result.order:
        lines += ["severity order inversions (isolated scores):"]
        lines += [f"  {problem}" for problem in result.order]
    lines.append(verdict_line(result))
    return lines


def verdict_line(result: AuditResult) -> str:
    """The audit's last line: ``audit PASSED`` or ``audit FAILED``, then the controls that
    met their expectations and the severity order. `exit_code` agrees with it."""
    failed = [v.control.name for v in result.verdicts if not v.passed]
    met = f"{len(result.verdicts) - len(failed)}/{len(result.verdicts)} controls met their "
    met += "expectations" + (f" (failed: {', '.join(failed)})" if failed else "")
    if result.quick:
        order = "severity order not judged (a quick audit's phase sets are not comparable)"
    elif result.order:
        order = f"severity order FAILED ({len(result.order)} inversion(s) above)"
    else:
        order = f"severity order held ({len(result.verdicts)} controls, gravest lowest)"
    return f"audit {'PASSED' if result.passed else 'FAILED'}: {met}; {order}"


def exit_code(result: AuditResult) -> int:
    """0 when every control met its expectations and the order held, else 1 (a failed
    expectation, as a failed check is for ``grade``); the verdict line says which."""
    return EXIT_PASSED if result.passed else EXIT_FAILED


def audit_dict(result: AuditResult) -> dict[str, Any]:
    return {
        "suite": result.suite,
        "quick": result.quick,
        "golden_score": None if result.quick else result.golden_score,
        "passed": result.passed,
        "verdict": verdict_line(result),
        "severity_order": None
        if result.quick
        else {"judged_on": "isolated", "held": not result.order, "inversions": list(result.order)},
        "controls": [
            {
                "name": v.control.name,
                "description": v.control.description,
                "severity": v.control.severity,
                "score": v.score,
                "isolated_score": v.isolated,
                "golden_score": v.golden_score,
                "critical": v.control.critical,
                "targets": [t.__dict__ for t in v.targets],
                "factors": list(v.factors),
                "problems": list(v.problems),
                "regraded": list(v.regraded),
                "passed": v.passed,
                "seconds": round(v.seconds, 2),
            }
            for v in result.verdicts
        ],
    }


def write_audit(result: AuditResult, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(audit_dict(result), indent=2) + "\n", encoding="utf-8")
