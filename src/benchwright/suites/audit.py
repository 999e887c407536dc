"""A suite's self-test: grade its golden reference and each adversarial control, then
check that every control costs what its file says it costs.

A control is data, not a copy of the golden app: ``suites/<name>/controls/<control>.json``
holds a trajectory of Edit steps (``old_string`` -> ``new_string``) replayed onto the
golden reference with benchwright's own replay, so an edit that no longer applies is a
loud `SpecError`, never a silently unchanged tree. ``"tree": "none"`` grades an empty
directory (an agent that built nothing).

The expectations, checked for each control against the golden graded the same way:

- every target check scores below the golden's (and at most ``target_at_most``);
- the control's score is below the golden's (and at most ``score_at_most``);
- a ``critical`` control shows a critical factor < 1 naming one of its targets.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchwright.dsl import trajectory_from_dict
from benchwright.errors import HarnessError, SpecError
from benchwright.model import Scorecard, Status, Trajectory
from benchwright.workspace import Workspace, read_tree, replay

CONTROLS_DIR = "controls"
GOLDEN_DIR = "reference"
_KEYS = {"description", "targets", "phases", "critical", "edits", "tree"}
_KEYS |= {"target_at_most", "score_at_most"}
MEASURED = (Status.PASS, Status.FAIL)


@dataclass(frozen=True)
class Control:
    """One seeded defect and what it must cost."""

    name: str
    description: str
    targets: tuple[str, ...]
    """The checks the defect must lower."""
    phases: tuple[str, ...]
    """The phases that reach the targets (a quick audit grades only these)."""
    critical: bool
    """True when a critical factor < 1 must name one of the targets."""
    trajectory: Trajectory | None
    """Edits against the golden reference; None for no tree at all."""
    target_at_most: Mapping[str, float] = field(default_factory=dict)
    score_at_most: float | None = None
    source: str = ""


def load_control(path: Path) -> Control:
    """Read and validate one control file; every problem names the file and the field."""
    source = str(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SpecError.single(source, f"cannot read control: {exc}") from None
    if not isinstance(raw, dict):
        raise SpecError.single(source, "a control holds a JSON object")
    known = ", ".join(sorted(_KEYS))
    problems = [(k, f"unknown key (known: {known})") for k in raw if k not in _KEYS]
    for key, kind in (("description", str), ("targets", list), ("phases", list)):
        if not isinstance(raw.get(key), kind) or not raw.get(key):
            problems.append((key, f"required: a non-empty {kind.__name__}"))
    if not isinstance(raw.get("critical"), bool):
        problems.append(("critical", "required: true or false"))
    no_tree = raw.get("tree") == "none"
    if raw.get("tree", "golden") not in ("golden", "none"):
        problems.append(("tree", "'golden' (the default: edits on the reference) or 'none'"))
    if no_tree == ("edits" in raw):
        problems.append(("edits", "required unless tree is 'none' (and only then absent)"))
    ceilings = raw.get("target_at_most", {})
    if not isinstance(ceilings, dict) or set(ceilings) - set(raw.get("targets") or []):
        problems.append(("target_at_most", "an object keyed by some of the targets"))
    elif not all(_fraction(v) for v in ceilings.values()):
        problems.append(("target_at_most", "each ceiling is a score in [0, 1]"))
    if "score_at_most" in raw and not _fraction(raw["score_at_most"]):
        problems.append(("score_at_most", "a score in [0, 1]"))
    if problems:
        raise SpecError(source, problems)
    trajectory = None if no_tree else trajectory_from_dict({"steps": raw["edits"]}, source)
    return Control(
        path.stem, raw["description"], tuple(raw["targets"]), tuple(raw["phases"]),
        raw["critical"], trajectory, dict(ceilings), raw.get("score_at_most"), source,
    )  # fmt: skip


def _fraction(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1


def load_controls(suite_dir: Path, only: list[str] | None = None) -> tuple[Control, ...]:
    """Every ``controls/*.json`` of the suite, by name; ``only`` selects some (unknown: error)."""
    folder = Path(suite_dir) / CONTROLS_DIR
    controls = {p.stem: load_control(p) for p in sorted(folder.glob("*.json"))}
    if not controls:
        raise SpecError.single(str(folder), "no controls (*.json) here")
    unknown = sorted(set(only or ()) - set(controls))
    if unknown:
        raise SpecError.single(str(folder), f"unknown control(s) {', '.join(unknown)} "
                               f"(known: {', '.join(controls)})")  # fmt: skip
    return tuple(c for name, c in controls.items() if not only or name in only)


@contextmanager
def control_tree(control: Control, golden: Path) -> Iterator[Path]:
    """The golden reference with the control's edits replayed, as a temporary directory.

    Raises:
        SpecError: an edit no longer applies to the golden (its step and reason named).
    """
    if control.trajectory is None:
        with tempfile.TemporaryDirectory(prefix=f"benchwright-control-{control.name}-") as tmp:
            yield Path(tmp)
        return
    with Workspace(dict(read_tree(golden))) as workspace:
        errors = replay(workspace, control.trajectory)
        if errors:
            problems = [(f"edits[{e.step_index}]", f"{e.path}: {e.reason}") for e in errors]
            raise SpecError(control.source, problems)
        yield workspace.directory()


@dataclass(frozen=True)
class TargetFigure:
    check_id: str
    golden: float
    control: float
    status: str
    detail: str
    """The control's row detail: the rung earned and what was seen."""


@dataclass(frozen=True)
class ControlVerdict:
    """What one control scored against the golden and which expectations failed."""

    control: Control
    score: float
    golden_score: float
    targets: tuple[TargetFigure, ...]
    factors: tuple[str, ...]
    """Critical factors below the golden's, as ``check xF``."""
    problems: tuple[str, ...]
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.problems


def judge(control: Control, golden: Scorecard, card: Scorecard, seconds: float = 0.0):
    """Check a control's scorecard against its expectations and the golden's scorecard."""
    problems, figures = [], []
    for check in control.targets:
        base, row = golden.row(check), card.row(check)
        figures.append(TargetFigure(check, base.score, row.score, row.status.name, row.detail))
        if row.status not in MEASURED:
            problems.append(f"{check} was not measured ({row.status.name}: {row.detail})")
        elif row.score >= base.score:
            problems.append(f"{check} did not drop ({row.score:.4f}, golden {base.score:.4f})")
        ceiling = control.target_at_most.get(check)
        if ceiling is not None and row.score > ceiling:
            problems.append(f"{check} {row.score:.4f} is above its ceiling {ceiling:g}")
    if card.score >= golden.score:
        problems.append(f"score {card.score:.4f} is not below the golden's {golden.score:.4f}")
    if control.score_at_most is not None and card.score > control.score_at_most:
        problems.append(f"score {card.score:.4f} is above its ceiling {control.score_at_most:g}")
    applied = [f for f in card.factors if f.applied]
    base = {f.check_id: f.factor for f in golden.factors if f.applied}
    if control.critical and not [
        f for f in applied if f.check_id in control.targets and f.factor < base.get(f.check_id, 1)
    ]:
        problems.append("critical, but no critical factor < 1 (below the golden's) names a target")
    factors = tuple(
        f"{f.check_id} x{f.factor:.4f}" for f in applied if f.factor < base.get(f.check_id, 1)
    )
    return ControlVerdict(
        control, card.score, golden.score, tuple(figures), factors, tuple(problems), seconds
    )


@dataclass(frozen=True)
class AuditResult:
    suite: str
    golden_score: float
    golden_seconds: float
    verdicts: tuple[ControlVerdict, ...]
    quick: bool

    @property
    def passed(self) -> bool:
        return all(v.passed for v in self.verdicts)


class Auditor:
    """Grades trees of one suite as scorecards; golden gradings are cached per phase set."""

    def __init__(self, suite: str, seed: int = 0) -> None:
        from benchwright.scoring import load_scorer
        from benchwright.suites import grader_for
        from benchwright.suites.grade_run import scorer_path

        self.suite, self.seed = suite, seed
        self.suite_dir = Path(suite)
        self.golden_dir = self.suite_dir / GOLDEN_DIR
        if not self.golden_dir.is_dir():
            raise SpecError.single(suite, f"no golden reference at {self.golden_dir}")
        self.grader = grader_for(suite)
        self.scorer = load_scorer(scorer_path(suite, self.grader.SCORER))
        self._golden: dict[tuple[str, ...] | None, tuple[Scorecard, float]] = {}

    def validate(self, control: Control) -> None:
        """Refuse a control whose phases or targets this suite does not know, and one
        whose edits no longer apply to the golden, before anything is graded."""
        problems = []
        try:
            self.grader.select_phases(control.phases)
        except SpecError as exc:
            problems += [("phases", message) for _, message in exc.problems]
        unknown = sorted(set(control.targets) - set(self.scorer.wanted))
        if unknown:
            problems.append(("targets", f"unknown check(s) {', '.join(unknown)} for scorer "
                             f"{self.scorer.name} (see scorers/{self.grader.SCORER})"))  # fmt: skip
        if problems:
            raise SpecError(control.source, problems)
        with control_tree(control, self.golden_dir):
            pass

    def card(self, tree: Path, phases: tuple[str, ...] | None) -> tuple[Scorecard, float]:
        """Grade ``tree`` (``phases`` None: all) and compose; (scorecard, seconds).

        Raises:
            HarnessError: a phase raised (the harness broke, not the tree).
        """
        from benchwright.suites.report import scorecard_for

        started = time.monotonic()
        settings = self.grader.CheckSettings.from_scorer(self.scorer)
        grading = self.grader.grade(tree, seed=self.seed, phases=phases, check_settings=settings)
        broken = [f"{p.name} ({p.outcome})" for p in grading.phases if p.outcome[:6] == "failed"]
        if broken:  # INFRA rows would read as a control that missed: say it is the harness
            raise HarnessError(f"grading {tree} failed in phase(s) {'; '.join(broken)}")
        card = scorecard_for(grading, self.scorer, self.suite_dir.name)
        return card, time.monotonic() - started

    def golden(self, phases: tuple[str, ...] | None) -> tuple[Scorecard, float]:
        if phases not in self._golden:
            self._golden[phases] = self.card(self.golden_dir, phases)
        return self._golden[phases]

    def check(self, control: Control, *, quick: bool) -> ControlVerdict:
        """Grade one control (quick: through its own phases only) and judge it."""
        phases = control.phases if quick else None
        golden, _ = self.golden(phases)
        with control_tree(control, self.golden_dir) as tree:
            card, seconds = self.card(tree, phases)
        return judge(control, golden, card, seconds)


def audit(
    suite: str,
    *,
    only: list[str] | None = None,
    quick: bool = False,
    seed: int = 0,
    progress: Callable[[str], Any] | None = None,
) -> AuditResult:
    """Grade the golden and every control (``quick``: each through its own phases only).

    Raises:
        SpecError: unknown suite or control, an invalid control file (unknown phase or
            target check), or an edit that no longer applies to the golden reference (all
            checked before anything is graded).
    """
    auditor = Auditor(suite, seed)
    controls = load_controls(auditor.suite_dir, only)
    for control in controls:  # every control must be valid before minutes are spent grading
        auditor.validate(control)
    say = progress or (lambda _line: None)
    golden_seconds = 0.0
    if not quick:
        say("grading the golden reference (all phases)")
        golden_seconds = auditor.golden(None)[1]
    verdicts = []
    for control in controls:
        through = f" through {', '.join(control.phases)}" if quick else ""
        say(f"grading control {control.name}{through}")
        verdicts.append(auditor.check(control, quick=quick))
    golden_score = auditor.golden(None)[0].score if not quick else float("nan")
    return AuditResult(suite, golden_score, golden_seconds, tuple(verdicts), quick)


def audit_lines(result: AuditResult) -> list[str]:
    """The audit table: control, score, golden score, expectation met, then one line per
    target check (control / golden), the critical factors it triggered, and each failure."""
    mode = (
        "quick: each control and the golden through the control's phases"
        if result.quick
        else f"golden {result.golden_score:.4f}, graded in {result.golden_seconds:.0f} s"
    )
    pad = " " * 42
    lines = [f"audit {result.suite} ({mode})"]
    lines.append(f"{'control':<21} {'score':>7} {'golden':>7}  {'ok':<4}  target checks "
                 "(control / golden)")  # fmt: skip
    for v in result.verdicts:
        head = f"{v.control.name:<21} {v.score:7.4f} {v.golden_score:7.4f}  "
        head += f"{'PASS' if v.passed else 'FAIL':<4}  "
        for n, t in enumerate(v.targets):
            figure = f"{t.check_id} {t.control:.4f} / {t.golden:.4f}"
            lines.append((head if n == 0 else pad) + figure)
        if v.factors:
            lines.append(f"{pad}critical: {', '.join(v.factors)}")
        lines += [f"{pad}FAILED: {p}" for p in v.problems]
    failed = [v.control.name for v in result.verdicts if not v.passed]
    lines.append(
        f"{len(result.verdicts) - len(failed)}/{len(result.verdicts)} controls met their "
        "expectations" + (f"; failed: {', '.join(failed)}" if failed else "")
    )
    return lines


def audit_dict(result: AuditResult) -> dict[str, Any]:
    return {
        "suite": result.suite,
        "quick": result.quick,
        "golden_score": None if result.quick else result.golden_score,
        "passed": result.passed,
        "controls": [
            {
                "name": v.control.name,
                "description": v.control.description,
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
