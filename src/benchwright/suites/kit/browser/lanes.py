"""Running a suite's browser scenarios: on one Chromium, in concurrent lanes, each inside a
host window, the contended read-only ones taken again alone.

A scenario is ``(lane, ctx, shots) -> <frozen view>``: it drives one fresh browser
context and returns what it saw (never a verdict). A lane is a thread with its own
connection to the shared browser; its steps run in order, the lanes at the same time.
Most of a scenario is waiting (fixed waits, held responses), so running them side by
side shortens the phase. Scenarios that share state go in the same lane.

Every scenario runs inside a host window (`benchwright.probes.host`). A read-only timing
scenario whose window was contended by processes outside the grader is taken again after
the lanes, alone (at most ``REPEATS`` times): its least contended view goes to
``retimed``, which only the timing rows read.

A scenario whose navigation to ``/`` is answered with no page (`kit.browser.nav`) stops
there and is recorded in ``no_page``: nothing after it could come, so no wait runs out
its bound. A browser that is missing or dies makes the whole phase UNAVAILABLE.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from benchwright.probes.browser import BrowserSession, BrowserUnavailable, Lane
from benchwright.probes.host import REPEATS, HostState, least_contended, window
from benchwright.suites.kit.browser.nav import NoPage
from benchwright.suites.kit.browser.record import BrowserRecord
from benchwright.suites.kit.browser.select import named

SHOTS = "browser"
"""Screenshots go to ``<work>/browser/<scenario>/``; the grader keeps them as evidence."""
RETIME_SHOTS = "browser-retimed"
"""A repeat's screenshots: beside, never over, the evidence of the first run."""
LANES_BOUND_S = 600.0
"""Bound on all the lanes together. It is above the slowest lane's worst case (a 15 s boot
and a 240 s sync of a second instance besides its scenarios); every wait inside has a
tighter bound of its own."""
UNWIND_S = 30.0
"""After a lane failed: how long the others get to notice the killed browser and let go."""
Observe = Callable[[Lane, Any, Path], Any]
"""A scenario: it drives one fresh context on the lane and returns what it saw."""
R = TypeVar("R", bound=BrowserRecord)


@dataclass
class ScenarioLog:
    """What the lanes saw. Each scenario is written by one lane; the lock covers the maps.
    A suite subclasses it for what its own steps record besides views (``extras``)."""

    scenarios: dict[str, Any] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    host: dict[str, HostState] = field(default_factory=dict)
    retimed: dict[str, Any] = field(default_factory=dict)
    no_page: dict[str, str] = field(default_factory=dict)
    skipped: tuple[str, ...] = ()
    """The scenarios a sub-selection of the phase left out (`select.keep_lanes`)."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self, name: str, observe: Observe, lane: Lane, ctx: Any, shots: Path) -> None:
        """One scenario. A dead browser propagates; anything else is recorded against it."""
        started = time.monotonic()
        try:
            with window() as host:
                view = observe(lane, ctx, shots / name)
            with self.lock:
                self.host[name] = host.state  # type: ignore[assignment]
        except BrowserUnavailable:
            raise
        except NoPage as exc:  # the app's answer, not the probe's fault: its rows fail at once
            with self.lock:
                self.no_page[name] = str(exc)
        except Exception as exc:  # the probe's fault for this scenario: its checks UNAVAILABLE
            lane.ensure_alive(f"scenario {name!r}")  # unless the browser died under it
            self.fail((name,), f"{type(exc).__name__}: {exc}".splitlines()[0][:300])
        else:
            with self.lock:
                self.scenarios[name] = view
        finally:
            with self.lock:
                self.seconds[name] = round(time.monotonic() - started, 3)

    def fail(self, names: Iterable[str], why: str) -> None:
        with self.lock:
            self.errors.update(dict.fromkeys(names, why))

    def extras(self) -> dict[str, Any]:
        """The suite's own fields of its record (read under the lock)."""
        return {}

    def record(self, kind: type[R], unavailable: str | None, shots: Path, wall_s: float) -> R:
        """The phase's observation: ``kind`` (a `BrowserRecord`) of what was seen."""
        taken = tuple(sorted(shots.rglob("*.png"))) if shots.is_dir() else ()
        with self.lock:  # a lane that outlived UNWIND_S may still write
            return kind(
                unavailable=unavailable,
                scenarios=dict(sorted(self.scenarios.items())),
                scenario_errors=dict(sorted(self.errors.items())),
                screenshots=taken,
                wall_s=round(wall_s, 3),
                scenario_seconds=dict(sorted(self.seconds.items())),
                scenario_host=dict(sorted(self.host.items())),
                retimed=dict(sorted(self.retimed.items())),
                no_page=dict(sorted(self.no_page.items())),
                skipped=self.skipped,
                **self.extras(),
            )


