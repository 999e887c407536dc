"""What a ``browser`` phase leaves in the record, whatever the suite: each scenario's view
(or why it has none), the screenshots, and the host across each scenario for the timing
rows. A suite's own observation subclasses it with what only that suite watches."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from benchwright.probes.host import HostState


@dataclass(frozen=True)
class BrowserRecord:
    """The ``browser`` phase: every scenario, or why there was no browser."""

    unavailable: str | None
    """Why Chromium was absent or died; then every browser check is UNAVAILABLE."""
    scenarios: Mapping[str, Any] = field(default_factory=dict)
    """Scenario name -> its view (the suite's frozen dataclass)."""
    scenario_errors: Mapping[str, str] = field(default_factory=dict)
    """Scenario -> why it raised (a harness fault, or an instance that would not boot)."""
    screenshots: tuple[Path, ...] = ()
    """Every PNG the scenarios took; the card keeps those a row relies on
    (`kit.screenshots`)."""
    wall_s: float = 0.0
    scenario_seconds: Mapping[str, float] = field(default_factory=dict)
    """Scenario -> its wall seconds (lanes run side by side, so these add up to more than
    ``wall_s``); also for a scenario that raised or lost the browser, and ``<name>
    retimed`` for the repeats of a contended one."""
    scenario_host: Mapping[str, HostState] = field(default_factory=dict)
    """Scenario -> the host across it (for a retimed one: the least contended attempt)."""
    retimed: Mapping[str, Any] = field(default_factory=dict)
    """Scenario -> the view of a repeat taken because the first ran on a contended host:
    timing rows read their figures from it; every other row reads ``scenarios``."""
    no_page: Mapping[str, str] = field(default_factory=dict)
    """Scenario -> what ``/`` answered when that was no page to drive (`kit.browser.nav`):
    the scenario stopped at its navigation, and its rows fail with this as their detail."""
    skipped: tuple[str, ...] = ()
    """Scenarios a sub-selection of the phase left out (``--phases browser:load``): their
    rows are NOT_ATTEMPTED, as those of an unselected phase."""

    def __post_init__(self) -> None:
        for name in ("scenarios", "scenario_errors", "scenario_seconds", "scenario_host",
                     "retimed", "no_page"):  # fmt: skip
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))
