"""The one ``grade`` of the Meridian-backed suites: its options and its phase plan."""

from pathlib import Path

import pytest

from benchwright.errors import SpecError
from benchwright.suites import vendorsync, vspro
from benchwright.suites.kit import Phase
from benchwright.suites.kit.phases import PhasePlan, plain


@pytest.mark.parametrize("suite", [vspro, vendorsync])
def test_a_mistyped_option_is_refused_not_ignored(suite, tmp_path: Path):
    with pytest.raises(TypeError, match=r"unknown option.*phase\b"):
        suite.grade(tmp_path, phase=["reads"])


@pytest.mark.parametrize("suite", [vspro, vendorsync])
def test_an_unknown_phase_is_refused_before_anything_runs(suite, tmp_path: Path):
    (tmp_path / suite.__name__.rsplit(".", 1)[1]).mkdir()
    with pytest.raises(SpecError, match="unknown phase"):
        suite.grade(tmp_path, phases=["nope"])


def sync1(ctx, obs):
    """Sync once."""


def reads(ctx, obs):
    """Read back."""


def test_plain_phases_are_named_after_their_functions_and_carry_no_flags():
    assert [(p.name, p.run, p.gates, p.after_down) for p in plain(sync1, reads)] == [
        ("sync1", sync1, False, False),
        ("reads", reads, False, False),
    ]


def test_a_plan_selects_in_order_with_boot_and_trace_joining_any_app_phase():
    plan = PhasePlan(
        (
            Phase("static", sync1, needs_app=False),
            Phase("boot", sync1, gates=True),
            *plain(sync1, reads),
            Phase("trace", reads, after_down=True),
        )
    )
    assert plan.names == ("static", "boot", "sync1", "reads", "trace")
    assert [p.name for p in plan.select(["reads"])] == ["boot", "reads", "trace"]
    assert [p.name for p in plan.select(["static"])] == ["static"]
    assert plan.select(None) == plan.phases
