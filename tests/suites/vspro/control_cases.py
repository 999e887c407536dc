"""What every vspro control test shares: where the suite is, and the auditor that judges
controls against the session's full grading of the golden (``tests/control_audit.py``
holds the judging, shared with the vendorsync control tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import control_audit
import pytest
from control_audit import assert_control_costs

from benchwright.model import CheckResult

REPO = Path(__file__).parents[3]
SUITE = REPO / "suites" / "vspro"
GOLDEN = SUITE / "reference"
needs_golden = pytest.mark.skipif(
    not (GOLDEN / "vspro" / "__main__.py").is_file(), reason="golden reference not present"
)


class SessionGoldenAuditor(control_audit.SessionGoldenAuditor):
    """vspro's controls judged against the first grading of ``golden_twice`` (its JSON)."""

    def __init__(self, golden_doc: dict[str, Any]) -> None:
        rows = [CheckResult.from_dict(r) for r in golden_doc["grading"]["results"]]
        super().__init__(SUITE, rows)


__all__ = ["GOLDEN", "REPO", "SUITE", "SessionGoldenAuditor", "assert_control_costs",
           "needs_golden"]  # fmt: skip
