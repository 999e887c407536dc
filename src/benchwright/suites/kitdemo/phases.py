"""kitdemo's phases in their order: each is ``(ctx, observations) -> observation`` and the
kit (`kit.run_phases`) runs them: ``static`` before the app starts, the rest against it.
The boot is the kit's own kind (`kit.kinds.boot`); the others are kitdemo's."""

from __future__ import annotations

from collections.abc import Iterable

from benchwright.suites import kit
from benchwright.suites.kit import Phase, PhaseLog, kinds
from benchwright.suites.kitdemo.context import GradeContext
from benchwright.suites.kitdemo.observations import (
    ErrorsObs,
    NotesObs,
    RestartObs,
    StaticObs,
)

NOTES = ("buy milk", "call Ada", "ship kitdemo")
BAD_BODIES = ({}, {"text": ""}, {"text": 7})
MISSING = "/api/notes/999999"


def static(ctx: GradeContext, obs: PhaseLog) -> StaticObs:
    """Read kitdemo/__main__.py (never import or run it)."""
    main = ctx.tree / "kitdemo" / "__main__.py"
    return StaticObs(main.read_text(errors="replace") if main.is_file() else None)


def notes(ctx: GradeContext, obs: PhaseLog) -> NotesObs:
    """POST each of the three notes, then GET /api/notes."""
    created = tuple(ctx.call("/api/notes", method="POST", json={"text": t}) for t in NOTES)
    return NotesObs(created, ctx.call("/api/notes"))


def errors(ctx: GradeContext, obs: PhaseLog) -> ErrorsObs:
    """POST three bodies spec.md refuses, then GET a note that does not exist."""
    bad = tuple(ctx.call("/api/notes", method="POST", json=b) for b in BAD_BODIES)
    return ErrorsObs(bad, ctx.call(MISSING))


def restart(ctx: GradeContext, obs: PhaseLog) -> RestartObs:
    """POST a note and GET /api/notes; SIGKILL the app, start it on the same db and port,
    GET /api/notes again."""
    ctx.call("/api/notes", method="POST", json={"text": "survive the kill"})
    before = ctx.call("/api/notes")
    return RestartObs(before, ctx.app.restart(), ctx.call("/api/notes"))


PHASES = (
    Phase("static", static, needs_app=False),
    Phase("boot", kinds.boot, gates=True),
    Phase("notes", notes),
    Phase("errors", errors),
    Phase("restart", restart, gates=True),
)
PHASE_NAMES = tuple(p.name for p in PHASES)


def select_phases(names: Iterable[str] | None) -> tuple[Phase, ...]:
    """The phases to run (None: all), in order; ``boot`` comes with any app phase."""
    return kit.select_phases(PHASES, ("boot",), names)
