"""The vendorsync controls as files: each loads, names checks of `scorers/sb52.yaml` and
phases of the grader (`Auditor.validate`), and its edits still apply to the golden
reference, changing exactly the files they name. Nothing is graded here
(``test_graded_controls.py`` grades them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchwright.suites.audit import Auditor, control_tree, load_controls
from benchwright.suites.vendorsync import PHASE_NAMES

REPO = Path(__file__).resolve().parents[3]
SUITE = REPO / "suites" / "vendorsync"
GOLDEN = SUITE / "reference"
AUDITOR = Auditor(str(SUITE))
REQUIRED = ("float-money", "string-sorted-times", "duplicate-rows-on-resync",
            "no-idempotency-key", "ignores-retry-after", "cursor-expiry-as-end",
            "raw-iso-dates", "no-empty-state", "wrong-404-shape", "no-limit-cap",
            "crash-on-fresh-db", "slow-list")  # fmt: skip
"""The twelve defects issue #27 names, by their control's name."""
CONTROLS = load_controls(SUITE)


def test_the_issue_s_twelve_defects_and_every_tier_are_covered():
    names = {c.name for c in CONTROLS}
    assert len(names) >= 14 and set(REQUIRED) <= names
    tiers = {AUDITOR.scorer.tier_of[check] for c in CONTROLS for check in c.targets}
    assert tiers >= {"A", "B", "C", "D", "J", "V", "P", "HARD"}


@pytest.mark.parametrize("control", CONTROLS, ids=lambda c: c.name)
def test_a_control_names_known_checks_and_phases(control):
    AUDITOR.validate(control)  # known phases and target checks; every edit applies
    assert list(control.phases) == sorted(control.phases, key=PHASE_NAMES.index)
    # sb-5.2 has no critical factors: a control marked critical could never pass the audit
    assert control.critical is False


@pytest.mark.parametrize("control", CONTROLS, ids=lambda c: c.name)
def test_a_control_s_edits_apply_to_the_golden_and_change_only_their_files(control):
    with control_tree(control, GOLDEN) as tree:
        if control.trajectory is None:
            assert not any(tree.iterdir())  # the no-tree control: nothing at all
            return
        changed = {
            p.relative_to(tree).as_posix() for p in tree.rglob("*")
            if p.is_file() and p.read_bytes() != (GOLDEN / p.relative_to(tree)).read_bytes()
        }  # fmt: skip
        assert changed == {e.path for e in control.trajectory.file_edits()}


def test_docs_vendorsync_lists_every_control_as_its_file_declares_it():
    page = (REPO / "docs" / "vendorsync.md").read_text(encoding="utf-8")
    section = page.split("## Controls and `benchwright audit`")[1].split("\n## ")[0]
    listed = {}
    for line in section.splitlines():
        if line.startswith("| `"):
            name, severity, targets, phases = (cell.strip() for cell in line.strip("|").split("|"))
            listed[name.strip("`")] = (severity, targets.replace("`", "").split(", "),
                                       phases.split())  # fmt: skip
    assert listed == {c.name: (c.severity, list(c.targets), list(c.phases)) for c in CONTROLS}


def test_validate_reads_the_controls_and_takes_checks_yaml_for_no_task(cli):
    done = cli("validate", str(SUITE))
    assert done.returncode == 0, done.stderr
    assert f"valid: 1 task, 1 suite, {len(CONTROLS)} controls" in done.stdout
    assert "1 not listed by their suite file" in done.stdout  # checks.yaml: the docs' data
