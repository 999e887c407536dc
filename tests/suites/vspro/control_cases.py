"""What every control test shares: where the suite is, and the one assertion that a
control costs what its expectation table says, measured against the golden graded
through the same phases."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchwright.suites.audit import Auditor, load_controls
from benchwright.suites.audit.controls import REPORT_ONLY

REPO = Path(__file__).parents[3]
SUITE = REPO / "suites" / "vspro"
GOLDEN = SUITE / "reference"
needs_golden = pytest.mark.skipif(
    not (GOLDEN / "vspro" / "__main__.py").is_file(), reason="golden reference not present"
)

Expected = list[tuple[str, float, str]]
"""(check, the control's score, a phrase of its detail naming the evidence)."""


def assert_control_costs(auditor: Auditor, name: str, expected: Expected) -> None:
    """Grade control ``name`` through its own phases: it passes its expectations, the
    golden keeps every target at 1.0, each target lands exactly where ``expected`` says
    with a detail naming why, and a critical control multiplies through a target."""
    (control,) = load_controls(SUITE, [name])
    verdict = auditor.check(control, quick=True)
    golden, _ = auditor.golden(control.phases)
    assert verdict.passed, verdict.problems
    for check in control.targets:
        assert golden.row(check).score == 1.0, golden.row(check).detail
    card_rows = {t.check_id: t for t in verdict.targets}
    for check, score, phrase in expected:
        assert card_rows[check].control == pytest.approx(score, abs=1e-4), card_rows[check].detail
        assert phrase in card_rows[check].detail  # the row says why, not only how much
    if control.severity == REPORT_ONLY:  # reported by a weight-zero row, never scored
        assert verdict.isolated == verdict.golden_score
    else:
        assert verdict.score < verdict.golden_score
    if control.critical:
        assert any(f.split(" x")[0] in control.targets for f in verdict.factors)
