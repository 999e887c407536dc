"""The kit's phase runner on a stand-in suite: its order, the block rule, and that the
app and the vendor are stopped however the phases end (no real app: the rule is the
kit's, whatever the suite)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from benchwright.errors import SpecError
from benchwright.sandbox import CONFINED
from benchwright.services.app import BootObservation
from benchwright.suites.kit import (
    Phase,
    PhaseLog,
    PhaseRecord,
    boot_failure,
    run_phases,
    select_phases,
)


class Handle:
    """An app or a vendor mock that remembers what the kit did to it."""

    def __init__(self, events: list[str], name: str) -> None:
        self.events, self.name = events, name

    def start(self, port: int = 0) -> str:
        self.events.append(f"{self.name} start")
        return "http://127.0.0.1:1"

    def stop(self) -> None:
        self.events.append(f"{self.name} stop")


class Context:
    def __init__(self, events: list[str], vendor: bool = True) -> None:
        self.events = events
        self.work = Path("/nonexistent")
        self.mock = Handle(events, "vendor") if vendor else None
        self.settings = SimpleNamespace(boot_budget_s=1.0)
        self.vendor_url = "http://127.0.0.1:9003"
        self.app: Any = None

    def new_app(
        self, db: Path, port: int, log_path: Path, budget_s: float, confinement: Any
    ) -> Handle:
        self.events.append(f"app on {db.name}")
        return Handle(self.events, "app")


def _boot(healthy: bool) -> SimpleNamespace:
    seen = BootObservation(1.0 if healthy else 0.0, "0.0: crashed at boot", 0.5 if healthy
                           else None, healthy, (), None if healthy else 1, None, b"Boom\n",
                           None, 1, Path("app.log"))  # fmt: skip
    return SimpleNamespace(boot=seen)


def _phase(name: str, seen: list[str], *, result: Any = "seen", **flags: bool) -> Phase:
    def run(ctx: Context, obs: PhaseLog) -> Any:
        seen.append(name)
        if isinstance(result, Exception):
            raise result
        return result

    return Phase(name, run, **flags)


def _suite(seen: list[str], boot: Any) -> tuple[Phase, ...]:
    return (
        _phase("boot", seen, result=boot, gates=True),
        _phase("static", seen, needs_app=False),
        _phase("reads", seen),
        _phase("trace", seen, after_down=True),
    )


def _run(
    phases: tuple[Phase, ...], events: list[str], vendor: bool = True
) -> tuple[PhaseLog, list[PhaseRecord]]:
    heard: list[tuple[str, str | None]] = []
    obs, records = run_phases(phases, Context(events, vendor), PhaseLog(), db=Path("db/app.db"),
                              log=Path("app.log"), confinement=CONFINED,
                              notify=lambda n, r: heard.append((n, r and r.outcome)))  # fmt: skip
    assert [n for n, outcome in heard if outcome is not None] == [r.name for r in records]
    return obs, records


def test_static_first_then_the_app_phases_between_serving_and_stopping(tmp_path):
    seen: list[str] = []
    events: list[str] = []
    obs, records = _run(_suite(seen, _boot(True)), events)
    assert seen == ["static", "boot", "reads", "trace"]
    assert [r.outcome for r in records] == ["ok"] * 4
    assert events == ["vendor start", "app on app.db", "app stop", "vendor stop"]
    assert obs["reads"] == "seen" and boot_failure(obs) is None


def test_a_suite_without_a_vendor_serves_none_and_still_stops_its_app():
    seen: list[str] = []
    events: list[str] = []
    phases = _suite(seen, _boot(True))
    phases = (*phases[:2], _phase("reads", seen, result=OSError("gone")), *phases[3:])
    _obs, records = _run(phases, events, vendor=False)
    assert seen == ["static", "boot", "reads", "trace"] and records[2].outcome.startswith("failed")
    assert events == ["app on app.db", "app stop"]


def test_an_unhealthy_boot_keeps_the_app_phases_but_the_trace_from_running():
    seen: list[str] = []
    events: list[str] = []
    obs, records = _run(_suite(seen, _boot(False)), events)
    assert seen == ["static", "boot", "trace"]
    outcomes = {r.name: r.outcome for r in records}
    assert outcomes["boot"] == "app exited 1 at boot: Boom" == boot_failure(obs).headline
    assert outcomes["reads"] == "app down" and "reads" in obs.app_down
    assert events[-2:] == ["app stop", "vendor stop"]


def test_a_gate_that_raises_is_a_harness_fault_for_the_phases_after_it():
    seen: list[str] = []
    events: list[str] = []
    obs, records = _run(_suite(seen, RuntimeError("no bwrap")), events)
    outcomes = {r.name: r.outcome for r in records}
    assert outcomes["boot"] == "failed: RuntimeError: no bwrap"
    assert outcomes["reads"] == "harness fault" and "no bwrap" in obs.failed["reads"]
    assert outcomes["trace"] == "ok" and events[-2:] == ["app stop", "vendor stop"]


def test_a_phase_that_raises_outside_a_gate_stops_only_itself():
    seen: list[str] = []
    phases = _suite(seen, _boot(True))
    phases = (*phases[:2], _phase("reads", seen, result=OSError("gone")), *phases[3:])
    obs, records = _run(phases, [])
    assert [r.outcome for r in records][2:] == ["failed: OSError: gone", "ok"]
    assert seen[-1] == "trace" and obs.failed == {"reads": "OSError: gone"}


def test_only_static_phases_never_serve_the_vendor_or_start_the_app():
    events: list[str] = []
    _obs, records = _run((_phase("static", [], needs_app=False),), events)
    assert [r.name for r in records] == ["static"] and events == []


def test_selection_keeps_the_suite_order_and_adds_the_always_with_app_phases():
    phases = _suite([], None)
    names = lambda chosen: [p.name for p in chosen]  # noqa: E731
    assert names(select_phases(phases, ("boot", "trace"), ["reads"])) == ["boot", "reads", "trace"]
    assert names(select_phases(phases, ("boot", "trace"), ["static"])) == ["static"]
    assert select_phases(phases, ("boot",), None) == phases
    with pytest.raises(SpecError, match=r"--phases.*unknown phase\(s\) nope \(known: boot, static"):
        select_phases(phases, ("boot",), ["nope", "reads"])
