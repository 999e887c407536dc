"""Running an audit through an executor: the golden and each control are one job each.

A job grades one tree from scratch in whichever process the executor picks - its own
copy of the tree, ports from the machine-wide leases, its own vendor mock, database,
network namespace and browser - and hands back the scorecard; the driver judges. So one
worker and N workers judge the same cards the same way, and the table is printed in
severity order whatever order the jobs finished in.

Host contention under a pool: a timing window counts as the grader's own only the CPU
of the process tree it was opened in (`probes.host`). A pool worker is that tree's
root, so a sibling grading - its app, its Chromium - is *foreign load*, exactly as
another user's build would be. That is the intended reading: a latency taken while a
sibling rendered WebGL on the same core is not the app's latency. Such rows come back
UNAVAILABLE (host contended) after the probe's own retakes, and a control whose
*target* came back that way is graded once more inside its job, as in a sequential
audit; rows a defect never touches are judged on the golden's card (`isolate`), so
noise there cannot move the severity order.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchwright.errors import HarnessError
from benchwright.execution.executor import Executor, Job, SerialExecutor
from benchwright.execution.progress import ProgressDisplay
from benchwright.execution.tracked import tracked
from benchwright.sandbox import Confinement
from benchwright.suites import grading_resources
from benchwright.suites.audit.controls import load_controls
from benchwright.suites.audit.judge import order_problems, ruler_problems
from benchwright.suites.audit.run import Auditor, AuditResult, Graded

GOLDEN = "golden"
"""Key prefix of the golden's jobs (one per phase set); controls are keyed by name."""


@dataclass(frozen=True)
class GradingJob:
    """What a worker needs to grade one tree of the audit: names, never open objects."""

    suite: str
    seed: int
    confinement: Confinement | None
    control: str | None
    """The control's name (its file stem); None grades the golden reference."""
    phases: tuple[str, ...] | None
    """None: every phase."""


def grade_job(job: GradingJob) -> Graded:
    """Grade one tree of the audit (runs in a worker: everything is rebuilt from names)."""
    auditor = Auditor(job.suite, job.seed, job.confinement)
    if job.control is None:
        return Graded(*auditor.card(auditor.golden_dir, job.phases))
    (control,) = load_controls(auditor.suite_dir, [job.control])
    return auditor.grade_control(control, job.phases)


def _golden_key(phases: tuple[str, ...] | None) -> str:
    return GOLDEN if phases is None else f"{GOLDEN}:{','.join(phases)}"


def _job(auditor: Auditor, control: str | None, phases: tuple[str, ...] | None) -> Job:
    key = _golden_key(phases) if control is None else control
    grading = GradingJob(auditor.suite, auditor.seed, auditor.confinement, control, phases)
    return Job(key, grading, grading_resources(auditor.suite, phases))


def audit(
    suite: str,
    *,
    only: list[str] | None = None,
    quick: bool = False,
    seed: int = 0,
    confinement: Confinement | None = None,
    executor: Executor | None = None,
) -> AuditResult:
    """Grade the golden and every control (``quick``: each through its own phases only),
    one job each on ``executor`` (default: one after another in this process), shown
    on stderr as they finish (`ProgressDisplay`).

    Raises:
        SpecError: unknown suite or control, an invalid control file (unknown phase or
            target check), or an edit that no longer applies to the golden reference (all
            checked before anything is graded).
        HarnessError: a grading's phase raised (named by its job), after the jobs still
            running were cancelled.
    """
    auditor = Auditor(suite, seed, confinement)
    controls = load_controls(auditor.suite_dir, only)
    for control in controls:  # every control must be valid before minutes are spent grading
        auditor.validate(control)
    phase_sets = sorted({c.phases for c in controls}) if quick else [None]
    jobs = [_job(auditor, None, phases) for phases in phase_sets]
    jobs += [_job(auditor, c.name, c.phases if quick else None) for c in controls]
    graded: dict[str, Graded] = {}
    with ProgressDisplay(len(jobs), "gradings") as shown:
        for done in tracked(executor or SerialExecutor(), grade_job, jobs, shown):
            if done.error is not None or done.result is None:
                raise HarnessError(f"audit job {done.key}: {done.error}")
            graded[done.key] = done.result
            line = f"graded {done.key} ({len(graded)}/{len(jobs)}) in {done.result.seconds:.0f} s"
            shown.finished(done.key, True, line)
    verdicts = tuple(
        auditor.verdict(c, graded[_golden_key(c.phases if quick else None)].card, graded[c.name])
        for c in controls
    )
    golden = graded.get(GOLDEN)
    golden_score = golden.card.score if golden else float("nan")
    order = () if quick else (*ruler_problems(auditor.scorer), *order_problems(verdicts))
    return AuditResult(suite, golden_score, golden.seconds if golden else 0.0, verdicts, quick,
                       order)  # fmt: skip