Step = Callable[[Lane, Any, Path, Any], None]
"""One step of a lane: ``(lane, ctx, shots, log)``; a scenario or a suite's own doing."""


def scenario(name: str, observe: Observe) -> Step:
    """A step that runs one scenario and records what it saw, or why it could not (named,
    so that a sub-selection of the phase finds it: `select.keep_lanes`)."""

    def step(lane: Lane, ctx: Any, shots: Path, seen: ScenarioLog) -> None:
        seen.run(name, observe, lane, ctx, shots)

    return named(step, name)


def run_browser(
    kind: type[R],
    ctx: Any,
    plan: list[tuple[Step, ...]],
    repeatable: Mapping[str, Observe],
    seen: ScenarioLog,
) -> R:
    """The whole phase: the lanes of ``plan`` on one Chromium, then the contended
    ``repeatable`` scenarios again (unless the suite's settings turn retakes off:
    ``retake_contended``); ``kind`` of what was seen. No browser here, or one that dies:
    the record says why (``unavailable``) and every browser check refuses."""
    started = time.monotonic()
    shots = ctx.work / SHOTS
    try:
        with BrowserSession(artifacts=shots) as session:
            run_lanes(session, plan, ctx, shots, seen)
        if ctx.settings.retake_contended:
            retime(repeatable, ctx, ctx.work / RETIME_SHOTS, seen)
        unavailable = None
    except BrowserUnavailable as exc:
        unavailable = exc.reason
    return seen.record(kind, unavailable, shots, time.monotonic() - started)


def retime(repeatable: Mapping[str, Observe], ctx: Any, shots: Path, seen: ScenarioLog) -> None:
    """Take each contended read-only scenario again, alone, at most ``REPEATS`` times or
    until a run is uncontended; keep the least contended view in ``seen.retimed`` (the
    first run's stays in ``seen.scenarios`` for every row that is not about time; the
    repeats' seconds are a part of their own, ``<name> retimed``). Each
    repeat gets a fresh browser (a scenario name runs once per session). A repeat that
    raises -- its browser lost included: the lanes' results are already in -- ends the
    repeats: the first view stands, with its contended state."""
    for name, observe in repeatable.items():
        first = seen.host.get(name)
        if name not in seen.scenarios or first is None or not first.contended:
            continue
        attempts: list[tuple[Any, HostState]] = [(None, first)]
        started = time.monotonic()
        for attempt in range(1, REPEATS + 1):
            folder = shots / f"{name}-{attempt}"
            try:
                with BrowserSession(artifacts=folder) as session, window() as host:
                    view = observe(session, ctx, folder / name)  # type: ignore[arg-type]
            except Exception:  # a lost repeat browser too: the first view stands, contended
                break
            attempts.append((view, host.state))  # type: ignore[arg-type]
            if not host.state.contended:  # type: ignore[union-attr]
                break
        seen.seconds[f"{name} retimed"] = round(time.monotonic() - started, 3)
        view, state = least_contended(attempts)
        seen.host[name] = replace(state, attempts=len(attempts))
        if view is not None:
            seen.retimed[name] = view


def run_lanes(
    session: BrowserSession,
    plan: list[tuple[Step, ...]],
    ctx: Any,
    shots: Path,
    seen: ScenarioLog,
) -> None:
    """Each lane in its own thread. When one fails, the browser is killed so that the
    others stop at their next browser call instead of measuring on; the error is raised.

    Raises:
        BrowserUnavailable: a lane lost the browser, or the lanes outran ``LANES_BOUND_S``.
    """
    pool = ThreadPoolExecutor(max_workers=len(plan), thread_name_prefix="browser-lane")
    lanes = [pool.submit(_drive, session, steps, ctx, shots, seen) for steps in plan]
    pool.shutdown(wait=False)  # every wait below is bounded instead
    done, running = wait(lanes, timeout=LANES_BOUND_S, return_when=FIRST_EXCEPTION)
    failed = [future for future in lanes if future in done and future.exception() is not None]
    if failed or running:
        session.abort()
        wait(running, timeout=UNWIND_S)
    if failed:
        failed[0].result()  # raises the lane's error
    if running:
        raise BrowserUnavailable(f"the browser scenarios did not end within {LANES_BOUND_S:g} s")


def _drive(
    session: BrowserSession, steps: tuple[Step, ...], ctx: Any, shots: Path, seen: ScenarioLog
) -> None:
    """One lane: this thread's own connection to the browser, its steps in order."""
    with session.lane() as lane:
        for step in steps:
            step(lane, ctx, shots, seen)
