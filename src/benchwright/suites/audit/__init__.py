"""A suite's self-test: grade its golden reference and each adversarial control, then
check that every control costs what its file says it costs, and that the controls rank
in the order of their declared severity.

A control is data, not a copy of the golden app: ``suites/<name>/controls/<control>.json``
holds a trajectory of Edit steps (``old_string`` -> ``new_string``) replayed onto the
golden reference with benchwright's own replay, so an edit that no longer applies is a
loud `SpecError`, never a silently unchanged tree. ``"tree": "none"`` grades an empty
directory (an agent that built nothing).

The expectations, checked for each control against the golden graded the same way:

- every target check scores below the golden's (and at most ``target_at_most``);
- the control's isolated score (see `isolate`: the golden's rows with the control's
  targets in their place) is below the golden's; its full score at most ``score_at_most``;
- a ``critical`` control shows a critical factor < 1 naming one of its targets;
- in a full audit, a control of a graver ``severity`` has a lower isolated score than
  every control of a lighter one (see `SEVERITIES`), so latency noise in rows a defect
  never touches cannot decide the order.

The report's last line states the verdict and `exit_code` agrees with it.
"""

from benchwright.suites.audit.controls import (
    SEVERITIES,
    Control,
    control_tree,
    load_control,
    load_controls,
)
from benchwright.suites.audit.drive import GradingJob, audit, grade_job
from benchwright.suites.audit.isolate import isolated_score
from benchwright.suites.audit.judge import (
    ControlVerdict,
    TargetFigure,
    judge,
    order_problems,
    ruler_problems,
)
from benchwright.suites.audit.report import (
    audit_dict,
    audit_lines,
    exit_code,
    verdict_line,
    write_audit,
)
from benchwright.suites.audit.run import Auditor, AuditResult, Graded

__all__ = [
    "SEVERITIES",
    "AuditResult",
    "Auditor",
    "Control",
    "ControlVerdict",
    "Graded",
    "GradingJob",
    "TargetFigure",
    "audit",
    "audit_dict",
    "audit_lines",
    "control_tree",
    "exit_code",
    "grade_job",
    "isolated_score",
    "judge",
    "load_control",
    "load_controls",
    "order_problems",
    "ruler_problems",
    "verdict_line",
    "write_audit",
]
