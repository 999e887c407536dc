"""What a grading asks of a node (suites.grading_resources): the browser and its memory."""

from __future__ import annotations

from benchwright.execution.ray_executor import task_options
from benchwright.suites import grading_resources
from benchwright.suites.audit.drive import _job
from benchwright.suites.audit.run import Auditor
from benchwright.suites.vspro import MEMORY_MB


def test_a_full_vspro_grading_asks_for_the_browser_and_its_measured_memory():
    needs = grading_resources("suites/vspro", None)
    assert needs.browser and needs.memory_mb == MEMORY_MB["browser"] >= 1269
    options = task_options(needs)  # what Ray is asked for
    assert options["memory"] == MEMORY_MB["browser"] * 1024 * 1024
    assert options["resources"] == {"browser": 1}


def test_a_grading_without_the_browser_phase_asks_for_less():
    needs = grading_resources("vspro", ("sync_full", "reads"))
    assert not needs.browser and needs.memory_mb == MEMORY_MB["http"] >= 101
    assert MEMORY_MB["http"] < MEMORY_MB["browser"]


def test_an_audit_job_declares_its_grading_needs():
    auditor = Auditor("suites/vspro")
    assert _job(auditor, None, None).resources == grading_resources("vspro", None)
    control = _job(auditor, "blind-write", ("sync_full", "conflict")).resources
    assert not control.browser and control.memory_mb == MEMORY_MB["http"]


def test_a_grading_of_some_browser_scenarios_asks_for_the_browser():
    """``browser:load`` runs the browser phase in part: a node still needs Chromium."""
    assert grading_resources("sb7", ("boot", "browser:load")).browser


def test_sb7_caps_its_browser_gradings_at_one_per_machine_and_vspro_does_not():
    """sb-7's field renders on the CPU: two browser gradings at once would contend."""
    from benchwright.suites import browser_slots

    assert browser_slots("suites/sb7") == 1
    assert browser_slots("vspro") is None and browser_slots("no-such-suite") is None
