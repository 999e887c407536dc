"""The browser phase's retakes of a contended read-only scenario, on a real Chromium: taken
by default, skipped when the suite's settings say so (``retake_contended``, which an
audit's control gradings turn off: `audit.run.Auditor.grade_control`)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from benchwright.probes.browser import browser_available
from benchwright.probes.host import HostState
from benchwright.suites.kit.browser import BrowserRecord, ScenarioLog, named, run_browser
from benchwright.suites.kit.context import AppSettings

pytestmark = pytest.mark.skipif(browser_available() is not None, reason="no Chromium here")
BUSY = HostState(0.4, 2, 0.71, 0.0, 0.95, 5.1)
"""Another process took 71% of the machine over the scenario: contended."""


def _phase(tmp_path: Path, settings: AppSettings) -> tuple[BrowserRecord, list[str]]:
    """The phase with one lane whose step records ``load`` as seen on a busy host, and
    ``load`` repeatable; (the record, the views the retakes took)."""
    retakes: list[str] = []

    def contended_load(lane: Any, ctx: Any, shots: Path, seen: ScenarioLog) -> None:
        with seen.lock:
            seen.scenarios["load"], seen.host["load"] = "first view", BUSY

    def again(session: Any, ctx: Any, shots: Path) -> str:
        retakes.append("retake")
        return "retaken view"

    ctx = SimpleNamespace(work=tmp_path, settings=settings)
    record = run_browser(BrowserRecord, ctx, [(named(contended_load, "load"),)],
                         {"load": again}, ScenarioLog())  # fmt: skip
    return record, retakes


@pytest.mark.alone  # a retake is kept only when its real host window is quieter
def test_a_contended_read_only_scenario_is_taken_again_by_default(tmp_path: Path) -> None:
    record, retakes = _phase(tmp_path, AppSettings())
    assert record.unavailable is None and record.scenarios == {"load": "first view"}
    assert retakes and record.retimed == {"load": "retaken view"}  # timing rows read it


def test_retakes_off_leave_the_first_view_and_its_contended_host(tmp_path: Path) -> None:
    record, retakes = _phase(tmp_path, AppSettings(retake_contended=False))
    assert record.unavailable is None and record.scenarios == {"load": "first view"}
    assert retakes == [] and record.retimed == {}
    assert record.scenario_host["load"].contended  # its timing rows will say so
