"""The ACE report on a terminal: one row per wanted check, then the fixed-denominator figures.

``weighted_score_pct`` prints ``null`` whenever a row could not be scored (SKIPPED,
INFRA): a machine without Docker never shows a clean percentage, only the partial one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table

from benchwright.checks.ace.grade import AceGrade


def print_grade(grade: AceGrade, console: Console) -> None:
    """The per-check table, points over the denominators, and both percentages."""
    table = Table(title=f"ACE {grade.rung}")
    for column in ("id", "status", "weight", "detail"):
        table.add_column(column, overflow="fold")
    weights = {r.check_id: r.weight for r in grade.card.rows}
    for row in grade.rows:
        table.add_row(row.check_id, row.status.value, f"{weights[row.check_id]:g}", row.detail)
    console.print(table)
    for line in summary_lines(grade.fields):
        console.print(line, highlight=False, markup=False)


def summary_lines(fields: Mapping[str, Any]) -> list[str]:
    """The figures under the table (also what ``benchwright run`` prints for a rung task)."""
    f = fields
    weighted = "null" if f["weighted_score_pct"] is None else f["weighted_score_pct"]
    return [
        f"ACE {f['rung']}: points {f['points']} / scorable {f['denominator']} "
        f"(fixed denominator {f['full_denominator']})",
        f"weighted_score_pct: {weighted}",
        f"partial_score_pct: {f['partial_score_pct']}",
    ]
