"""A control's isolated score: what its defect alone costs, free of the host's noise.

A full grading of a control also re-measures every latency, frame count and probe wait
the defect never touches, and on a busy host those rows wobble by a rung or two: in one
audit a ``minor`` control lost 0.026 to a slow first paint its defect had nothing to do
with and ranked below a ``major`` one. The severity order asks how the scorer prices
each *defect*, so it is judged on the golden's rows with only the control's targets
taken from the control's card, composed with the suite's own scorer: the critical
factors, tier means and excellence conditions those rows drive are recomputed as in any
grading, and every other row is the golden's, identical for all controls.

An ``inert`` control is the exception: nothing runs, so every row is the defect's, and a
tree that serves nothing has no latency to be noisy. Its isolated score is its full one.
"""

from __future__ import annotations

from benchwright.model import CheckResult, Scorecard
from benchwright.scoring import Scorer, compose
from benchwright.scoring.criticals import leg_evidence
from benchwright.suites.audit.controls import Control

WHOLE_CARD = "inert"
"""The severity whose defect reaches every row (see `SEVERITIES`)."""


def isolated_score(control: Control, golden: Scorecard, card: Scorecard, scorer: Scorer) -> float:
    """Compose the golden's rows with the control's target rows in their place.

    Args:
        control: names the targets (an ``inert`` control takes its whole card).
        golden: the golden reference graded through the same phases as ``card``.
        card: the control's scorecard.
        scorer: the scorer both cards were composed with.
    """
    if control.severity == WHOLE_CARD:
        return card.score
    targets = set(control.targets)
    rows = [
        CheckResult(r.check_id, r.status, r.score, r.detail, leg_evidence(r.severity_leg))
        for r in (card.row(g.check_id) if g.check_id in targets else g for g in golden.rows)
        if not r.missing  # compose makes a wanted check with no row FAIL again
    ]
    return compose(rows, scorer).score
