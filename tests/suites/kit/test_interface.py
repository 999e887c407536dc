"""The grader-module interface every suite exports, held at `grader_for`."""

import pytest

from benchwright import suites
from benchwright.errors import SpecError
from benchwright.suites.kit import SuiteGrader


def test_the_shipped_graders_offer_the_whole_interface():
    for name in suites.GRADERS:
        assert isinstance(suites.grader_for(name), SuiteGrader)


def test_a_module_missing_part_of_the_interface_is_refused_by_name(monkeypatch):
    monkeypatch.setitem(suites.GRADERS, "half", "benchwright.suites.kit")
    with pytest.raises(SpecError, match="lacks part of the SuiteGrader interface"):
        suites.grader_for("half")
