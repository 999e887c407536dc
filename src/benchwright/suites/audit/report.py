"""The audit as a table for people and as JSON for machines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchwright.suites.audit.run import AuditResult

PAD = " " * 53
"""Indent of the continuation lines, under the first target figure."""


def audit_lines(result: AuditResult) -> list[str]:
    """The audit table, gravest severity first: control, severity, score, golden score,
    expectation met, then one line per target check (control / golden), the critical
    factors it triggered and each failure; then the severity-order verdict."""
    mode = (
        "quick: each control and the golden through the control's phases"
        if result.quick
        else f"golden {result.golden_score:.4f}, graded in {result.golden_seconds:.0f} s"
    )
    lines = [f"audit {result.suite} ({mode})"]
    lines.append(f"{'control':<21} {'severity':<10} {'score':>7} {'golden':>7}  {'ok':<4}  "
                 "target checks (control / golden)")  # fmt: skip
    for v in sorted(result.verdicts, key=lambda v: (v.control.rank, v.score)):
        head = f"{v.control.name:<21} {v.control.severity:<10} {v.score:7.4f} "
        head += f"{v.golden_score:7.4f}  {'PASS' if v.passed else 'FAIL':<4}  "
        figures = [f"{t.check_id} {t.control:.4f} / {t.golden:.4f}" for t in v.targets]
        lines += [(head if n == 0 else PAD) + f for n, f in enumerate(figures or ["-"])]
        if v.factors:
            lines.append(f"{PAD}critical: {', '.join(v.factors)}")
        lines += [f"{PAD}FAILED: {p}" for p in v.problems]
    lines += _order_lines(result)
    failed = [v.control.name for v in result.verdicts if not v.passed]
    lines.append(
        f"{len(result.verdicts) - len(failed)}/{len(result.verdicts)} controls met their "
        "expectations" + (f"; failed: {', '.join(failed)}" if failed else "")
    )
    return lines


def _order_lines(result: AuditResult) -> list[str]:
    if result.quick:
        return ["severity order: not judged (a quick audit's phase sets are not comparable)"]
    if not result.order:
        return [f"severity order: held ({len(result.verdicts)} controls, gravest lowest)"]
    return [f"severity order: FAILED, {len(result.order)} inversion(s)"] + [
        f"  {problem}" for problem in result.order
    ]


def audit_dict(result: AuditResult) -> dict[str, Any]:
    return {
        "suite": result.suite,
        "quick": result.quick,
        "golden_score": None if result.quick else result.golden_score,
        "passed": result.passed,
        "severity_order": None
        if result.quick
        else {"held": not result.order, "inversions": list(result.order)},
        "controls": [
            {
                "name": v.control.name,
                "description": v.control.description,
                "severity": v.control.severity,
                "score": v.score,
                "golden_score": v.golden_score,
                "critical": v.control.critical,
                "targets": [t.__dict__ for t in v.targets],
                "factors": list(v.factors),
                "problems": list(v.problems),
                "passed": v.passed,
                "seconds": round(v.seconds, 2),
            }
            for v in result.verdicts
        ],
    }


def write_audit(result: AuditResult, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(audit_dict(result), indent=2) + "\n", encoding="utf-8")
