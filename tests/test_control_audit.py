"""The session-golden auditor's timed controls (tests/control_audit.py): graded inside
the ``alone`` block the test gives it, once, and never in the prefetch beside others. The
grading itself is replaced by a recorder: what is under test is where it happens."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from control_audit import SessionGoldenAuditor

from benchwright.suites.audit import Auditor, load_controls

SUITE = Path(__file__).resolve().parents[1] / "suites" / "vendorsync"


@pytest.fixture
def graded_where(monkeypatch: pytest.MonkeyPatch) -> tuple[SessionGoldenAuditor, list[tuple]]:
    seen: list[tuple] = []
    inside: list[bool] = [False]

    @contextmanager
    def alone() -> Iterator[None]:
        inside[0] = True
        yield
        inside[0] = False

    def grade(self, control, phases):  # the real one grades an app: minutes
        seen.append((control.name, inside[0]))
        return object()

    monkeypatch.setattr(Auditor, "grade_control", grade)
    return SessionGoldenAuditor(SUITE, [], timed={"slow-list"}, alone=alone), seen


def test_a_timed_control_is_graded_alone_and_once(graded_where) -> None:
    auditor, seen = graded_where
    (timed,) = load_controls(SUITE, ["slow-list"])
    (other,) = load_controls(SUITE, ["float-money"])
    for control in (timed, timed, other):
        auditor.grade_control(control, control.phases)
    assert seen == [("slow-list", True), ("float-money", False)]


def test_the_prefetch_leaves_a_timed_control_to_its_test(graded_where) -> None:
    auditor, seen = graded_where
    auditor.prefetch(["slow-list"], workers=1)  # nothing else asked: nothing to grade
    (timed,) = load_controls(SUITE, ["slow-list"])
    auditor.grade_control(timed, timed.phases)  # not in the prefetch's cache: graded here
    assert seen == [("slow-list", True)]
