"""Control files: one seeded defect each, stored as edits against the golden reference."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from benchwright.dsl import trajectory_from_dict
from benchwright.errors import SpecError
from benchwright.model import Trajectory
from benchwright.scoring.config import DEFECT_ORDER
from benchwright.workspace import Workspace, read_tree, replay

CONTROLS_DIR = "controls"
GOLDEN_DIR = "reference"
SEVERITIES: tuple[tuple[str, str], ...] = (
    ("inert", "nothing runs: no tree, or an app that never serves"),
    ("corrupting", "the stored data itself is wrong, so every reading built on it is"),
    ("critical", "one critical consequence (wrong money, lost data, a dead primary flow)"),
    ("major", "a duty broken without a critical consequence (a trap, a state, a probe)"),
    ("minor", "right data, served, fetched or shown imperfectly"),
    ("report-only", "a weight-zero diagnostic row flips; the score must not move"),
)
"""Gravest first. A full audit requires a graver control to score below a lighter one:
the order is declared from the defect's nature, before grading, so the audit tests the
scorer's sense of proportion instead of describing it. Presentation and protocol faults
share ``minor``: the methodology weighs what a user sees (the 375-px layout, readable
dates) as much as wire discipline, so ordering one above the other would be our taste,
not the seed's. ``report-only`` is for defects the scorer deliberately does not price (a
weight-zero diagnostic such as ``x_name_injection``): its isolated score must equal the
golden's, so it ranks lightest by construction."""
REPORT_ONLY = "report-only"
SEVERITY_RANK = {name: rank for rank, (name, _) in enumerate(SEVERITIES)}
_KEYS = {"description", "targets", "phases", "critical", "severity", "edits", "tree"}
_KEYS |= {"target_at_most", "score_at_most", "consequence"}


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
    severity: str
    """One of `SEVERITIES`: where the control must rank among the others."""
    trajectory: Trajectory | None
    """Edits against the golden reference; None for no tree at all."""
    target_at_most: Mapping[str, float] = field(default_factory=dict)
    score_at_most: float | None = None
    source: str = ""
    consequence: str | None = None
    """One of the scorer's defect classes (`scoring.config.DEFECT_ORDER`: wrong-money ...
    cosmetic), when the control is a representative of one: the audit then holds the
    methodology's consequence order over the controls that declare one, on top of the
    severity order (a wrong rendered amount must cost more than a console error, which a
    severity of ``critical`` vs ``major`` alone does not say)."""

    @property
    def rank(self) -> int:
        """0 for the gravest severity."""
        return SEVERITY_RANK[self.severity]


def load_control(path: Path) -> Control:
    """Read and validate one control file; every problem names the file and the field."""
    source = str(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SpecError.single(source, f"cannot read control: {exc}") from None
    if not isinstance(raw, dict):
        raise SpecError.single(source, "a control holds a JSON object")
    problems = _problems(raw)
    if problems:
        raise SpecError(source, problems)
    no_tree = raw.get("tree") == "none"
    trajectory = None if no_tree else trajectory_from_dict({"steps": raw["edits"]}, source)
    return Control(
        path.stem, raw["description"], tuple(raw["targets"]), tuple(raw["phases"]),
        raw["critical"], raw["severity"], trajectory, dict(raw.get("target_at_most", {})),
        raw.get("score_at_most"), source, raw.get("consequence"),
    )  # fmt: skip


def _problems(raw: dict) -> list[tuple[str, str]]:
    known = ", ".join(sorted(_KEYS))
    problems = [(k, f"unknown key (known: {known})") for k in raw if k not in _KEYS]
    for key, kind in (("description", str), ("targets", list), ("phases", list)):
        if not isinstance(raw.get(key), kind) or not raw.get(key):
            problems.append((key, f"required: a non-empty {kind.__name__}"))
    if not isinstance(raw.get("critical"), bool):
        problems.append(("critical", "required: true or false"))
    if raw.get("severity") not in SEVERITY_RANK:
        problems.append(("severity", f"required: one of {', '.join(SEVERITY_RANK)} (gravest "
                         "first)"))  # fmt: skip
    if raw.get("consequence", DEFECT_ORDER[0]) not in DEFECT_ORDER:
        problems.append(("consequence", f"one of {', '.join(DEFECT_ORDER)} (gravest first)"))
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
    return problems


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
